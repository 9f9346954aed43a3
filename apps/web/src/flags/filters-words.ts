import { isRecord } from "./flag.tsx"
import { OPERATOR_WORDS } from "./operators.ts"

/**
 * A flag's `filters` (as the API stores them) told in words, a line per part: each release condition,
 * each variant and each payload. Two versions are compared line by line, so a change shows as the lines
 * that went and the lines that came.
 */

type Json = Record<string, unknown>

const recordsOf = (value: unknown): Array<Json> => Array.isArray(value) ? value.filter(isRecord) : []

const textOf = (value: unknown): string =>
  value === undefined || value === null ? "" : typeof value === "string" ? value : JSON.stringify(value)

const percentOf = (value: unknown, otherwise: number): string => `${typeof value === "number" ? value : otherwise} %`

const operatorWords = (operator: unknown): string =>
  typeof operator === "string" && Object.hasOwn(OPERATOR_WORDS, operator) ? OPERATOR_WORDS[operator as keyof typeof OPERATOR_WORDS] : textOf(operator)

/** One property filter: `email contains "@acme.com"`, `in cohort 4`, `plan is set`. */
const propertyWords = (property: Json): string => {
  if (property["type"] === "cohort") return `${property["operator"] === "not_in" ? "not in" : "in"} cohort ${textOf(property["value"])}`
  const operator = property["operator"] ?? "exact"
  const name = textOf(property["key"])
  if (operator === "is_set" || operator === "is_not_set") return `${name} ${operatorWords(operator)}`
  const value = property["value"]
  const shown = Array.isArray(value) ? value.map((item) => `"${textOf(item)}"`).join(", ") : `"${textOf(value)}"`
  return `${name} ${operatorWords(operator)} ${shown}`
}

/** Who a condition rolls out to: users, or the groups the flag is aggregated by. */
const audienceOf = (filters: Json): string =>
  typeof filters["aggregation_group_type_index"] === "number" ? `groups of type ${filters["aggregation_group_type_index"]}` : "users"

/** A condition's sentence: `30 % of users where email contains "@acme.com"`. */
export const conditionWords = (filters: Json, group: Json): string => {
  const properties = recordsOf(group["properties"]).map(propertyWords)
  const where = properties.length === 0 ? "" : ` where ${properties.join(" and ")}`
  const variant = typeof group["variant"] === "string" && group["variant"] !== "" ? `, served variant ${group["variant"]}` : ""
  return `${percentOf(group["rollout_percentage"], 100)} of ${audienceOf(filters)}${where}${variant}`
}

/** Every line of the filters, in order: conditions, variants, payloads. */
export const filtersLines = (value: unknown): Array<string> => {
  const filters = isRecord(value) ? value : {}
  const groups = recordsOf(filters["groups"])
  const lines = groups.map((group, index) => `Condition ${index + 1}: ${conditionWords(filters, group)}`)
  if (groups.length === 0) lines.push("No release conditions: nobody gets the flag")
  const multivariate = isRecord(filters["multivariate"]) ? filters["multivariate"] : {}
  for (const variant of recordsOf(multivariate["variants"])) {
    const name = textOf(variant["name"])
    lines.push(`Variant ${textOf(variant["key"])}${name === "" ? "" : ` (${name})`}: ${percentOf(variant["rollout_percentage"], 0)}`)
  }
  const payloads = isRecord(filters["payloads"]) ? filters["payloads"] : {}
  for (const [key, payload] of Object.entries(payloads)) {
    if (payload === null || payload === "") continue
    lines.push(`${key === "true" ? "Payload" : `Payload of variant ${key}`}: ${textOf(payload)}`)
  }
  return lines
}

/**
 * The one rollout a change moved, when that is all it changed: which condition (its number, counted from
 * 1) and its percentages before and after; undefined for any other change.
 */
export const rolloutMove = (before: unknown, after: unknown): { readonly condition: number; readonly of: number; readonly from: string; readonly to: string } | undefined => {
  if (!isRecord(before) || !isRecord(after)) return undefined
  const left = recordsOf(before["groups"])
  const right = recordsOf(after["groups"])
  if (left.length !== right.length || left.length === 0) return undefined
  const withoutGroups = (filters: Json) => JSON.stringify({ ...filters, groups: null })
  if (withoutGroups(before) !== withoutGroups(after)) return undefined
  const moved = left.flatMap((group, index) => {
    const other = right[index]!
    const sameOtherwise = JSON.stringify({ ...group, rollout_percentage: null }) === JSON.stringify({ ...other, rollout_percentage: null })
    if (!sameOtherwise) return [undefined]
    return (group["rollout_percentage"] ?? 100) === (other["rollout_percentage"] ?? 100) ? [] : [index]
  })
  if (moved.length !== 1 || moved[0] === undefined) return undefined
  const index = moved[0]
  return {
    condition: index + 1,
    of: left.length,
    from: percentOf(left[index]!["rollout_percentage"], 100),
    to: percentOf(right[index]!["rollout_percentage"], 100)
  }
}
