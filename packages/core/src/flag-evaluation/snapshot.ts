import { Effect, type Semaphore } from "effect"
import type { Cohort } from "../cohorts/model.ts"
import { definedCohortsReached } from "../cohorts/graph.ts"
import { cohortDefinitions, staticCohortIds } from "../evaluation/cohorts.ts"
import type { PreparedFlags } from "../evaluation/model.ts"
import { prepareFlags } from "../evaluation/prepare.ts"
import type { CompiledPatterns } from "../evaluation/regex-patterns.ts"
import { cohortIdsIn } from "../feature-flags/conditions.ts"
import type { ProjectFlags } from "../feature-flags/live/project-flags.ts"
import { type GroupType, groupTypeMapping } from "../group-types/model.ts"
import type { ProjectId } from "../shared/ids.ts"

/**
 * A project's flags, cohorts and group types read for evaluation, at one state of them: every answer
 * that state gives (an evaluation, the definitions for local evaluation) is made from it.
 */
export interface FlagSnapshot {
  readonly project: ProjectId
  /** The project's live flags, by id ascending, with its dynamic cohorts' definitions and its group types' names. */
  readonly prepared: PreparedFlags
  /**
   * The static cohorts the active flags reach, directly or through dynamic cohorts: the lists a request
   * is looked up in before its flags are evaluated. Empty, evaluation asks the store nothing.
   */
  readonly staticCohorts: ReadonlyArray<number>
}

interface Kept {
  readonly changes: number
  readonly cohorts: ReadonlyArray<Cohort>
  readonly groupTypes: ReadonlyArray<GroupType>
  readonly snapshot: FlagSnapshot
}

/**
 * Snapshots by the project's flags in memory: kept while no change has been applied to them and the
 * cohorts and group types are the same lists, so a request that finds nothing changed prepares nothing.
 * A project's flags read afresh are another object, and start without one.
 */
const kept = new WeakMap<ProjectFlags, Kept>()

/**
 * Each project's latest compiled patterns, for its next snapshot to take over when the project's flags
 * were read afresh (a snapshot made from the same flags takes over those of the one before).
 */
export type CarriedPatterns = Map<ProjectId, CompiledPatterns>

/** Projects whose patterns are carried at most; past it, the one whose snapshot was made longest ago makes way. */
const MAX_CARRIED = 64

/**
 * The project's snapshot. A new one takes over the patterns the one before compiled where it uses them
 * (see CompiledPatterns), and has the others still to compile (see `withPatternsCompiled`).
 */
export const snapshotOf = (
  project: ProjectId,
  flags: ProjectFlags,
  cohorts: ReadonlyArray<Cohort>,
  groupTypes: ReadonlyArray<GroupType>,
  carried: CarriedPatterns = new Map()
): FlagSnapshot => {
  const known = kept.get(flags)
  if (
    known !== undefined && known.changes === flags.changes && known.cohorts === cohorts && known.groupTypes === groupTypes
  ) return known.snapshot
  // Ascending ids, as PostHog reads a project's flags; memory keeps them newest first for the list.
  const ordered = flags.entries.map((entry) => entry.flag).sort((a, b) => a.id - b.id)
  const prepared = prepareFlags(ordered, {
    cohorts: cohortDefinitions(cohorts),
    groupTypes: groupTypeMapping(groupTypes),
    patterns: known?.snapshot.prepared.patterns ?? carried.get(project)
  })
  carried.delete(project)
  if (!prepared.patterns.empty) {
    carried.set(project, prepared.patterns)
    if (carried.size > MAX_CARRIED) carried.delete(carried.keys().next().value!)
  }
  const snapshot: FlagSnapshot = { project, prepared, staticCohorts: staticCohortsReached(prepared, staticCohortIds(cohorts)) }
  kept.set(flags, { changes: flags.changes, cohorts, groupTypes, snapshot })
  return snapshot
}

/**
 * The snapshot once every pattern it uses is compiled. Patterns compile one at a time, each followed by
 * a turn of the event loop, so requests that need no compiling go on meanwhile. Whoever needs the
 * snapshot compiles what is left, under the `turn` all compiling shares, so requests waiting together
 * for patterns (of one project or several) do not each compile one in the same turn. None returns before
 * the last of its snapshot's patterns is compiled; one that is interrupted leaves the rest to the next.
 */
export const withPatternsCompiled = (snapshot: FlagSnapshot, turn: Semaphore.Semaphore): Effect.Effect<FlagSnapshot> =>
  turn.withPermit(Effect.gen(function*() {
    const { patterns } = snapshot.prepared
    while (patterns.compileNext()) yield* Effect.yieldNow
    return snapshot
  }))

/** The static cohorts the active flags reach, directly or through dynamic cohorts, by id ascending. */
const staticCohortsReached = (prepared: PreparedFlags, statics: ReadonlySet<number>): ReadonlyArray<number> => {
  if (statics.size === 0) return []
  const named = prepared.flags.flatMap((flag) => (flag.flag.active ? cohortIdsIn(flag.conditions) : []))
  return definedCohortsReached(named, prepared.cohorts, statics).filter((id) => statics.has(id)).sort((a, b) => a - b)
}
