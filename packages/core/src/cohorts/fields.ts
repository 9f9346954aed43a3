import { Effect } from "effect"
import { failIfAny, ValidationError } from "../shared/errors.ts"
import { readCohortFilters } from "./filters.ts"
import { fieldOf, groupsError, queryOf, saysStatic } from "./input.ts"
import type { StoredCohort } from "./model.ts"
import { cohortProperties, hasCriteria } from "./properties.ts"
import { flagUseError, type ProjectCohorts } from "./rules.ts"

/**
 * A cohort body's fields read in PostHog's order, each by its rule, then PostHog's checks of the body as
 * a whole: the first failure is the answer. `current` is the cohort a PATCH or PUT changes (none for a
 * create); `project` reads what the flag rule needs, only when it applies.
 */

export interface CohortFields {
  readonly name?: string | null | undefined
  readonly description?: string | undefined
  readonly groups?: unknown
  readonly deleted?: boolean | undefined
  /** As stored: criteria as PostHog stores them (defaults in, nulls out); a static cohort's filters without criteria as given. */
  readonly filters?: unknown
  /** A query to fill a static cohort from, or null. */
  readonly query: unknown
  readonly is_static?: boolean | undefined
  /** Distinct ids to start a new static cohort with. */
  readonly members: ReadonlyArray<string>
}

const name = fieldOf("name")
const description = fieldOf("description")
const groups = fieldOf("groups")
const deleted = fieldOf("deleted")
const filters = fieldOf("filters")
const query = fieldOf("query")
const isStatic = fieldOf("is_static")
const folder = fieldOf("_create_in_folder")
const members = fieldOf("_create_static_person_ids")

/** The filters to store. A static cohort's filters without criteria are kept as given. */
const filtersOf = (
  given: unknown,
  willBeStatic: boolean,
  current: StoredCohort | undefined,
  project: Effect.Effect<ProjectCohorts>
): Effect.Effect<unknown, ValidationError> =>
  Effect.gen(function*() {
    if (willBeStatic && !hasCriteria(given)) return given
    const read = readCohortFilters(given)
    if (read instanceof ValidationError) return yield* read
    // A cohort that stays static lists its members; its filters reach no flag's evaluation.
    if (current !== undefined && !(current.is_static && willBeStatic)) {
      yield* failIfAny(flagUseError(current.id, { filters: read, groups: [] }, yield* project, "filters"))
    }
    return read
  })

export const readCohortFields = (
  data: unknown,
  current: StoredCohort | undefined,
  project: Effect.Effect<ProjectCohorts>
): Effect.Effect<CohortFields, ValidationError> =>
  Effect.gen(function*() {
    const read: { -readonly [K in keyof CohortFields]: CohortFields[K] } = { query: null, members: [] }
    read.name = yield* name(data)
    read.description = yield* description(data)
    read.groups = yield* groups(data)
    if (read.groups !== undefined) yield* failIfAny(groupsError(read.groups))
    read.deleted = yield* deleted(data)
    const givenFilters = yield* filters(data)
    const willBeStatic = saysStatic(data) ?? current?.is_static ?? false
    if (hasKey(data, "filters")) read.filters = yield* filtersOf(givenFilters, willBeStatic, current, project)
    const givenQuery = queryOf(yield* query(data))
    if (givenQuery instanceof ValidationError) return yield* givenQuery
    read.query = givenQuery
    read.is_static = yield* isStatic(data)
    yield* folder(data)
    read.members = (yield* members(data)) ?? []
    // A static cohort turning dynamic: its kept filters (or groups) now reach the flags that use it.
    if (current !== undefined && current.is_static && read.is_static === false && read.filters === undefined) {
      const kept = { filters: current.filters, groups: read.groups ?? current.groups }
      if (hasCriteria({ properties: cohortProperties(kept) })) yield* failIfAny(flagUseError(current.id, kept, yield* project, null))
    }
    return read
  })

const hasKey = (data: unknown, key: string) =>
  typeof data === "object" && data !== null && Object.prototype.hasOwnProperty.call(data, key)
