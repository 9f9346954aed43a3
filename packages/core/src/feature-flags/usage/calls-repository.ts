import { Context, type Effect, Schema } from "effect"
import type { FeatureFlagId } from "../../shared/ids.ts"

/** A day in UTC, `YYYY-MM-DD`, as PostgreSQL's `date` prints it. */
export const CallDay = Schema.String.check(Schema.isPattern(/^\d{4}-\d{2}-\d{2}$/))

/** How often a flag was called on one day with one value returned. */
export const FlagCallCount = Schema.Struct({
  day: CallDay,
  /** `$feature_flag_response` as text: `true`, `false` or a variant's key. */
  value: Schema.String,
  count: Schema.Int
})
export type FlagCallCount = typeof FlagCallCount.Type

/** Counts of one flag to add, as the writer batches them. */
export interface FlagCallIncrement extends FlagCallCount {
  readonly flag: FeatureFlagId
}

/** The flags' calls reported by the SDKs' `$feature_flag_called` events, counted per day and value. */
export class FlagCallRepository extends Context.Service<FlagCallRepository, {
  /** In one statement, each count is added to its flag's (day, value) total; a flag that no longer exists is passed over. */
  readonly add: (increments: ReadonlyArray<FlagCallIncrement>) => Effect.Effect<void>
  /** The flag's totals on the days from `from` to `to`, both included. */
  readonly read: (flag: FeatureFlagId, from: string, to: string) => Effect.Effect<ReadonlyArray<FlagCallCount>>
}>()("hedgerow/FlagCallRepository") {}
