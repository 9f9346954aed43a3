import { Context, Layer } from "effect"
import type { FeatureFlagId, ProjectId } from "../../shared/ids.ts"

/**
 * Flags counted one by one, at most: a flag first seen past it is counted in the overflow instead, so
 * a deployment with many flags gives a monitoring system a bounded number of series.
 */
export const MAX_METERED_FLAGS = 10_000

/** One flag's counts since the process started. */
export interface FlagCount {
  readonly project: ProjectId
  readonly flag: FeatureFlagId
  evaluations: number
  calls: number
}

/** The counts of flags seen past the bound, together. */
export interface OverflowCount {
  evaluations: number
  calls: number
}

/**
 * How often each flag was evaluated, and how often the SDKs reported it called (`$feature_flag_called`),
 * since the process started: counters for a monitoring system, kept in memory and never written. Counting
 * is one map lookup by the flag's id and an increment.
 */
export class FlagMeter extends Context.Service<FlagMeter, {
  /** The project's flags `ids` were evaluated once each. */
  readonly evaluated: (project: ProjectId, ids: ReadonlyArray<FeatureFlagId>) => void
  /** An SDK reported the project's flag called once. */
  readonly called: (project: ProjectId, flag: FeatureFlagId) => void
  /** Every flag counted so far, and the overflow past the bound. */
  readonly counts: () => { readonly flags: Iterable<FlagCount>; readonly overflow: OverflowCount }
}>()("hedgerow/FlagMeter") {
  static readonly layer = Layer.sync(FlagMeter, () => {
    const flags = new Map<FeatureFlagId, FlagCount>()
    const overflow: OverflowCount = { evaluations: 0, calls: 0 }
    const countOf = (project: ProjectId, flag: FeatureFlagId): FlagCount | OverflowCount => {
      const known = flags.get(flag)
      if (known !== undefined) return known
      if (flags.size >= MAX_METERED_FLAGS) return overflow
      const made: FlagCount = { project, flag, evaluations: 0, calls: 0 }
      flags.set(flag, made)
      return made
    }
    return FlagMeter.of({
      evaluated: (project, ids) => {
        for (let i = 0; i < ids.length; i++) countOf(project, ids[i]!).evaluations++
      },
      called: (project, flag) => {
        countOf(project, flag).calls++
      },
      counts: () => ({ flags: flags.values(), overflow })
    })
  })
}
