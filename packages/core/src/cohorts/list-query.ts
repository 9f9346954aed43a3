import { Schema } from "effect"
import { ValidationError } from "../shared/errors.ts"
import { characters, pythonStrip } from "../shared/fields.ts"
import { MAX_SERIAL, type UserId } from "../shared/ids.ts"
import { type ListQuery, QueryText } from "../shared/page.ts"
import { saysTrue } from "../shared/python.ts"
import { holdsNul } from "../shared/text.ts"
import { cohortsNamingAny } from "./graph.ts"
import type { CohortBrief } from "./model.ts"
import { isBehavioralCohort } from "./properties.ts"
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
    basic: query.basic !== undefined && saysTrue(query.basic)
  }
}

/**
 * The cohorts a flag's cohort picker hides (`hide_behavioral_cohorts`): those filtering on events, and
 * every live cohort naming one of them, however indirectly. A static cohort lists its members, so its
 * own filters on events count for nothing.
 */
export const hiddenForFlags = (cohorts: ReadonlyArray<CohortBrief>): ReadonlyArray<number> =>
  cohortsNamingAny(
    cohorts.filter((cohort) => !cohort.deleted && !cohort.is_static && isBehavioralCohort(cohort)).map((cohort) => cohort.id),
    cohorts
  )
