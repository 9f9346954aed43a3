import type { PropertyFilter } from "../feature-flags/conditions.ts"
import { sdkActualDate, sdkFilterDate, serviceActualDate, serviceFilterDate } from "./dates.ts"
import type { CompiledPatterns } from "./regex-patterns.ts"
import { type RegexBudget, RegexBudgetExceeded } from "./regex-budget.ts"
import { type SemverOperator, sdkSemver, serviceSemver } from "./semver.ts"
import { asciiLower, isRenderable, isTruthLike, sdkExactText, serviceText, truthOf } from "./values.ts"
import { decided, deferred, type Verdict } from "./verdict.ts"

/** Property values by name: a person's, or a group's. */
export type Properties = Readonly<Record<string, unknown>>

/** The properties as the SDK sees them, and as the service does (which fills in `$initial_` ones). */
export interface PropertySources {
  readonly sdk: Properties
  readonly service: Properties
}

/** What a property filter compares: the name, the operator (`exact` when none) and the filter value (undefined when none is given). */
export interface Comparison {
  readonly key: string
  readonly operator: string
  readonly value: unknown
}

/** What a flag's property filter compares (its key is read only then: it may be a value no reader renders). */
export const comparisonOf = (property: PropertyFilter): Comparison => ({
  key: String(property.key),
  operator: operatorOf(property),
  value: property.json["value"]
})

/** The operator a flag's property filter compares with: `exact` when it names none. */
export const operatorOf = (property: PropertyFilter): string => property.operator || "exact"

/**
 * What every comparison of one evaluation shares: the instant relative dates count back from, the regex
 * budget, and the project's compiled patterns.
 */
export interface ComparisonScope {
  readonly now: Date
  readonly regex: RegexBudget
  readonly patterns: CompiledPatterns
}

/** The pattern of a `regex` filter as the SDK reads it: the value as JavaScript renders it as text. */
const sdkPattern = (value: unknown): string => String(value)

/** The pattern as the service reads it: the value's text, as JSON's when it is not text. */
const servicePattern = (value: unknown): string => serviceText(value)

const REGEX_OPERATORS: ReadonlySet<string> = new Set(["regex", "not_regex"])

/** The patterns a filter has the SDK and the service search with: none unless its operator is `regex` or `not_regex`. */
export const regexPatterns = (operator: string, value: unknown): ReadonlyArray<string> => {
  if (!REGEX_OPERATORS.has(operator)) return []
  const patterns: Array<string> = []
  for (const read of [sdkPattern, servicePattern]) {
    try {
      patterns.push(read(value))
    } catch {
      // A value that cannot be rendered as text (a JSON object whose `toString` is not a function) is no pattern.
    }
  }
  return patterns
}

const hasOwn = (properties: Properties, key: string) => Object.prototype.hasOwnProperty.call(properties, key)

/**
 * Every operator a property filter may name, as the evaluators here (and PostHog's) know them; a filter
 * naming another matches nothing. The web console offers exactly these.
 */
export const PROPERTY_OPERATORS = [
  "exact", "is_not", "icontains", "not_icontains", "regex", "not_regex", "gt", "gte", "lt", "lte", "is_set",
  "is_not_set", "starts_with", "not_starts_with", "ends_with", "not_ends_with", "icontains_multi",
  "not_icontains_multi", "between", "not_between", "is_date_exact", "is_date_before", "is_date_after",
  "semver_eq", "semver_neq", "semver_gt", "semver_gte", "semver_lt", "semver_lte", "semver_tilde", "semver_caret",
  "semver_wildcard"
] as const
export type PropertyOperator = (typeof PROPERTY_OPERATORS)[number]

/** The operators that compare a null value as the text "null"; the others do not match it. */
const NULL_COMPARED = new Set([
  "exact", "is_not", "icontains", "not_icontains", "starts_with", "not_starts_with", "ends_with", "not_ends_with",
  "regex", "not_regex"
])

const NEGATIVE_SUBSTRING = new Set(["not_icontains", "not_starts_with", "not_ends_with"])

const SEMVER = new Set(["semver_eq", "semver_neq", "semver_gt", "semver_gte", "semver_lt", "semver_lte", "semver_tilde", "semver_caret", "semver_wildcard"])

/**
 * One property filter against one set of properties. A property the SDK does not have (and any value it
 * cannot compare exactly as the service would) is left to the service; Hedgerow keeps no persons, so
 * the service sees only what the request carries.
 */
export const compare = (comparison: Comparison, sources: PropertySources, scope: ComparisonScope): Verdict => {
  if (!hasOwn(sources.sdk, comparison.key)) return deferred(serviceCompare(comparison, sources.service, scope))
  let sdk: boolean | undefined
  try {
    sdk = sdkCompare(comparison, sources.sdk[comparison.key], scope)
  } catch (error) {
    // A regex the budget cannot pay for fails the flag, whoever decides it.
    if (error instanceof RegexBudgetExceeded) throw error
    // posthog-node throws on a value JavaScript cannot render as text (JSON allows an object whose
    // `toString` is not a function) and leaves the flag to the service, which reads it as JSON.
    return deferred(serviceCompare(comparison, sources.service, scope), "server")
  }
  return sdk === undefined ? deferred(serviceCompare(comparison, sources.service, scope)) : decided(sdk)
}

const substring = (operator: string, actual: string, wanted: string): boolean | undefined => {
  switch (operator) {
    case "icontains":
      return actual.includes(wanted)
    case "not_icontains":
      return !actual.includes(wanted)
    case "starts_with":
      return actual.startsWith(wanted)
    case "not_starts_with":
      return !actual.startsWith(wanted)
    case "ends_with":
      return actual.endsWith(wanted)
    case "not_ends_with":
      return !actual.endsWith(wanted)
    default:
      return undefined
  }
}

const ordered = (operator: string, a: number | string, b: number | string): boolean =>
  operator === "gt" ? a > b : operator === "gte" ? a >= b : operator === "lt" ? a < b : a <= b

/** The SDK's `exact`; undefined where it leaves the comparison to the service. */
const sdkExact = (wanted: unknown, actual: unknown): boolean | undefined => {
  if (isTruthLike(wanted)) return isRenderable(actual) ? truthOf(wanted) === truthOf(actual) : undefined
  if (Array.isArray(wanted)) {
    const text = sdkExactText(actual)?.toLowerCase()
    if (text === undefined) return undefined
    for (const item of wanted) {
      const itemText = sdkExactText(item)
      if (itemText === undefined) return undefined
      if (itemText.toLowerCase() === text) return true
    }
    return false
  }
  const wantedText = sdkExactText(wanted)
  const actualText = wantedText === undefined ? undefined : sdkExactText(actual)
  return wantedText === undefined || actualText === undefined ? undefined : wantedText.toLowerCase() === actualText.toLowerCase()
}

/** The SDK's answer for a property it has, or undefined when it leaves it to the service. */
const sdkCompare = ({ operator, value }: Comparison, actual: unknown, { now, regex, patterns }: ComparisonScope): boolean | undefined => {
  if (operator === "is_set") return true
  if (operator === "is_not_set") return false
  if (actual === null && !NULL_COMPARED.has(operator)) return false
  switch (operator) {
    case "exact":
    case "is_not": {
      const equal = sdkExact(value, actual)
      return equal === undefined ? undefined : equal === (operator === "exact")
    }
    case "regex":
    case "not_regex": {
      const found = patterns.finds(sdkPattern(value), String(actual), regex)
      return found === null ? false : found === (operator === "regex")
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      // A number when both sides read as one (leading digits suffice), else the texts compare.
      const wanted = typeof value === "number" ? value : Number.parseFloat(String(value))
      const got = typeof actual === "number" ? actual : Number.parseFloat(String(actual))
      return Number.isFinite(wanted) && Number.isFinite(got)
        ? ordered(operator, got, wanted)
        : ordered(operator, String(actual), String(value))
    }
    case "is_date_before":
    case "is_date_after": {
      const wanted = sdkFilterDate(value, now)
      const got = wanted === undefined ? undefined : sdkActualDate(actual)
      if (wanted === undefined || got === undefined) return undefined
      return operator === "is_date_before" ? got < wanted : got > wanted
    }
    default:
      if (SEMVER.has(operator)) return sdkSemver(operator as SemverOperator, actual, value)
      return substring(operator, asciiLower(String(actual)), asciiLower(String(value)))
  }
}

/** Rust's decimal float syntax; each digit has one place in it, so a long text fails in one pass. */
const RUST_FLOAT = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?$/i

/** A number as the service reads text: Rust's float syntax, no surrounding space. */
const serviceNumber = (value: unknown): number | undefined => {
  if (typeof value === "number") return value
  const text = serviceText(value)
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity
  if (/^[+-]?nan$/i.test(text)) return Number.NaN
  return RUST_FLOAT.test(text) ? Number(text) : undefined
}

const serviceExact = (wanted: unknown, actual: unknown): boolean => {
  if (isTruthLike(wanted)) return truthOf(wanted) === truthOf(actual)
  const text = serviceText(actual).toLowerCase()
  return Array.isArray(wanted)
    ? wanted.some((item) => serviceText(item).toLowerCase() === text)
    : serviceText(wanted).toLowerCase() === text
}

/**
 * PostHog's flags service, on the properties it holds: a missing property matches the negative
 * operators (`is_not`, `not_icontains`, `not_regex`, ..., `is_not_set`) and nothing else, and a filter
 * without a value matches nothing. Its own operators (`icontains_multi`, `between`, `is_date_exact`)
 * live only here, since the SDK leaves them to it.
 */
export const serviceCompare = (
  { key, operator, value }: Comparison,
  properties: Properties,
  { now, regex, patterns }: ComparisonScope
): boolean => {
  const present = hasOwn(properties, key)
  if (operator === "is_set") return present
  if (operator === "is_not_set") return !present
  if (value === null || value === undefined) return false
  const actual = properties[key]
  switch (operator) {
    case "exact":
      return present && serviceExact(value, actual)
    case "is_not":
      return !present || !serviceExact(value, actual)
    case "regex":
    case "not_regex": {
      if (!present) return operator === "not_regex"
      const found = patterns.finds(servicePattern(value), serviceText(actual), regex)
      return found !== null && found === (operator === "regex")
    }
    case "icontains_multi":
    case "not_icontains_multi": {
      if (!present) return operator === "not_icontains_multi"
      const text = asciiLower(serviceText(actual))
      const found = (Array.isArray(value) ? value : [value]).some((item) => text.includes(asciiLower(serviceText(item))))
      return found === (operator === "icontains_multi")
    }
    case "gt":
    case "gte":
    case "lt":
    case "lte": {
      const got = present ? serviceNumber(actual) : undefined
      const wanted = got === undefined ? undefined : serviceNumber(value)
      return got !== undefined && wanted !== undefined && ordered(operator, got, wanted)
    }
    case "between":
    case "not_between": {
      if (!present) return operator === "not_between"
      const low = Array.isArray(value) && value.length === 2 ? serviceNumber(value[0]) : undefined
      const high = Array.isArray(value) && value.length === 2 ? serviceNumber(value[1]) : undefined
      const got = serviceNumber(actual)
      if (low === undefined || high === undefined || Number.isNaN(low) || Number.isNaN(high) || low > high) return false
      if (got === undefined || Number.isNaN(got)) return false
      return (got >= low && got <= high) === (operator === "between")
    }
    case "is_date_exact":
    case "is_date_before":
    case "is_date_after": {
      const got = present ? serviceActualDate(actual, now) : undefined
      const wanted = got === undefined ? undefined : serviceFilterDate(value, now)
      if (got === undefined || wanted === undefined) return false
      const order = got.getTime() - wanted.getTime()
      return operator === "is_date_exact" ? order === 0 : operator === "is_date_before" ? order < 0 : order > 0
    }
    default:
      if (SEMVER.has(operator)) return present && serviceSemver(operator as SemverOperator, actual, value)
      if (!present) return NEGATIVE_SUBSTRING.has(operator)
      return substring(operator, asciiLower(serviceText(actual)), asciiLower(serviceText(value))) ?? false
  }
}
