import { ValidationError } from "../shared/errors.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { integerOf } from "../shared/python.ts"

/**
 * A flag's filters read once into a typed value: what the computed fields, the validation rules, the
 * dependency checks and the view read, and what flag evaluation is to read. What PostHog leaves untyped
 * (a property's key and value, group type indexes, a variant override) is kept as given, narrowed one
 * level, because the rules compare it as given.
 */

/** A JSON value other than null, narrowed one level: the members of a list or an object stay unknown. */
export type JsonValue = string | number | boolean | ReadonlyArray<unknown> | JsonRecord

/** One property filter of a condition group. */
export interface PropertyFilter {
  /** The property's name; for `type: flag`, the id of the flag depended on, as text or a number. */
  readonly key: JsonValue
  /** A missing or empty type reads as `event`, as PostHog reads it. */
  readonly type: string
  /** Null when missing (PostHog then matches `exact`) or not text. */
  readonly operator: string | null
  readonly value: JsonValue | null
  readonly group_type_index: JsonValue | null
  /** `type: cohort`: the cohort id the value names, or null when it names none. */
  readonly cohort_id: number | null
  /** `type: flag`: the flag id the key names, or null when it names none. */
  readonly flag_id: number | null
  /** The property as given, which the API echoes. */
  readonly json: JsonRecord
}

/** A condition group (a release condition): all its properties must match. */
export interface ConditionGroup {
  readonly properties: ReadonlyArray<PropertyFilter>
  /** Null when not given: PostHog's evaluation then lets everyone through, while its status check counts only 100. */
  readonly rollout_percentage: number | null
  /**
   * The variant the group forces, or null for none (`""`, `0` and `false` force none). A truthy override
   * that is not text names no variant: validation refuses it.
   */
  readonly variant: JsonValue | null
  /** The group as given, which the API echoes. */
  readonly json: JsonRecord
}

/** One variant of a multivariate flag. */
export interface Variant {
  readonly key: string
  readonly name: string | null
  /** A missing percentage counts as 0. */
  readonly rollout_percentage: number
}

/** A flag's filters: its condition groups, variants, payloads and aggregation. */
export interface FlagConditions {
  readonly groups: ReadonlyArray<ConditionGroup>
  /** `multivariate.variants`, in order. */
  readonly variants: ReadonlyArray<Variant>
  /** The variants' keys as a set: overrides and payload keys are looked up in it, and a large body holds many of each. */
  readonly variantKeys: ReadonlySet<string>
  /** `multivariate` is a non-empty object: PostHog tests it for truth, so `{}` makes a boolean flag. */
  readonly hasMultivariate: boolean
  /** Keyed by variant key, or `"true"` for a boolean flag; null when given as something else than an object, which validation refuses. */
  readonly payloads: JsonRecord | null
  /** Null for a flag aggregated by persons. PostHog's index is an integer; kept as given, since the rules compare it as given. */
  readonly aggregation_group_type_index: JsonValue | null
  /** Stored `{}`: a flag created without filters, which PostHog's status check counts as on for everyone. */
  readonly withoutFilters: boolean
  /** The filters as the API renders them: as given, or the one open group that stands for stored filters without groups. */
  readonly json: JsonRecord
}

/** A refusal of a flag's filters: PostHog reports every one on attr `filters`. */
export const filtersError = (detail: string, code = "invalid_input") => ValidationError.field("filters", detail, code)

/**
 * Submitted filters: the first shape PostHog's own code would crash on (in the order it would meet it),
 * refused in the style of its messages, or the conditions they hold.
 */
export const parseConditions = (filters: JsonRecord): FlagConditions | ValidationError => {
  const { conditions, unsound } = read(filters)
  return unsound === undefined ? conditions : filtersError(unsound)
}

/**
 * Filters already validated (stored, or about to be): total. Filters without groups (a flag created
 * without filters keeps `{}`) read as one open condition group, as PostHog reads them.
 */
export const conditionsOf = (filters: JsonRecord): FlagConditions => {
  const known = readings.get(filters)
  if (known !== undefined) return known
  const conditions = "groups" in filters
    ? read(filters).conditions
    : {
      ...read({ groups: [{ properties: listOf(filters["properties"]), rollout_percentage: null }] }).conditions,
      withoutFilters: Object.keys(filters).length === 0
    }
  readings.set(filters, conditions)
  return conditions
}

/**
 * Stored filters are never changed in place (a write stores new ones), so each is read once for as long
 * as a flag held in memory keeps it: every answer and evaluation of that flag reuses the reading.
 */
const readings = new WeakMap<JsonRecord, FlagConditions>()

/** Every property filter, group after group. */
export const propertiesIn = (conditions: FlagConditions): ReadonlyArray<PropertyFilter> =>
  conditions.groups.flatMap((group) => group.properties)

/** The cohort ids named by cohort properties, in condition order. */
export const cohortIdsIn = (conditions: FlagConditions): ReadonlyArray<number> =>
  propertiesIn(conditions).flatMap((property) => (property.cohort_id === null ? [] : [property.cohort_id]))

const GROUPS = "Filters are not valid (groups must be a list of objects)"
const PROPERTIES = "Filters are not valid (properties must be a list of objects)"
const KEYLESS = "Filters are not valid (every property needs a key)"
const MULTIVARIATE = "Filters are not valid (multivariate must be an object with a list of variants)"
const VARIANT_KEY = "Filters are not valid (every variant needs a key)"
const ROLLOUT_RANGE = "Filters are not valid (rollout_percentage must be a number between 0 and 100)"

/**
 * The one reading of filters, noting the first unsound shape on the way (PostHog's code stops at the
 * first). What is unsound is left out of the conditions, so that any filters read.
 */
const read = (filters: JsonRecord): { readonly conditions: FlagConditions; readonly unsound: string | undefined } => {
  let unsound: string | undefined
  const check = (sound: boolean, detail: string) => {
    if (!sound) unsound ??= detail
  }
  const givenGroups = filters["groups"]
  check(isListOfRecords(givenGroups), GROUPS)
  const groups = recordsIn(givenGroups).map((group): ConditionGroup => {
    const givenProperties = group["properties"] ?? []
    check(isListOfRecords(givenProperties), PROPERTIES)
    const properties = recordsIn(givenProperties)
    check(properties.every((property) => property["key"] !== undefined && property["key"] !== null), KEYLESS)
    const rollout = group["rollout_percentage"]
    check(isPercentage(rollout), ROLLOUT_RANGE)
    return {
      properties: properties.flatMap((property) => {
        const key = jsonValueOf(property["key"])
        return key === null ? [] : [propertyOf(property, key)]
      }),
      rollout_percentage: typeof rollout === "number" ? rollout : null,
      variant: overrideOf(group["variant"]),
      json: group
    }
  })
  const multivariate = filters["multivariate"] ?? null
  check(multivariate === null || isRecord(multivariate), MULTIVARIATE)
  const givenVariants = isRecord(multivariate) ? multivariate["variants"] ?? [] : []
  check(isListOfRecords(givenVariants), MULTIVARIATE)
  const variantRecords = recordsIn(givenVariants)
  check(variantRecords.every((variant) => typeof variant["key"] === "string"), VARIANT_KEY)
  check(variantRecords.every((variant) => isPercentage(variant["rollout_percentage"])), ROLLOUT_RANGE)
  const variants = variantRecords.flatMap(variantOf)
  const payloads = filters["payloads"] ?? {}
  return {
    unsound,
    conditions: {
      groups,
      variants,
      variantKeys: new Set(variants.map((variant) => variant.key)),
      hasMultivariate: isRecord(multivariate) && Object.keys(multivariate).length > 0,
      payloads: isRecord(payloads) ? payloads : null,
      aggregation_group_type_index: jsonValueOf(filters["aggregation_group_type_index"]),
      withoutFilters: false,
      json: filters
    }
  }
}

const propertyOf = (property: JsonRecord, key: JsonValue): PropertyFilter => {
  const given = property["type"]
  const type = typeof given === "string" && given !== "" ? given : "event"
  const operator = property["operator"]
  return {
    key,
    type,
    operator: typeof operator === "string" ? operator : null,
    value: jsonValueOf(property["value"]),
    group_type_index: jsonValueOf(property["group_type_index"]),
    cohort_id: type === "cohort" ? integerOf(property["value"]) : null,
    flag_id: type === "flag" ? integerOf(key) : null,
    json: property
  }
}

const variantOf = (variant: JsonRecord): ReadonlyArray<Variant> => {
  const { key, name, rollout_percentage } = variant
  if (typeof key !== "string") return []
  return [{
    key,
    name: typeof name === "string" ? name : null,
    rollout_percentage: typeof rollout_percentage === "number" ? rollout_percentage : 0
  }]
}

const overrideOf = (value: unknown): JsonValue | null => (value === "" || value === 0 || value === false ? null : jsonValueOf(value))

const isPercentage = (value: unknown) =>
  value === undefined || value === null || (typeof value === "number" && value >= 0 && value <= 100)

const isJsonValue = (value: unknown): value is JsonValue =>
  typeof value === "string" || typeof value === "number" || typeof value === "boolean" || Array.isArray(value) || isRecord(value)

const jsonValueOf = (value: unknown): JsonValue | null => (isJsonValue(value) ? value : null)

const isListOfRecords = (value: unknown): value is ReadonlyArray<JsonRecord> => Array.isArray(value) && value.every(isRecord)

const recordsIn = (value: unknown): ReadonlyArray<JsonRecord> => (Array.isArray(value) ? value.filter(isRecord) : [])

const listOf = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])
