import { Context, type Effect, type Option, Schema, Struct } from "effect"
import type { ActivityInsert } from "../activity/repository.ts"
import type { DashboardInsert } from "../dashboards/repository.ts"
import type { JsonRecord } from "../shared/fields.ts"
import type { DashboardId, FeatureFlagId, ProjectId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"
import { FlagRecord, type StoredFlag } from "./model.ts"

/** The (project, key) constraint refused a write: another flag holds the key. */
export class FlagKeyTaken {
  readonly _tag = "FlagKeyTaken"
}

/**
 * The stored fields a write sets: all but those the database assigns (id, timestamps, the first version)
 * and those set once or apart (project, creation context, creator; version and usage dashboard on update).
 */
export const FlagWritable = Schema.Struct(Struct.omit(FlagRecord.fields, [
  "id", "project_id", "version", "usage_dashboard_id", "creation_context", "created_by_id", "created_at", "updated_at"
]))
export type FlagWritable = typeof FlagWritable.Type

/** Columns kept for the list's filters and the dependency checks, computed from the filters (see derivedColumns) so that SQL never reads them. */
export const FlagDerivedColumns = Schema.Struct({
  /** At least one variant (the list's `type` filter). */
  is_multivariate: Schema.Boolean,
  /** Every evaluation gives one answer, `active` aside (the list's `active=STALE`). */
  fully_rolled_out: Schema.Boolean,
  /** Ids of the flags its conditions depend on (who depends on a flag). */
  depends_on: Schema.Array(Schema.Int)
})

/** Every column a write sets. */
export const FlagColumns = Schema.Struct({ ...FlagWritable.fields, ...FlagDerivedColumns.fields })
export type FlagColumns = typeof FlagColumns.Type

/** A new flag's row: every column a write sets, and those set once. */
export const FlagInsert = Schema.Struct({
  ...FlagColumns.fields,
  ...Struct.pick(FlagRecord.fields, ["project_id", "creation_context", "created_by_id"])
})
export type FlagInsert = typeof FlagInsert.Type

/** A changed flag's row: every column a write sets, its next version, and its usage dashboard as it stands. */
export const FlagUpdate = Schema.Struct({
  ...FlagColumns.fields,
  ...Struct.pick(FlagRecord.fields, ["version", "usage_dashboard_id"])
})
export type FlagUpdate = typeof FlagUpdate.Type

/** A flag that depends on another, for PostHog's refusals to delete or disable it. */
export const FlagRef = Schema.Struct(Struct.pick(FlagRecord.fields, ["id", "key"]))
export type FlagRef = typeof FlagRef.Type

/** What the dependency checks read of a live flag. */
export interface DependencyNode {
  readonly id: number
  readonly key: string
  readonly active: boolean
  readonly filters: JsonRecord
}

/** The flags' rows: the flag records, read with their users, and the columns derived from them. */
export class FlagRepository extends Context.Service<FlagRepository, {
  /**
   * A new flag with, in the same statement, its usage dashboard (which the flag points at) when one is
   * given and its `created` entry, whose item is the new flag's id. Fails when another flag holds the key.
   */
  readonly create: (
    flag: FlagInsert,
    usageDashboard: DashboardInsert | null,
    entry: ActivityInsert
  ) => Effect.Effect<StoredFlag, FlagKeyTaken>
  /** A flag without dashboard or entry (imports, the benchmark's seed). */
  readonly insert: (input: FlagInsert) => Effect.Effect<StoredFlag, FlagKeyTaken>
  /** The flag's new columns and the entry that records the change, in one statement. */
  readonly update: (id: FeatureFlagId, input: FlagUpdate, entry: ActivityInsert) => Effect.Effect<StoredFlag, FlagKeyTaken>
  /**
   * The same, only while the row is still as `read`: its version, and what changes without a version
   * (its key, moved aside when deleted, and its usage dashboard). None when it is not, and nothing is written.
   * The key is the one read, so no other flag can hold it. `entries` record changes made one after another
   * (the columns are the last one's), and are logged in their order.
   */
  readonly updateUnchanged: (
    read: StoredFlag,
    input: FlagUpdate,
    entries: ReadonlyArray<ActivityInsert>
  ) => Effect.Effect<Option.Option<StoredFlag>>
  readonly setUsageDashboard: (id: FeatureFlagId, dashboard: DashboardId) => Effect.Effect<void>
  /** Deleted flags included: they stay readable by id. */
  readonly find: (project: ProjectId, id: FeatureFlagId) => Effect.Effect<Option.Option<StoredFlag>>
  /** The same, holding the row until the transaction ends (version checks). */
  readonly lock: (project: ProjectId, id: FeatureFlagId) => Effect.Effect<Option.Option<StoredFlag>>
  /** The flag, live or deleted, that holds a key (at most one: keys are unique per project). */
  readonly holderOfKey: (project: ProjectId, key: string) => Effect.Effect<Option.Option<FlagRef & { readonly deleted: boolean }>>
  /** Renames a soft-deleted flag's key; a flag no longer deleted is left as it is. */
  readonly renameKey: (id: FeatureFlagId, key: string) => Effect.Effect<void>
  /**
   * A page of the project's soft-deleted flags, the last changed (deleted) first, whose key or name holds
   * `search` (any case) when given: the archive, which the live flags in memory leave out.
   */
  readonly deletedPage: (project: ProjectId, search: string | null, page: PageRequest) => Effect.Effect<Page<StoredFlag>>
  /** The project's live flags, newest first (created_at, then id, descending). */
  readonly live: (project: ProjectId) => Effect.Effect<ReadonlyArray<StoredFlag>>
  /** The project's flags with these ids, deleted ones included. */
  readonly among: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<StoredFlag>>
  /** Live flags of the project with these ids, for dependency checks. */
  readonly dependencyNodes: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DependencyNode>>
  /** Live, active flags depending on this one, by key. */
  readonly dependents: (project: ProjectId, id: FeatureFlagId) => Effect.Effect<ReadonlyArray<FlagRef>>
  /** Live, disabled flags among these ids, by key. */
  readonly disabledAmong: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<FlagRef>>
}>()("hedgerow/FlagRepository") {}
