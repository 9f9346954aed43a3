import type { Cohort } from "../cohorts/model.ts"
import { definedCohortsReached } from "../cohorts/graph.ts"
import { cohortDefinitions, staticCohortIds } from "../evaluation/cohorts.ts"
import { type PreparedFlags, prepareFlags } from "../evaluation/prepare.ts"
import { cohortIdsIn } from "../feature-flags/conditions.ts"
import type { ProjectFlags } from "../feature-flags/project-flags.ts"
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
 * cohorts and group types are the same lists, so a request that finds nothing changed prepares nothing. A project's flags
 * read afresh are another object, and start without one.
 */
const kept = new WeakMap<ProjectFlags, Kept>()

export const snapshotOf = (
  project: ProjectId,
  flags: ProjectFlags,
  cohorts: ReadonlyArray<Cohort>,
  groupTypes: ReadonlyArray<GroupType>
): FlagSnapshot => {
  const known = kept.get(flags)
  if (
    known !== undefined && known.changes === flags.changes && known.cohorts === cohorts && known.groupTypes === groupTypes
  ) return known.snapshot
  // Ascending ids, as PostHog reads a project's flags; memory keeps them newest first for the list.
  const ordered = flags.entries.map((entry) => entry.flag).sort((a, b) => a.id - b.id)
  const prepared = prepareFlags(ordered, { cohorts: cohortDefinitions(cohorts), groupTypes: groupTypeMapping(groupTypes) })
  const snapshot: FlagSnapshot = { project, prepared, staticCohorts: staticCohortsReached(prepared, staticCohortIds(cohorts)) }
  kept.set(flags, { changes: flags.changes, cohorts, groupTypes, snapshot })
  return snapshot
}

/** The static cohorts the active flags reach, directly or through dynamic cohorts, by id ascending. */
const staticCohortsReached = (prepared: PreparedFlags, statics: ReadonlySet<number>): ReadonlyArray<number> => {
  if (statics.size === 0) return []
  const named = prepared.flags.flatMap((flag) => (flag.flag.active ? cohortIdsIn(flag.conditions) : []))
  return definedCohortsReached(named, prepared.cohorts, statics).filter((id) => statics.has(id)).sort((a, b) => a - b)
}
