import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { integerOf } from "../shared/python.ts"

/** What a cohort's definition is made of: its filters, or else its legacy groups. */
export interface Definable {
  readonly filters: unknown
  readonly groups: unknown
}

/**
 * A cohort's property group, as PostHog reads it for evaluation and for its answer: `filters.properties`,
 * or else each legacy group's properties ANDed, the groups ORed. Undefined when the cohort has neither.
 */
export const cohortProperties = (cohort: Definable): JsonRecord | undefined => {
  const { filters, groups } = cohort
  if (isRecord(filters) && isRecord(filters["properties"])) return filters["properties"]
  if (!Array.isArray(groups)) return undefined
  const values = groups.flatMap((group) =>
    isRecord(group) && Array.isArray(group["properties"]) ? [{ type: "AND", values: group["properties"] }] : [])
  return values.length === 0 ? undefined : { type: "OR", values }
}

/**
 * The filters (leaves, not groups) of a property tree, in order, however deep it nests: the walk keeps
 * its own stack. A group is an AND, an OR, or a `property` group, which PostHog's older cohorts hold:
 * anything holding `values` and no `key`.
 */
export const filtersIn = (properties: unknown): ReadonlyArray<JsonRecord> => {
  const found: Array<JsonRecord> = []
  const stack: Array<unknown> = [properties]
  while (stack.length > 0) {
    const node = stack.pop()
    if (!isRecord(node)) continue
    const values = node["values"]
    if (Array.isArray(values) && node["key"] === undefined) {
      for (let i = values.length - 1; i >= 0; i--) stack.push(values[i])
    } else {
      found.push(node)
    }
  }
  return found
}

/** Whether filters hold any filter at all: PostHog's test for criteria worth computing a cohort from. */
export const hasCriteria = (filters: unknown): boolean =>
  isRecord(filters) && isRecord(filters["properties"]) && filtersIn(filters["properties"]).length > 0

/** The cohort a filter names, its id read as PostHog reads it: null when it is no `cohort` filter or names none. */
export const namedCohortId = (filter: JsonRecord): number | null => (filter["type"] === "cohort" ? integerOf(filter["value"]) : null)

/** The ids of the cohorts a property group's `cohort` filters name, each once, in order. */
export const cohortIdsIn = (properties: unknown): ReadonlyArray<number> => {
  const ids = new Set<number>()
  for (const filter of filtersIn(properties)) {
    const id = namedCohortId(filter)
    if (id !== null) ids.add(id)
  }
  return [...ids]
}

/** Stored cohorts are never changed in place (a write stores a new one): each is read once. */
const named = new WeakMap<Definable, ReadonlyArray<number>>()

/**
 * The ids of the cohorts a cohort's definition names, each once, in order: the one reading of a
 * reference that every rule about cohorts naming cohorts walks (references, loops, deletion, flags).
 */
export const namedCohortIds = (cohort: Definable): ReadonlyArray<number> => {
  let ids = named.get(cohort)
  if (ids === undefined) named.set(cohort, ids = cohortIdsIn(cohortProperties(cohort)))
  return ids
}

/** Whether a cohort filters on events, which flags cannot evaluate. */
export const isBehavioralCohort = (cohort: Definable): boolean =>
  filtersIn(cohortProperties(cohort)).some((filter) => filter["type"] === "behavioral") ||
  (Array.isArray(cohort.groups) && cohort.groups.some((group) => isRecord(group) && (group["action_id"] != null || group["event_id"] != null)))
