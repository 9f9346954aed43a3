import type { EVENT_CHOICES } from "@hedgerow/core"
import type { Success } from "../api/contract.ts"
import { mayAdminister } from "@hedgerow/core/levels"
import { myLevel } from "../members/levels.ts"
import type { Me } from "../shell/me.ts"

/** A webhook as the API answers it: never its secret. */
export type Webhook = Success<"GET", "/api/projects/:project_id/webhooks/:id/">

export const WEBHOOKS_PATH = "/api/projects/:project_id/webhooks/"
export const WEBHOOK_PATH = "/api/projects/:project_id/webhooks/:id/"

/** The prefix of every read of a project's webhooks (list, webhook, deliveries): what a write to one makes stale. */
export const webhooksPrefix = (projectId: string) => `/api/projects/${encodeURIComponent(projectId)}/webhooks/`

/** Every change, the API's `*`. */
export const EVERY_EVENT = "*"

/**
 * The words for each event a webhook may subscribe to (in types only: the record must name every one of
 * core's choices and no other, so the list cannot drift from what the API accepts).
 */
export const EVENT_WORDS = {
  "*": "Every change",
  "feature_flag.created": "A flag is created",
  "feature_flag.updated": "A flag is changed",
  "feature_flag.deleted": "A flag is deleted",
  "feature_flag.restored": "A flag is restored",
  "cohort.created": "A cohort is created",
  "cohort.updated": "A cohort is changed",
  "cohort.deleted": "A cohort is deleted",
  "cohort.restored": "A cohort is restored",
  "cohort.persons_added_manually": "Persons are added to a static cohort",
  "cohort.person_removed_manually": "A person is removed from a static cohort"
} as const satisfies Record<(typeof EVENT_CHOICES)[number], string>

/** The events one by one, every change left out. */
export const SINGLE_EVENTS = Object.keys(EVENT_WORDS).filter((event) => event !== EVERY_EVENT)

/** A webhook's events in words, "Every change" for `*`. */
export const eventsWords = (events: ReadonlyArray<string>): string =>
  events.includes(EVERY_EVENT) ? EVENT_WORDS[EVERY_EVENT] : events.join(", ")

/** Whether the user may change the organization's webhooks: core's administrator rule, known to hold. */
export const canChangeWebhooks = (me: Me, organizationId: string | undefined): boolean => {
  if (organizationId === undefined) return false
  const level = myLevel(me, organizationId)
  return level !== null && mayAdminister(level)
}
