import { changesBetween } from "../activity/changes.ts"
import type { ActivityChange } from "../activity/model.ts"
import type { DashboardId, UserId } from "../shared/ids.ts"
import type { JsonRecord } from "../shared/fields.ts"
import { dependenciesOf, fullRolloutOf, isMultivariate } from "./computed.ts"
import type { EvaluationRuntime, StoredFeatureFlag } from "./model.ts"
import type { FlagColumns } from "./repository.ts"
import type { CreateInput, FlagInput } from "./rules.ts"

/** What the list filters need, computed here so that SQL never reads filters. */
export const derivedColumns = (filters: JsonRecord) => ({
  is_multivariate: isMultivariate(filters),
  fully_rolled_out: fullRolloutOf(filters) !== null,
  depends_on: dependenciesOf(filters)
})

/** PostHog's `tagify` (trimmed, lower-case), without duplicates; kept sorted so the answer is stable. */
export const normalizedTags = (tags: ReadonlyArray<string>) => [...new Set(tags.map((tag) => tag.trim().toLowerCase()))].sort()

/** Model-nullable booleans: null is stored as false. */
const flagOf = (value: boolean | null | undefined, fallback: boolean) => (value === undefined ? fallback : value ?? false)

/** PostHog links analytics dashboards with get_or_create: a write adds dashboards, never removes one. */
const withDashboards = (current: ReadonlyArray<DashboardId>, added: ReadonlyArray<number> | undefined) =>
  added === undefined ? current : [...new Set([...current, ...(added as ReadonlyArray<DashboardId>)])]

export const newFlagColumns = (input: CreateInput, user: UserId | null): FlagColumns => {
  const filters = input.filters ?? {}
  return {
    key: input.key,
    name: input.name ?? "",
    filters,
    deleted: input.deleted ?? false,
    active: input.active ?? true,
    ensure_experience_continuity: flagOf(input.ensure_experience_continuity, false),
    rollback_conditions: input.rollback_conditions ?? null,
    // Turning a flag on clears a performed rollback, as PostHog's `_update_filters` does.
    performed_rollback: input.active === true ? false : flagOf(input.performed_rollback, false),
    tags: normalizedTags(input.tags ?? []),
    analytics_dashboards: withDashboards([], input.analytics_dashboards),
    has_enriched_analytics: flagOf(input.has_enriched_analytics, false),
    is_remote_configuration: flagOf(input.is_remote_configuration, false),
    has_encrypted_payloads: flagOf(input.has_encrypted_payloads, false),
    evaluation_runtime: (input.evaluation_runtime ?? "all") as EvaluationRuntime,
    last_modified_by_id: user,
    ...derivedColumns(filters)
  }
}

export const nextFlagColumns = (current: StoredFeatureFlag, input: FlagInput, key: string, user: UserId | null): FlagColumns => {
  const filters = input.filters ?? current.filters
  return {
    key,
    name: input.name ?? current.name,
    filters,
    deleted: input.deleted ?? current.deleted,
    active: input.active ?? current.active,
    ensure_experience_continuity: flagOf(input.ensure_experience_continuity, current.ensure_experience_continuity),
    rollback_conditions: input.rollback_conditions === undefined ? current.rollback_conditions : input.rollback_conditions,
    performed_rollback: input.active === true ? false : flagOf(input.performed_rollback, current.performed_rollback),
    tags: input.tags === undefined ? current.tags : normalizedTags(input.tags),
    analytics_dashboards: withDashboards(current.analytics_dashboards, input.analytics_dashboards),
    has_enriched_analytics: flagOf(input.has_enriched_analytics, current.has_enriched_analytics),
    is_remote_configuration: flagOf(input.is_remote_configuration, current.is_remote_configuration),
    has_encrypted_payloads: flagOf(input.has_encrypted_payloads, current.has_encrypted_payloads),
    evaluation_runtime: (input.evaluation_runtime ?? current.evaluation_runtime) as EvaluationRuntime,
    last_modified_by_id: user,
    ...derivedColumns(filters)
  }
}

/** The fields PostHog's activity log compares for a flag, in its model's order. */
const LOGGED_FIELDS = [
  "key", "name", "filters", "deleted", "active", "rollback_conditions", "performed_rollback",
  "ensure_experience_continuity", "has_enriched_analytics", "is_remote_configuration", "has_encrypted_payloads",
  "evaluation_runtime", "tags"
] as const

type Logged = Record<(typeof LOGGED_FIELDS)[number], unknown>
const loggedOf = (flag: FlagColumns | StoredFeatureFlag): Logged =>
  Object.fromEntries(LOGGED_FIELDS.map((field) => [field, flag[field]])) as Logged

/** Field-level changes of an update; empty when the PATCH changed nothing. */
export const flagChanges = (current: StoredFeatureFlag, next: FlagColumns): ReadonlyArray<ActivityChange> =>
  changesBetween("FeatureFlag", LOGGED_FIELDS, loggedOf(current), loggedOf(next))

/** PostHog logs the version bump with the rest of a real change (its model field is not excluded). */
export const versionChange = (from: number): ActivityChange => ({
  type: "FeatureFlag",
  action: "changed",
  field: "version",
  before: from,
  after: from + 1
})
