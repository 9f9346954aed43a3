/**
 * What a webhook can subscribe to: `<kind>.<activity>` for each change that writes an activity entry,
 * and `webhook.test`, which only the test action sends. `*` subscribes to every change.
 */
export const EVERY_EVENT = "*"
export const TEST_EVENT = "webhook.test"

/** The activity scopes whose changes webhooks carry, by the kind their events are named after. */
const KIND_OF_SCOPE: Readonly<Record<string, string>> = { FeatureFlag: "feature_flag", Cohort: "cohort" }

export const WEBHOOK_EVENTS = [
  "feature_flag.created",
  "feature_flag.updated",
  "feature_flag.deleted",
  "feature_flag.restored",
  "cohort.created",
  "cohort.updated",
  "cohort.deleted",
  "cohort.restored",
  "cohort.persons_added_manually",
  "cohort.person_removed_manually"
] as const

/** What a webhook's `events` may list. */
export const EVENT_CHOICES = [EVERY_EVENT, ...WEBHOOK_EVENTS] as const

/** The event an activity entry is, or undefined for a scope webhooks do not carry. */
export const eventOf = (entry: { readonly scope: string; readonly activity: string }): string | undefined => {
  const kind = KIND_OF_SCOPE[entry.scope]
  return kind === undefined ? undefined : `${kind}.${entry.activity}`
}

export const subscribes = (events: ReadonlyArray<string>, event: string): boolean =>
  events.includes(EVERY_EVENT) || events.includes(event)
