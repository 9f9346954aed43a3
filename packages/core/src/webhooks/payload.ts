import { jsonEqual } from "../activity/changes.ts"
import type { ActivityChange, ActivityLogView } from "../activity/model.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import type { ProjectId } from "../shared/ids.ts"

/** A flag's stored fields that a payload shows; the rest are the store's bookkeeping. */
const FLAG_FIELDS = [
  "id", "key", "name", "filters", "active", "deleted", "version", "ensure_experience_continuity",
  "rollback_conditions", "performed_rollback", "tags", "has_enriched_analytics", "is_remote_configuration",
  "has_encrypted_payloads", "evaluation_runtime", "creation_context", "created_at", "updated_at"
] as const

const flagOf = (row: JsonRecord): JsonRecord =>
  Object.fromEntries(FLAG_FIELDS.filter((field) => field in row).map((field) => [field, row[field]]))

/**
 * The empty value of a field's kind. The log records a field that was empty ("", [] or {}) as `created`
 * from null, so the kind comes from the value after.
 */
const emptyLike = (value: unknown): unknown =>
  typeof value === "string" ? "" : Array.isArray(value) ? [] : isRecord(value) ? {} : null

/** The flag before the change: the one after with each logged field set back to what the entry says it was. */
const before = (after: JsonRecord, changes: ReadonlyArray<ActivityChange>): JsonRecord => {
  const row: Record<string, unknown> = { ...after }
  for (const change of changes) {
    if (change.field === null || !(change.field in row)) continue
    row[change.field] = change.action === "created" ? emptyLike(change.after) : change.before
  }
  return row
}

/** A flag on either side of a change; null where there is none (before a creation, or not a flag). */
export interface FlagSides {
  readonly before: JsonRecord | null
  readonly after: JsonRecord | null
}

/**
 * The flag before and after each change, in the order the changes were recorded. A change's record holds
 * the row as its statement left it, and one statement may write several changes of a flag (PATCHes
 * written together): those share the same row, so each but the last is given, as its after, the before
 * of the change that followed it.
 */
export const flagSides = (
  changes: ReadonlyArray<{ readonly entry: ActivityLogView; readonly item: unknown }>
): ReadonlyArray<FlagSides> => {
  const later = new Map<string, { readonly row: unknown; readonly before: JsonRecord | null }>()
  const sides: Array<FlagSides> = []
  for (let i = changes.length - 1; i >= 0; i--) {
    const { entry, item } = changes[i]!
    const item_key = `${entry.scope}:${entry.item_id}`
    const next = later.get(item_key)
    const after = next !== undefined && jsonEqual(next.row, item) ? next.before : isRecord(item) ? flagOf(item) : null
    const sidesOf = {
      before: after === null || entry.activity === "created" ? null : before(after, entry.detail.changes ?? []),
      after
    }
    later.set(item_key, { row: item, before: sidesOf.before })
    sides[i] = sidesOf
  }
  return sides
}

/**
 * A delivery's body: Standard Webhooks' `type`, `timestamp` and `data`; the data holds the activity
 * entry (who, what, when, the field changes) and, for flags, the flag before and after.
 */
export const payloadOf = (event: string, project_id: ProjectId, entry: ActivityLogView, sides: FlagSides): string =>
  JSON.stringify({ type: event, timestamp: entry.created_at, data: { project_id, activity: entry, ...sides } })

/** The body the test action sends: who asked, and when. */
export const testPayloadOf = (project_id: ProjectId, webhook_id: string, at: string): string =>
  JSON.stringify({ type: "webhook.test", timestamp: at, data: { project_id, webhook_id } })
