import { regexPatternError } from "../../evaluation/regex.ts"
import type { ValidationError } from "../../shared/errors.ts"
import { isRecord } from "../../shared/fields.ts"
import { pythonStr } from "../../shared/validation.ts"
import { filtersError, type FlagConditions, propertiesIn } from "../conditions.ts"

/**
 * PostHog's checks of a flag's filters, as far as they apply without an analytics engine, on conditions
 * that `parseConditions` has read (it refuses first the shapes PostHog's own code would fail on). Every
 * failure is on attr `filters`. The rules that need stored data (cohorts) are handed it already read.
 */

export const MAX_PROPERTY_VALUES = 1000

const STRING_OPERATORS = new Set(["regex", "icontains", "not_regex", "not_icontains", "gte", "lte", "gt", "lt"])
const PERSON_PROPERTY_TYPES = new Set(["person", "cohort", "flag"])

/** The property-type rules: person-aggregated flags take person/cohort/flag, group flags one group type. */
export const propertyTypesError = (conditions: FlagConditions): ValidationError | undefined => {
  const all = propertiesIn(conditions)
  const aggregation = conditions.aggregation_group_type_index
  if (aggregation === null) {
    if (!all.every((property) => PERSON_PROPERTY_TYPES.has(property.type))) {
      return filtersError("Filters are not valid (can only use person, cohort, and flag properties)")
    }
    if (!all.every((property) => property.type !== "flag" || property.operator === "flag_evaluates_to")) {
      return filtersError("Flag properties must use the 'flag_evaluates_to' operator")
    }
    return undefined
  }
  // Compared as given: an index of another kind than a number matches only an equal one.
  const sameGroup = all.every((property) => property.type === "group" && property.group_type_index === aggregation)
  return sameGroup ? undefined : filtersError("Filters are not valid (can only use group properties)")
}

/** What a cohort property may reference: the project's cohorts, by id. */
export interface CohortFacts {
  readonly name: string | null
  readonly behavioral: boolean
}

const RELATIVE_DATE = /^-?\d+[hdwmy]$/
/** A relative date (`-7d`) or one JavaScript parses, as the date operators need. */
export const parsableDate = (value: unknown) =>
  typeof value === "string" && (RELATIVE_DATE.test(value.trim()) || !Number.isNaN(Date.parse(value)))

/** Variants, overrides, value lists, cohorts, dates and operators, in PostHog's order. */
export const conditionRulesError = (
  conditions: FlagConditions,
  cohorts: ReadonlyMap<number, CohortFacts>
): ValidationError | undefined => {
  const variantSum = conditions.variants.reduce((sum, variant) => sum + variant.rollout_percentage, 0)
  if (conditions.variants.length > 0 && variantSum !== 100) {
    return filtersError("Invalid variant definitions: Variant rollout percentages must sum to 100.")
  }
  for (const group of conditions.groups) {
    const override = group.variant
    if (override !== null && !(typeof override === "string" && conditions.variantKeys.has(override))) {
      return filtersError("Filters are not valid (variant override does not exist)")
    }
    for (const property of group.properties) {
      const value = property.value
      if (Array.isArray(value) && value.length > MAX_PROPERTY_VALUES) {
        return filtersError(
          `Property group expressions of type ${pythonStr(property.key)} cannot contain more than ${MAX_PROPERTY_VALUES} values.`
        )
      }
      if (property.type === "cohort") {
        const cohort = property.cohort_id === null ? undefined : cohorts.get(property.cohort_id)
        if (cohort === undefined) return filtersError(`Cohort with id ${pythonStr(value)} does not exist`, "cohort_does_not_exist")
        if (cohort.behavioral) {
          return filtersError(
            `Cohort '${cohort.name ?? "None"}' with filters on events cannot be used in feature flags.`,
            "behavioral_cohort_found"
          )
        }
      }
      const operator = property.operator
      if ((operator === "is_date_before" || operator === "is_date_after") && !parsableDate(value)) {
        return filtersError(`Invalid date value: ${pythonStr(value)}`, "invalid_date")
      }
      if (operator !== null && STRING_OPERATORS.has(operator) && typeof value !== "string") {
        return filtersError(`Invalid value for operator ${operator}: ${pythonStr(value)}`, "invalid_value")
      }
    }
  }
  return undefined
}

/**
 * The `regex` and `not_regex` patterns, which evaluation runs on RE2's engine: each must compile there
 * (no lookaround or backreference, which no linear-time engine has) within its bounds. PostHog has no
 * such rule; its check that a new flag can be evaluated refuses some of these patterns with a message
 * that names no cause.
 */
export const regexRulesError = (conditions: FlagConditions): ValidationError | undefined => {
  for (const property of propertiesIn(conditions)) {
    if ((property.operator === "regex" || property.operator === "not_regex") && typeof property.value === "string") {
      const error = regexPatternError(property.value)
      if (error !== undefined) return filtersError(error, "invalid_value")
    }
  }
  return undefined
}

/** Payloads: an object of JSON values (text must parse), keyed by variant, or only `"true"` for booleans. */
export const payloadsError = (conditions: FlagConditions): ValidationError | undefined => {
  const payloads = conditions.payloads
  if (payloads === null) return filtersError("Payloads must be passed as a dictionary")
  for (const value of Object.values(payloads)) {
    if (typeof value === "string" && !parsesAsJson(value)) return filtersError("Payload value is not valid JSON")
  }
  const keys = Object.keys(payloads)
  if (conditions.hasMultivariate) {
    if (!keys.every((key) => conditions.variantKeys.has(key))) {
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
