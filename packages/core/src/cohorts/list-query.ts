import { Schema } from "effect"
import { ValidationError } from "../shared/errors.ts"
import { characters, pythonStrip } from "../shared/fields.ts"
import { MAX_SERIAL, type UserId } from "../shared/ids.ts"
import { type ListQuery, QueryText } from "../shared/page.ts"
import { holdsNul } from "../shared/text.ts"
import type { CohortNode } from "./graph.ts"
import { cohortIdsIn, cohortProperties, isBehavioralCohort } from "./properties.ts"
import type { CohortListFilter } from "./repository.ts"

/** The cohort list's query parameters as they arrive (PostHog's names). */
export interface CohortListQuery extends ListQuery {
  readonly type?: string | undefined
  readonly created_by_id?: string | undefined
  readonly search?: string | undefined
  readonly hide_behavioral_cohorts?: string | undefined
  readonly basic?: string | undefined
}

export const CohortListQueryFields = {
  type: Schema.optionalKey(QueryText),
  created_by_id: Schema.optionalKey(QueryText),
  search: Schema.optionalKey(QueryText),
  hide_behavioral_cohorts: Schema.optionalKey(QueryText),
  basic: Schema.optionalKey(QueryText)
}

/** PostHog refuses a longer `search`. */
export const MAX_SEARCH_LENGTH = 200

/** What the list selects, read leniently from the query as PostHog reads it; undefined when nothing can match. */
export interface CohortListPlan {
  readonly list: CohortListFilter
  readonly hideBehavioral: boolean
  /** `basic=true`: the answer leaves out filters, query and groups. */
  readonly basic: boolean
}

const truthy = (text: string | undefined) => text !== undefined && ["y", "yes", "t", "true", "on", "1"].includes(text.toLowerCase())

export const listFilterOf = (query: CohortListQuery): CohortListPlan | ValidationError | undefined => {
  if (query.search !== undefined && characters(query.search) > MAX_SEARCH_LENGTH) {
    return ValidationError.field("search", `Search query must be ${MAX_SEARCH_LENGTH} characters or fewer.`, "invalid")
  }
  let created_by_id: UserId | undefined
  if (query.created_by_id !== undefined && query.created_by_id !== "") {
    const text = query.created_by_id.trim()
    // A user id that cannot be one matches no cohort.
    if (!/^\d{1,10}$/.test(text) || Number(text) > MAX_SERIAL) return undefined
    created_by_id = Number(text) as UserId
  }
  // Stored names never hold NUL: such a search matches nothing.
  if (query.search !== undefined && holdsNul(query.search)) return undefined
  const search = query.search === undefined ? "" : pythonStrip(query.search)
  return {
    list: {
      is_static: query.type === "static" ? true : query.type === "dynamic" ? false : undefined,
      created_by_id,
      search: search === "" ? undefined : search
    },
    hideBehavioral: query.hide_behavioral_cohorts?.toLowerCase() === "true",
    basic: truthy(query.basic)
  }
}

/**
 * The cohorts a flag's cohort picker hides (`hide_behavioral_cohorts`): those filtering on events, and
 * every cohort naming one of them, however indirectly. A static cohort lists its members, so its filters
 * count for nothing.
 */
export const hiddenForFlags = (cohorts: ReadonlyArray<CohortNode>): ReadonlyArray<number> => {
  const live = cohorts.filter((cohort) => !cohort.deleted)
  const hidden = new Set(live.filter((cohort) => !cohort.is_static && isBehavioralCohort(cohort)).map((cohort) => cohort.id))
  const names = new Map(live.map((cohort) => [cohort.id, cohortIdsIn(cohortProperties(cohort))]))
  let grew = true
  while (grew) {
    grew = false
    for (const [id, named] of names) {
      if (!hidden.has(id) && named.some((other) => hidden.has(other))) {
        hidden.add(id)
        grew = true
      }
    }
  }
  return [...hidden]
}
