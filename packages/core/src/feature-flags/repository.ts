import { Context, type Effect, type Option } from "effect"
import type { CreationContext, EvaluationRuntime, StoredFeatureFlag } from "./model.ts"
import type { DependencyNode } from "./dependencies.ts"
import type { DashboardId, FeatureFlagId, ProjectId, UserId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"
import type { Timestamp } from "../shared/time.ts"

/** The (project, key) constraint refused a write: another flag holds the key. */
export class FlagKeyTaken {
  readonly _tag = "FlagKeyTaken"
}

/** Every column a write sets; core computes the derived ones so that SQL never interprets filters. */
export interface FlagColumns {
  readonly key: string
  readonly name: string
  readonly filters: Readonly<Record<string, unknown>>
  readonly deleted: boolean
  readonly active: boolean
  readonly ensure_experience_continuity: boolean
  readonly rollback_conditions: unknown
  readonly performed_rollback: boolean
  readonly tags: ReadonlyArray<string>
  readonly analytics_dashboards: ReadonlyArray<DashboardId>
  readonly has_enriched_analytics: boolean
  readonly is_remote_configuration: boolean
  readonly has_encrypted_payloads: boolean
  readonly evaluation_runtime: EvaluationRuntime
  readonly last_modified_by_id: UserId | null
  /** Derived: at least one variant (the list's `type` filter). */
  readonly is_multivariate: boolean
  /** Derived: every evaluation gives one answer, `active` aside (the list's `active=STALE`). */
  readonly fully_rolled_out: boolean
  /** Derived: ids of the flags its conditions depend on (who depends on a flag). */
  readonly depends_on: ReadonlyArray<number>
}

export interface FlagInsert extends FlagColumns {
  readonly project_id: ProjectId
  readonly creation_context: CreationContext
  readonly created_by_id: UserId | null
}

export interface FlagUpdate extends FlagColumns {
  readonly version: number
  readonly usage_dashboard_id: DashboardId | null
}

export const FLAG_ORDER_FIELDS = ["key", "name", "created_at", "updated_at", "id", "active", "version"] as const
export type FlagOrderField = (typeof FLAG_ORDER_FIELDS)[number]

/** The list's filters, already read by core (D5, posthog-behaviour.md §4). */
export interface FlagListFilter {
  readonly project_id: ProjectId
  /** Case-insensitive substring of key or name. */
  readonly search: string | null
  readonly multivariate: boolean | null
  /** `type=remote_config`: flags serving a remote configuration payload. */
  readonly remoteConfiguration: boolean | null
  readonly evaluation_runtime: string | null
  /** Keys left out (`excluded_properties`). */
  readonly excludedKeys: ReadonlyArray<string> | null
  readonly active: boolean | null
  /** Active, fully rolled out and created before this moment. */
  readonly staleBefore: Timestamp | null
  readonly created_by_id: number | null
  /** Any of these tags. */
  readonly tags: ReadonlyArray<string> | null
  /** Ties are always broken by id, in the same direction. */
  readonly order: { readonly field: FlagOrderField; readonly descending: boolean }
}

/** A flag that depends on another, for PostHog's refusals to delete or disable it. */
export interface FlagRef {
  readonly id: FeatureFlagId
  readonly key: string
}

export class FeatureFlagRepository extends Context.Service<FeatureFlagRepository, {
  readonly insert: (input: FlagInsert) => Effect.Effect<StoredFeatureFlag, FlagKeyTaken>
  readonly update: (id: FeatureFlagId, input: FlagUpdate) => Effect.Effect<StoredFeatureFlag, FlagKeyTaken>
  readonly setUsageDashboard: (id: FeatureFlagId, dashboard: DashboardId) => Effect.Effect<void>
  /** Deleted flags included: they stay readable by id. */
  readonly find: (project: ProjectId, id: FeatureFlagId) => Effect.Effect<Option.Option<StoredFeatureFlag>>
  /** The same, holding the row until the transaction ends (version checks). */
  readonly lock: (project: ProjectId, id: FeatureFlagId) => Effect.Effect<Option.Option<StoredFeatureFlag>>
  /** The flag, live or deleted, that holds a key (at most one: keys are unique per project). */
  readonly holderOfKey: (project: ProjectId, key: string) => Effect.Effect<Option.Option<FlagRef & { readonly deleted: boolean }>>
  /** Renames a soft-deleted flag's key; a flag no longer deleted is left as it is. */
  readonly renameKey: (id: FeatureFlagId, key: string) => Effect.Effect<void>
  readonly list: (filter: FlagListFilter, page: PageRequest) => Effect.Effect<Page<StoredFeatureFlag>>
  /** Live flags of the project with these ids, for dependency checks. */
  readonly dependencyNodes: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DependencyNode>>
  /** Live, active flags depending on this one, by key. */
  readonly dependents: (project: ProjectId, id: FeatureFlagId) => Effect.Effect<ReadonlyArray<FlagRef>>
  /** Live, disabled flags among these ids, by key. */
  readonly disabledAmong: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<FlagRef>>
}>()("hedgerow/FeatureFlagRepository") {}
