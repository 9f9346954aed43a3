import { Effect, Option } from "effect"
import type { Cohort } from "../cohorts/model.ts"
import type { CohortRepository } from "../cohorts/repository.ts"
import type { CohortId, ProjectId } from "../shared/ids.ts"

/**
 * The lists of the static cohorts a project's active flags reach, held in memory while they are small,
 * so that `/flags` finds a distinct id in them without asking the store: on the embedded store a query
 * runs on the event loop's own thread, and one per request would be most of the request's work. Lists
 * past the bound stay in the store, asked one indexed read per request.
 */

/** Members held for one project's flags at most. */
export const MAX_HELD_MEMBERS = 20_000

/** Members read from the store at a time while loading, the loop free between reads. */
const PAGE = 5_000

/** The reached static cohorts' members by cohort, or none when they are too many to hold. */
export type StaticLists = ReadonlyMap<number, ReadonlySet<string>> | undefined

/** What the lists of a project's reached static cohorts are keyed by: the project and the cohorts. */
export interface StaticListsKey {
  readonly project: ProjectId
  readonly cohorts: ReadonlyArray<number>
  /** The project's live cohorts, whose counts say how many members the lists hold. */
  readonly live: ReadonlyArray<Cohort>
}

export const staticListsKey = (key: StaticListsKey) => `${key.project}:${key.cohorts.join(",")}`

/** Reads the lists, page by page, when their counts are within the bound. */
export const loadStaticLists = (repository: (typeof CohortRepository)["Service"], key: StaticListsKey): Effect.Effect<Option.Option<StaticLists>> =>
  Effect.gen(function*() {
    const reached = new Set(key.cohorts)
    const total = key.live.reduce((sum, cohort) => sum + (reached.has(cohort.id) ? cohort.count ?? 0 : 0), 0)
    if (total > MAX_HELD_MEMBERS) return Option.some(undefined)
    const lists = new Map<number, ReadonlySet<string>>()
    let held = 0
    for (const cohort of key.cohorts) {
      const members = new Set<string>()
      for (let offset = 0; ; offset += PAGE) {
        const page = yield* repository.members(cohort as CohortId, { offset, limit: PAGE })
        for (const member of page) members.add(member)
        held += page.length
        // Lists grown past the bound since their counts were read are left to the store.
        if (held > MAX_HELD_MEMBERS) return Option.some(undefined)
        if (page.length < PAGE) break
        yield* Effect.yieldNow
      }
      lists.set(cohort, members)
    }
    return Option.some(lists)
  })

/** The cohorts among the lists that hold the distinct id. */
export const listsHolding = (lists: ReadonlyMap<number, ReadonlySet<string>>, distinctId: string): ReadonlySet<number> => {
  const holding = new Set<number>()
  for (const [cohort, members] of lists) if (members.has(distinctId)) holding.add(cohort)
  return holding
}
