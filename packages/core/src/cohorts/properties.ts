import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { filtersIn } from "./filters.ts"

/**
 * A cohort's property group, as PostHog reads it for evaluation and for its answer: `filters.properties`,
 * or else each legacy group's properties ANDed, the groups ORed. Undefined when the cohort has neither.
 */
export const cohortProperties = (cohort: { readonly filters: unknown; readonly groups: unknown }): JsonRecord | undefined => {
  const { filters, groups } = cohort
  if (isRecord(filters) && isRecord(filters["properties"])) return filters["properties"]
  if (!Array.isArray(groups)) return undefined
  const values = groups.flatMap((group) =>
    isRecord(group) && Array.isArray(group["properties"]) ? [{ type: "AND", values: group["properties"] }] : [])
  return values.length === 0 ? undefined : { type: "OR", values }
}

/** The cohort id a `cohort` filter's value names, as PostHog's services read it: an integer, or text holding one. */
export const cohortIdOf = (value: unknown): number | undefined => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : ""
  if (!/^[+-]?\d+$/.test(text)) return undefined
  const id = Number(text)
  return Number.isSafeInteger(id) ? id : undefined
}

/** The cohort ids a property group's `cohort` filters name, as integers, in order. */
export const cohortIdsIn = (properties: unknown): ReadonlyArray<number> =>
  filtersIn(properties).flatMap((filter) => {
    const id = filter["type"] === "cohort" ? cohortIdOf(filter["value"]) : undefined
    return id === undefined ? [] : [id]
  })

/** Whether a cohort filters on events, which flags cannot evaluate. */
export const isBehavioralCohort = (cohort: { readonly filters: unknown; readonly groups: unknown }): boolean =>
  filtersIn(cohortProperties(cohort)).some((filter) => filter["type"] === "behavioral") ||
  (Array.isArray(cohort.groups) && cohort.groups.some((group) => isRecord(group) && (group["action_id"] != null || group["event_id"] != null)))
