import { conditionsOf, cohortIdsIn as flagCohortIds } from "../feature-flags/conditions.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { filtersIn } from "./filters.ts"
import { cohortIdsIn, cohortProperties } from "./properties.ts"

/**
 * Cohorts naming each other, and flags naming cohorts: what the rules about references, loops, deletion
 * and flags read. Pure: the caller hands over the project's cohorts and flags.
 */

/** A cohort as the reference rules read it. */
export interface CohortNode {
  readonly id: number
  readonly name: string | null
  readonly is_static: boolean
  readonly deleted: boolean
  readonly filters: unknown
  readonly groups: unknown
}

/** A flag as the reference rules read it. */
export interface FlagNode {
  readonly id: number
  readonly key: string
  readonly name: string
  readonly active: boolean
  readonly deleted: boolean
  readonly filters: JsonRecord
}

export type CohortLookup = (id: number) => CohortNode | undefined

/**
 * PostHog's loop check, a walk from the cohort being written (its id null when new) through the cohorts
 * it names: `loop` when a walk comes back to a cohort on its own path, `unknown` when a named cohort is
 * not in the project (deleted ones are), undefined when neither.
 */
export const referenceFault = (
  start: { readonly id: number | null; readonly filters: unknown; readonly groups: unknown },
  cohortOf: CohortLookup
): "loop" | "unknown" | undefined => {
  const seen = new Set<number | null>()
  const path = new Set<number | null>()
  const visit = (id: number | null, properties: unknown): "loop" | "unknown" | undefined => {
    seen.add(id)
    path.add(id)
    for (const named of cohortIdsIn(properties)) {
      if (path.has(named)) return "loop"
      if (seen.has(named)) continue
      const cohort = cohortOf(named)
      if (cohort === undefined) return "unknown"
      const fault = visit(named, cohortProperties(cohort))
      if (fault !== undefined) return fault
    }
    path.delete(id)
    return undefined
  }
  return visit(start.id, cohortProperties(start))
}

/**
 * The cohorts a cohort depends on, through the cohorts it names, in the order found; static cohorts are
 * reached but not followed (their members are a list, whatever their filters say).
 */
export const dependenciesOf = (cohort: CohortNode, cohortOf: CohortLookup): ReadonlyArray<CohortNode> => {
  const found = new Map<number, CohortNode>()
  const pending = [cohort]
  while (pending.length > 0) {
    const current = pending.shift()!
    if (current.is_static) continue
    for (const id of cohortIdsIn(cohortProperties(current))) {
      const named = cohortOf(id)
      if (named === undefined || named.id === cohort.id || found.has(id)) continue
      found.set(id, named)
      pending.push(named)
    }
  }
  return [...found.values()]
}

/** The cohort ids a flag reaches: those it names, and their dependencies. */
export const cohortsOfFlag = (flag: FlagNode, cohortOf: CohortLookup): ReadonlySet<number> => {
  const reached = new Set<number>()
  for (const id of flagCohortIds(conditionsOf(flag.filters))) {
    const cohort = cohortOf(id)
    if (cohort === undefined) continue
    reached.add(id)
    for (const dependency of dependenciesOf(cohort, cohortOf)) reached.add(dependency.id)
  }
  return reached
}

/** The flags among `flags` that reach the cohort, in id order. */
export const flagsReaching = (cohort: number, flags: ReadonlyArray<FlagNode>, cohortOf: CohortLookup): ReadonlyArray<FlagNode> =>
  flags.filter((flag) => cohortsOfFlag(flag, cohortOf).has(cohort)).sort((a, b) => a.id - b.id)

/** The live cohorts other than `cohort` whose filters name it, in id order. */
export const cohortsNaming = (cohort: number, cohorts: ReadonlyArray<CohortNode>): ReadonlyArray<CohortNode> =>
  cohorts
    .filter((other) =>
      !other.deleted && other.id !== cohort &&
      filtersIn(isRecord(other.filters) ? other.filters["properties"] : undefined)
        .some((filter) => filter["type"] === "cohort" && filter["value"] === cohort))
    .sort((a, b) => a.id - b.id)
