import { Struct } from "effect"
import { changesBetween } from "../../activity/changes.ts"
import type { ActivityChange } from "../../activity/model.ts"
import type { DashboardId, UserId } from "../../shared/ids.ts"
import { pythonStrip } from "../../shared/fields.ts"
import { derivedColumns } from "../derived.ts"
import type { StoredFlag } from "../model.ts"
import { type FlagColumns, FlagWritable } from "../repository.ts"
import type { CreateInput, FlagInput } from "./rules.ts"

/** PostHog's `tagify` (trimmed, lower-case), without duplicates; kept sorted so the answer is stable. */
export const normalizedTags = (tags: ReadonlyArray<string>) => [...new Set(tags.map((tag) => pythonStrip(tag).toLowerCase()))].sort()

/** PostHog links analytics dashboards with get_or_create: a write adds dashboards, never removes one. */
const withDashboards = (current: ReadonlyArray<DashboardId>, added: ReadonlyArray<number> | undefined) =>
  added === undefined ? current : [...new Set([...current, ...(added as ReadonlyArray<DashboardId>)])]

/** The writable fields' names: what a write copies from the body, or else from the flag, unless a rule below decides. */
const WRITABLE = Object.keys(FlagWritable.fields) as ReadonlyArray<keyof FlagWritable>

/** A new flag's fields where the body leaves them out, as PostHog's model defaults them. */
const NEW_FLAG = {
  name: "",
  filters: {},
  deleted: false,
  active: true,
  ensure_experience_continuity: false,
  rollback_conditions: null,
  performed_rollback: false,
  tags: [],
  analytics_dashboards: [],
  has_enriched_analytics: false,
  is_remote_configuration: false,
  has_encrypted_payloads: false,
  evaluation_runtime: "all"
} satisfies Omit<FlagWritable, "key" | "last_modified_by_id">

/** The body over the flag's fields (`base`): each writable field from the body if given, else as it is. */
const columnsOf = (base: FlagWritable, input: FlagInput, key: string, user: UserId | null): FlagColumns => {
  const merged = { ...base, ...input }
  return {
    ...Struct.pick(merged, WRITABLE),
    key,
    // Model-nullable booleans: null is stored as false.
    ensure_experience_continuity: merged.ensure_experience_continuity ?? false,
    // Turning a flag on clears a performed rollback, as PostHog's `_update_filters` does.
    performed_rollback: input.active === true ? false : merged.performed_rollback ?? false,
    has_enriched_analytics: merged.has_enriched_analytics ?? false,
    is_remote_configuration: merged.is_remote_configuration ?? false,
    has_encrypted_payloads: merged.has_encrypted_payloads ?? false,
    tags: input.tags === undefined ? base.tags : normalizedTags(input.tags),
    analytics_dashboards: withDashboards(base.analytics_dashboards, input.analytics_dashboards),
    last_modified_by_id: user,
    ...derivedColumns(merged.filters)
  }
}

export const newFlagColumns = (input: CreateInput, user: UserId | null): FlagColumns =>
  columnsOf({ ...NEW_FLAG, key: input.key, last_modified_by_id: user }, input, input.key, user)

export const nextFlagColumns = (current: StoredFlag, input: FlagInput, key: string, user: UserId | null): FlagColumns =>
  columnsOf(current, input, key, user)

/** The fields PostHog's activity log compares for a flag, in its model's order (the entry's order). */
const LOGGED_FIELDS = [
  "key", "name", "filters", "deleted", "active", "rollback_conditions", "performed_rollback",
  "ensure_experience_continuity", "has_enriched_analytics", "is_remote_configuration", "has_encrypted_payloads",
  "evaluation_runtime", "tags"
] as const satisfies ReadonlyArray<keyof FlagWritable & keyof StoredFlag>
type Logged = Pick<FlagWritable, (typeof LOGGED_FIELDS)[number]>

/** Field-level changes of an update; empty when the PATCH changed nothing. */
export const flagChanges = (current: StoredFlag, next: FlagColumns): ReadonlyArray<ActivityChange> =>
  changesBetween<Logged>("FeatureFlag", LOGGED_FIELDS, current, next)

/** PostHog logs the version bump with the rest of a real change (its model field is not excluded). */
export const versionChange = (from: number): ActivityChange => ({
  type: "FeatureFlag",
  action: "changed",
  field: "version",
  before: from,
  after: from + 1
})
