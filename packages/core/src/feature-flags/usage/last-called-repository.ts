import { Context, type Effect, Schema } from "effect"
import type { WatchedTable } from "../../read-model/watched.ts"
import { FeatureFlagId, type ProjectId } from "../../shared/ids.ts"
import { Timestamp } from "../../shared/time.ts"

/**
 * What the change feed names when flags' `last_called_at` was written (`feature_flag_usage:<project>`),
 * apart from the flags' own changes: a mark changes no definition, so it must not make anyone read a flag
 * again, nor prepare a project's evaluation again.
 */
export const FLAG_USAGE_CHANGES = "feature_flag_usage" satisfies WatchedTable

/** A flag's stored `last_called_at`. */
export const StoredFlagUsage = Schema.Struct({ id: FeatureFlagId, last_called_at: Timestamp })
export type StoredFlagUsage = typeof StoredFlagUsage.Type

/** When flags were last evaluated: the only writer of `last_called_at`, which no other write sets. */
export class FlagUsageRepository extends Context.Service<FlagUsageRepository, {
  /**
   * In one statement, each flag's `last_called_at` becomes `at[i]` of its `ids[i]` where that is later,
   * and nothing else of the flag changes; each project written is named on the change feed
   * (FLAG_USAGE_CHANGES). A flag that no longer exists is passed over.
   */
  readonly write: (ids: ReadonlyArray<FeatureFlagId>, at: ReadonlyArray<Timestamp>) => Effect.Effect<void>
  /** The project's flags that were ever called, deleted ones included, with when they were last called. */
  readonly called: (project: ProjectId) => Effect.Effect<ReadonlyArray<StoredFlagUsage>>
}>()("hedgerow/FlagUsageRepository") {}
