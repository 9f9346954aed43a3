import { ValidationError } from "../shared/errors.ts"
import { pythonStr } from "../shared/validation.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { integerOf } from "./computed.ts"

/**
 * PostHog's `validate_filters` (posthog-behaviour.md §4), as far as it applies without an analytics
 * engine. Every failure is attr `filters`. PostHog crashes (500) on shapes it does not expect; those
 * are refused here first, with messages in the style of its own. Rules that need stored data (cohorts,
 * flag dependencies) receive it already loaded.
 */

export const MAX_PROPERTY_VALUES = 1000

const STRING_OPERATORS = new Set(["regex", "icontains", "not_regex", "not_icontains", "gte", "lte", "gt", "lt"])
const PERSON_PROPERTY_TYPES = new Set(["person", "cohort", "flag"])

export const filtersError = (detail: string, code = "invalid_input") => ValidationError.field("filters", detail, code)

/** A condition set as the rules read it, once its shape is known to be sound. */
export interface Condition {
  readonly properties: ReadonlyArray<JsonRecord>
  readonly rollout_percentage: unknown
  readonly variant: unknown
}

export interface FiltersShape {
  readonly groups: ReadonlyArray<Condition>
  /** A set: every condition and payload key is looked up in it, and a body can hold tens of thousands of each. */
  readonly variantKeys: ReadonlySet<string>
  readonly variantSum: number
  readonly hasMultivariate: boolean
}

const percentOk = (value: unknown) =>
  value === undefined || value === null || (typeof value === "number" && value >= 0 && value <= 100)

const ROLLOUT_RANGE = "Filters are not valid (rollout_percentage must be a number between 0 and 100)"

/** The shape PostHog's code assumes, checked before any of its rules run. */
export const shapeOf = (filters: JsonRecord): FiltersShape | ValidationError => {
  const groups = filters["groups"]
  if (!Array.isArray(groups) || !groups.every(isRecord)) return filtersError("Filters are not valid (groups must be a list of objects)")
  const conditions: Array<Condition> = []
  for (const group of groups) {
    const properties = group["properties"] ?? []
    if (!Array.isArray(properties) || !properties.every(isRecord)) {
      return filtersError("Filters are not valid (properties must be a list of objects)")
    }
    if (properties.some((property) => property["key"] === undefined || property["key"] === null)) {
      return filtersError("Filters are not valid (every property needs a key)")
    }
    if (!percentOk(group["rollout_percentage"])) return filtersError(ROLLOUT_RANGE)
    conditions.push({ properties, rollout_percentage: group["rollout_percentage"], variant: group["variant"] })
  }
  const multivariate = filters["multivariate"] ?? null
  if (multivariate !== null && !isRecord(multivariate)) {
    return filtersError("Filters are not valid (multivariate must be an object with a list of variants)")
  }
  const variants = multivariate?.["variants"] ?? []
  if (!Array.isArray(variants) || !variants.every(isRecord)) {
    return filtersError("Filters are not valid (multivariate must be an object with a list of variants)")
  }
  if (variants.some((variant) => typeof variant["key"] !== "string")) return filtersError("Filters are not valid (every variant needs a key)")
  if (!variants.every((variant) => percentOk(variant["rollout_percentage"]))) return filtersError(ROLLOUT_RANGE)
  return {
    groups: conditions,
    variantKeys: new Set(variants.map((variant) => variant["key"] as string)),
    variantSum: variants.reduce<number>((sum, variant) => sum + ((variant["rollout_percentage"] as number | null | undefined) ?? 0), 0),
    // PostHog tests `filters.get("multivariate")` for truth: an empty object is a boolean flag.
    hasMultivariate: multivariate !== null && Object.keys(multivariate).length > 0
  }
}

/** PostHog's Property defaults a missing type to `event`. */
const typeOf = (property: JsonRecord) => (typeof property["type"] === "string" && property["type"] !== "" ? property["type"] : "event")

/** The property-type rules: person-aggregated flags take person/cohort/flag, group flags one group type. */
export const propertyTypesError = (filters: JsonRecord, shape: FiltersShape): ValidationError | undefined => {
  const all = shape.groups.flatMap((group) => group.properties)
  const aggregation = filters["aggregation_group_type_index"] ?? null
  if (aggregation === null) {
    if (!all.every((property) => PERSON_PROPERTY_TYPES.has(typeOf(property)))) {
      return filtersError("Filters are not valid (can only use person, cohort, and flag properties)")
    }
    if (!all.every((property) => typeOf(property) !== "flag" || property["operator"] === "flag_evaluates_to")) {
      return filtersError("Flag properties must use the 'flag_evaluates_to' operator")
    }
    return undefined
  }
  const sameGroup = all.every((property) => typeOf(property) === "group" && property["group_type_index"] === aggregation)
  return sameGroup ? undefined : filtersError("Filters are not valid (can only use group properties)")
}

/** What a cohort property may reference: the project's cohorts, by id. */
export interface CohortFacts {
  readonly name: string | null
  readonly behavioral: boolean
}

const RELATIVE_DATE = /^-?\d+[hdwmy]$/
const parsableDate = (value: unknown) =>
  typeof value === "string" && (RELATIVE_DATE.test(value.trim()) || !Number.isNaN(Date.parse(value)))

/** Cohort ids named by cohort properties, to load in one query. */
export const cohortIdsIn = (shape: FiltersShape): ReadonlyArray<number> =>
  shape.groups.flatMap((group) =>
    group.properties.filter((property) => typeOf(property) === "cohort").flatMap((property) => {
      const id = integerOf(property["value"])
      return id === undefined ? [] : [id]
    }))

/** Variants, overrides, value lists, cohorts, dates and operators, in PostHog's order. */
export const conditionRulesError = (
  shape: FiltersShape,
  cohorts: ReadonlyMap<number, CohortFacts>
): ValidationError | undefined => {
  if (shape.variantKeys.size > 0 && shape.variantSum !== 100) {
    return filtersError("Invalid variant definitions: Variant rollout percentages must sum to 100.")
  }
  for (const group of shape.groups) {
    if (isTruthyVariant(group.variant) && !shape.variantKeys.has(group.variant as string)) {
      return filtersError("Filters are not valid (variant override does not exist)")
    }
    for (const property of group.properties) {
      const value = property["value"]
      if (Array.isArray(value) && value.length > MAX_PROPERTY_VALUES) {
        return filtersError(
          `Property group expressions of type ${pythonStr(property["key"])} cannot contain more than ${MAX_PROPERTY_VALUES} values.`
        )
      }
      if (typeOf(property) === "cohort") {
        const id = integerOf(value)
        const cohort = id === undefined ? undefined : cohorts.get(id)
        if (cohort === undefined) return filtersError(`Cohort with id ${pythonStr(value)} does not exist`, "cohort_does_not_exist")
        if (cohort.behavioral) {
          return filtersError(
            `Cohort '${cohort.name ?? "None"}' with filters on events cannot be used in feature flags.`,
            "behavioral_cohort_found"
          )
        }
      }
      const operator = property["operator"]
      if ((operator === "is_date_before" || operator === "is_date_after") && !parsableDate(value)) {
        return filtersError(`Invalid date value: ${pythonStr(value)}`, "invalid_date")
      }
      if (typeof operator === "string" && STRING_OPERATORS.has(operator) && typeof value !== "string") {
        return filtersError(`Invalid value for operator ${operator}: ${pythonStr(value)}`, "invalid_value")
      }
    }
  }
  return undefined
}

const isTruthyVariant = (value: unknown) => value !== undefined && value !== null && value !== "" && value !== false && value !== 0

/** Payloads: an object of JSON values (text must parse), keyed by variant, or only `"true"` for booleans. */
export const payloadsError = (filters: JsonRecord, shape: FiltersShape): ValidationError | undefined => {
  const payloads = filters["payloads"] ?? {}
  if (!isRecord(payloads)) return filtersError("Payloads must be passed as a dictionary")
  for (const value of Object.values(payloads)) {
    if (typeof value === "string" && !parsesAsJson(value)) return filtersError("Payload value is not valid JSON")
  }
  const keys = Object.keys(payloads)
  if (shape.hasMultivariate) {
    if (!keys.every((key) => shape.variantKeys.has(key))) {
      return filtersError("Payload keys must match a variant key for multivariate flags")
    }
  } else if (keys.length > 1 || keys.some((key) => key !== "true")) {
    return filtersError("Payload keys must be 'true' for boolean flags")
  }
  return undefined
}

const parsesAsJson = (text: string) => {
  try {
    JSON.parse(text)
    return true
  } catch {
    return false
  }
}

/** Whether a cohort's stored definition filters on events, which flags cannot evaluate. */
export const isBehavioralDefinition = (definition: unknown): boolean => {
  const stack: Array<unknown> = [definition]
  while (stack.length > 0) {
    const value = stack.pop()
    if (Array.isArray(value)) stack.push(...value)
    else if (isRecord(value)) {
      if (value["type"] === "behavioral") return true
      stack.push(...Object.values(value))
    }
  }
  return false
}
