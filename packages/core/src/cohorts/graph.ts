import type { CohortDefinitions } from "../evaluation/model.ts"
import { conditionsOf, cohortIdsIn as flagCohortIds } from "../feature-flags/conditions.ts"
import type { CohortBrief, FlagNode } from "./model.ts"
import { cohortIdsIn, type Definable, namedCohortIds } from "./properties.ts"

/**
 * Walks over cohorts naming cohorts, and flags naming cohorts. The rules about references, loops,
 * deletion and flags use them; so does the cohort list, to hide cohorts from flags, and so do evaluation
 * and the definitions, to find the cohorts they reach. Every walk reads a cohort's references through
 * `namedCohortIds` and keeps its own queue or stack, so no chain of cohorts can exhaust the call stack.
 * Pure: the caller hands over the project's cohorts and flags.
 */

export type CohortLookup = (id: number) => CohortBrief | undefined

export const lookupIn = (cohorts: ReadonlyArray<CohortBrief>): CohortLookup => {
  const byId = new Map(cohorts.map((cohort) => [cohort.id as number, cohort]))
  return (id) => byId.get(id)
}

/**
 * Breadth first from `starts`: each id once, in the order reached. `onward` answers the ids an id leads
 * to, or undefined when the id is no cohort there (it is left out, and leads nowhere).
 */
export const reach = (
  starts: Iterable<number>,
  onward: (id: number) => Iterable<number> | undefined
): ReadonlyArray<number> => {
  const reached: Array<number> = []
  const seen = new Set<number>()
  const queue: Array<Iterable<number>> = [starts]
  for (let next = 0; next < queue.length; next++) {
    for (const id of queue[next]!) {
      if (seen.has(id)) continue
      seen.add(id)
      const leads = onward(id)
      if (leads === undefined) continue
      reached.push(id)
      queue.push(leads)
    }
  }
  return reached
}

/**
 * The cohorts reached from `ids`: those of them in the project, then whatever the dynamic ones among
 * them name, however indirectly, in the order found. A static cohort is reached but not followed: its
 * members are a list, whatever its filters say.
 */
export const cohortsReached = (ids: Iterable<number>, cohortOf: CohortLookup): ReadonlyArray<CohortBrief> =>
  reach(ids, (id) => {
    const cohort = cohortOf(id)
    return cohort === undefined ? undefined : cohort.is_static ? [] : namedCohortIds(cohort)
  }).map((id) => cohortOf(id)!)

/**
 * The ids of the cohorts reached from `ids`, as evaluation reads them. A dynamic cohort is followed
 * through its definition (found by its id as text); a static cohort, one of `lists`, is reached but names
 * no other. An id with neither is left out.
 */
export const definedCohortsReached = (
  ids: Iterable<number>,
  definitions: CohortDefinitions,
  lists: ReadonlySet<number> = new Set()
): ReadonlyArray<number> =>
  reach(ids, (id) => {
    if (lists.has(id)) return []
    const definition = definitions.get(String(id))
    return definition === undefined ? undefined : cohortIdsIn(definition)
  })

/** Whether a flag reaches the cohort: names it, or names a cohort that reaches it. */
export const flagReaches = (flag: FlagNode, cohort: number, cohortOf: CohortLookup): boolean =>
  cohortsReached(flagCohortIds(conditionsOf(flag.filters)), cohortOf).some((reached) => reached.id === cohort)

/** The flags among `flags` that reach the cohort, in id order. */
export const flagsReaching = (cohort: number, flags: ReadonlyArray<FlagNode>, cohortOf: CohortLookup): ReadonlyArray<FlagNode> =>
  flags.filter((flag) => flagReaches(flag, cohort, cohortOf)).sort((a, b) => a.id - b.id)

/** The live cohorts other than `cohort` that name it, in id order. */
export const cohortsNaming = (cohort: number, cohorts: ReadonlyArray<CohortBrief>): ReadonlyArray<CohortBrief> =>
  cohorts
    .filter((other) => !other.deleted && other.id !== cohort && namedCohortIds(other).includes(cohort))
    .sort((a, b) => a.id - b.id)

/** The ids of `ids` and of the live cohorts naming any of them, however indirectly: the graph read backwards. */
export const cohortsNamingAny = (ids: Iterable<number>, cohorts: ReadonlyArray<CohortBrief>): ReadonlyArray<number> => {
  const namers = new Map<number, Array<number>>()
  for (const cohort of cohorts) {
    if (cohort.deleted) continue
    for (const named of namedCohortIds(cohort)) {
      const list = namers.get(named)
      if (list === undefined) namers.set(named, [cohort.id])
      else list.push(cohort.id)
    }
  }
  return reach(ids, (id) => namers.get(id) ?? [])
}

/**
 * PostHog's loop check, a walk from the cohort being written (its id null when new) through the cohorts
 * it names: `loop` when a walk comes back to a cohort on its own path, `unknown` when a named cohort is
 * not in the project (deleted ones are), undefined when neither. Depth first, the first fault found in
 * the order the references are written.
 */
export const referenceFault = (
  start: Definable & { readonly id: number | null },
  cohortOf: CohortLookup
): "loop" | "unknown" | undefined => {
  const seen = new Set<number>()
  const path = new Set<number | null>([start.id])
  const frames: Array<{ readonly id: number | null; readonly names: ReadonlyArray<number>; next: number }> = [
    { id: start.id, names: namedCohortIds(start), next: 0 }
  ]
  while (frames.length > 0) {
    const frame = frames[frames.length - 1]!
    if (frame.next === frame.names.length) {
      path.delete(frame.id)
      frames.pop()
      continue
    }
    const named = frame.names[frame.next++]!
    if (path.has(named)) return "loop"
    if (seen.has(named)) continue
    const cohort = cohortOf(named)
    if (cohort === undefined) return "unknown"
    seen.add(named)
    path.add(named)
    frames.push({ id: named, names: namedCohortIds(cohort), next: 0 })
  }
  return undefined
}
