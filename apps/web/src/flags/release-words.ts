import { LIST_OPERATORS, recordsOf, textOf, VALUELESS_OPERATORS } from "./draft.ts"
import { isRecord } from "./flag.tsx"
import { OPERATOR_WORDS } from "./operators.ts"

/**
 * How a flag's release is put into words, read from its `filters` as the API holds them: each property
 * filter, each condition (its rollout, of whom, where what holds, the variant it forces), the conditions
 * checked first (`super_groups`), each variant and each payload. The list's one-line summary, the form's
 * before/after and the history's lines are all made of these words. It decides nothing: evaluation
 * stays the API's.
 */

type Json = Record<string, unknown>

/** Names the page knows, for what the filters name by id; an id it does not know is shown as the id. */
export interface SummaryNames {
  /** Cohort names by id. */
  readonly cohorts?: ReadonlyMap<number, string>
  /** What a group type's members are called (its plural name, else its name with "(s)"), by group type index. */
  readonly groupTypes?: ReadonlyMap<number, string>
  /** Flag keys by id, for conditions on another flag. */
  readonly flags?: ReadonlyMap<number, string>
}

/** A share in words: "30 %"; `otherwise` where none is stored (a condition reads as 100, a variant as 0). */
export const percentWords = (value: unknown, otherwise: number): string => `${typeof value === "number" ? value : otherwise} %`

const idOf = (value: unknown): number | undefined => {
  const text = textOf(value).trim()
  return /^\d+$/.test(text) ? Number(text) : undefined
}

const operatorWords = (operator: string): string =>
  (OPERATOR_WORDS as Record<string, string | undefined>)[operator] ?? operator

/** A filter's value, quoted so that spaces and empty values show: `"@acme.com"`, `"pro", "team"`. */
const valueWords = (value: unknown, operator: string): string => {
  const items = Array.isArray(value)
    ? value.map(textOf)
    : LIST_OPERATORS.has(operator)
    ? textOf(value).split(",").map((item) => item.trim()).filter((item) => item !== "")
    : [textOf(value)]
  return items.length === 0 ? `""` : items.map((item) => `"${item}"`).join(", ")
}

/** One property filter: `email contains "@acme.com"`, `in cohort Beta testers`, `flag new-nav is true`, `plan is set`. */
const propertyWords = (property: Json, names: SummaryNames = {}): string => {
  if (property["type"] === "cohort") {
    const id = idOf(property["value"])
    const name = id === undefined ? undefined : names.cohorts?.get(id)
    return `${property["operator"] === "not_in" ? "not in" : "in"} cohort ${name ?? textOf(property["value"])}`
  }
  const key = textOf(property["key"])
  if (property["type"] === "flag") {
    const id = idOf(key)
    return `flag ${(id === undefined ? undefined : names.flags?.get(id)) ?? key} is ${textOf(property["value"])}`
  }
  const operator = typeof property["operator"] === "string" ? property["operator"] : "exact"
  const name = key === "" ? "(no property)" : key
  return VALUELESS_OPERATORS.has(operator)
    ? `${name} ${operatorWords(operator)}`
    : `${name} ${operatorWords(operator)} ${valueWords(property["value"], operator)}`
}

/** Whom the conditions pick from: users, or the members of the group type the flag is rolled out by. */
export const subjectOf = (filters: Json, names: SummaryNames = {}): string => {
  const index = filters["aggregation_group_type_index"]
  if (typeof index !== "number") return "users"
  return names.groupTypes?.get(index) ?? `groups of type ${index}`
}

/** One condition: `30 % of users in cohort Beta where email contains "@acme.com" get b`, `100 % of everyone`. */
export const conditionWords = (group: Json, subject: string, names: SummaryNames = {}): string => {
  const properties = recordsOf(group["properties"])
  const cohorts = properties.filter((property) => property["type"] === "cohort").map((property) => propertyWords(property, names))
  const others = properties.filter((property) => property["type"] !== "cohort").map((property) => propertyWords(property, names))
  const who = properties.length === 0 && subject === "users" ? "everyone" : subject
  const variant = group["variant"]
  return [
    `${percentWords(group["rollout_percentage"], 100)} of ${who}`,
    ...cohorts.length === 0 ? [] : [` ${cohorts.join(" and ")}`],
    ...others.length === 0 ? [] : [` where ${others.join(" and ")}`],
    ...typeof variant === "string" && variant !== "" ? [` get ${variant}`] : []
  ].join("")
}

const filtersOf = (value: unknown): Json => isRecord(value) ? value : {}

/** The conditions, then those checked before them (`super_groups`, a person's opt-in), as the API holds them. */
export const groupsOf = (filters: Json): Array<Json> => recordsOf(filters["groups"])
export const superGroupsOf = (filters: Json): Array<Json> => recordsOf(filters["super_groups"])

/** The variants, as the API holds them; none for a flag that is on or off. */
export const variantsOf = (filters: Json): Array<Json> =>
  recordsOf(isRecord(filters["multivariate"]) ? filters["multivariate"]["variants"] : undefined)

/** Every condition a line each, those checked first before them; or the one line saying no one gets the flag. */
export const conditionLines = (value: unknown, names: SummaryNames = {}): Array<string> => {
  const filters = filtersOf(value)
  const subject = subjectOf(filters, names)
  const first = superGroupsOf(filters).map((group) => `First: ${conditionWords(group, subject, names)}`)
  const groups = groupsOf(filters)
  return groups.length === 0
    ? [...first, "No release conditions: nobody gets the flag"]
    : [...first, ...groups.map((group, index) => `Condition ${index + 1}: ${conditionWords(group, subject, names)}`)]
}

/** Every variant a line: "Variant control (Now): 50 %". */
export const variantLines = (value: unknown): Array<string> =>
  variantsOf(filtersOf(value)).map((variant) => {
    const name = textOf(variant["name"])
    return `Variant ${textOf(variant["key"])}${name === "" ? "" : ` (${name})`}: ${percentWords(variant["rollout_percentage"], 0)}`
  })

/** Every payload a line: "Payload: …" for a flag that is on or off, "Payload of variant test: …". */
export const payloadLines = (value: unknown): Array<string> => {
  const payloads = filtersOf(value)["payloads"]
  return Object.entries(isRecord(payloads) ? payloads : {}).flatMap(([key, payload]) =>
    payload === null || payload === "" ? [] : [`${key === "true" ? "Payload" : `Payload of variant ${key}`}: ${textOf(payload)}`]
  )
}

/** Every line of the release, in order: conditions, variants, payloads. */
export const releaseLines = (value: unknown, names: SummaryNames = {}): Array<string> =>
  [...conditionLines(value, names), ...variantLines(value), ...payloadLines(value)]
