import { changesBetween } from "../../activity/changes.ts"
import type { ActivityChange } from "../../activity/model.ts"
import type { StoredFlag } from "../model.ts"
import type { FlagColumns, FlagWritable } from "../repository.ts"

/** The activity log's scope for flags, and the type of their changes: PostHog's name for the resource. */
export const FLAG_ACTIVITY_SCOPE = "FeatureFlag"

/** The fields PostHog's activity log compares for a flag, in the order its entries list them. */
const LOGGED_FIELDS = [
  "key", "name", "filters", "deleted", "active", "rollback_conditions", "performed_rollback",
  "ensure_experience_continuity", "has_enriched_analytics", "is_remote_configuration", "has_encrypted_payloads",
  "evaluation_runtime", "tags"
] as const satisfies ReadonlyArray<keyof FlagWritable & keyof StoredFlag>
type Logged = Pick<FlagWritable, (typeof LOGGED_FIELDS)[number]>

/** The logged fields that come before the version in PostHog's list of a flag's fields. */
const BEFORE_VERSION: ReadonlySet<string> = new Set(LOGGED_FIELDS.slice(0, LOGGED_FIELDS.indexOf("active") + 1))

/** Field-level changes of an update; empty when the PATCH changed nothing. */
export const flagChanges = (current: StoredFlag, next: FlagColumns): ReadonlyArray<ActivityChange> =>
  changesBetween<Logged>(FLAG_ACTIVITY_SCOPE, LOGGED_FIELDS, current, next)

/** The changes with the version's step among them, where PostHog lists it: a real change logs it too. */
export const withVersion = (changes: ReadonlyArray<ActivityChange>, from: number): ReadonlyArray<ActivityChange> => {
  const at = changes.findIndex((change) => !BEFORE_VERSION.has(change.field ?? ""))
  const list = [...changes]
  list.splice(at === -1 ? list.length : at, 0, {
    type: FLAG_ACTIVITY_SCOPE,
    action: "changed",
    field: "version",
    before: from,
    after: from + 1
  })
  return list
}
