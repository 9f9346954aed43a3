import type { CohortLookup } from "./graph.ts"
import type { CohortBrief } from "./model.ts"
import { namedCohortIds } from "./properties.ts"

/**
 * The cohorts reached from `starts` (and those they name, however indirectly), each after every cohort
 * it names: the order in which they can be made somewhere else, each naming only cohorts already made.
 * A static cohort names none (its members are a list). Ids that name no cohort are left out. The walk
 * keeps its own stack, so no chain of cohorts can exhaust the call stack, and a loop (which the rules
 * refuse at write) cannot make it run forever.
 */
export const cohortsInMakingOrder = (starts: Iterable<number>, cohortOf: CohortLookup): ReadonlyArray<CohortBrief> => {
  const order: Array<CohortBrief> = []
  const met = new Set<number>()
  for (const start of starts) {
    const stack: Array<{ readonly id: number; readonly named: boolean }> = [{ id: start, named: false }]
    while (stack.length > 0) {
      const { id, named } = stack.pop()!
      const cohort = cohortOf(id)
      if (cohort === undefined) continue
      if (named) {
        order.push(cohort)
        continue
      }
      if (met.has(id)) continue
      met.add(id)
      stack.push({ id, named: true })
      const children = cohort.is_static ? [] : namedCohortIds(cohort)
      for (let i = children.length - 1; i >= 0; i--) {
        if (!met.has(children[i]!)) stack.push({ id: children[i]!, named: false })
      }
    }
  }
  return order
}
