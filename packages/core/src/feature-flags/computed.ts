import { isRecord, type JsonRecord } from "../shared/fields.ts"
import type { FeatureFlagStatus, FlagStatusName } from "./model.ts"

/** Read-only fields PostHog derives from a flag's filters (posthog-behaviour.md §4, §5). */


/** Python's truthiness, which PostHog's checks rely on (`{}` and `[]` are false). */
const isTruthy = (value: unknown): boolean =>
  Array.isArray(value) ? value.length > 0
  : isRecord(value) ? Object.keys(value).length > 0
  : Boolean(value)

const listOf = (value: unknown): ReadonlyArray<unknown> => (Array.isArray(value) ? value : [])

/**
 * PostHog's `get_filters`: stored filters with `groups` as they are, anything else (a flag created
 * without filters keeps `{}`) as one open condition set, for backwards compatibility.
 */
export const effectiveFilters = (filters: JsonRecord): JsonRecord =>
  "groups" in filters
    ? filters
    : { groups: [{ properties: listOf(filters["properties"]), rollout_percentage: null }] }

export const conditionsOf = (filters: JsonRecord): ReadonlyArray<JsonRecord> =>
  listOf(effectiveFilters(filters)["groups"]).filter(isRecord)

const propertiesOf = (group: JsonRecord): ReadonlyArray<unknown> => listOf(group["properties"])

/** One condition set without properties, aggregated by persons. */
export const isSimpleFlag = (filters: JsonRecord): boolean => {
  const conditions = conditionsOf(filters)
  return conditions.length === 1 &&
    conditions.every((group) => propertiesOf(group).length === 0) &&
    (effectiveFilters(filters)["aggregation_group_type_index"] ?? null) === null
}

export const rolloutPercentageOf = (filters: JsonRecord): number | null => {
  if (!isSimpleFlag(filters)) return null
  const value = conditionsOf(filters)[0]!["rollout_percentage"]
  return typeof value === "number" ? value : null
}

export const variantsOf = (filters: JsonRecord): ReadonlyArray<JsonRecord> => {
  const multivariate = filters["multivariate"]
  return isRecord(multivariate) ? listOf(multivariate["variants"]).filter(isRecord) : []
}

/** The list's `type` filter: `multivariant` is a flag with at least one variant. */
export const isMultivariate = (filters: JsonRecord): boolean => variantsOf(filters).length > 0

const groupFullyRolledOut = (group: JsonRecord) =>
  group["rollout_percentage"] === 100 && propertiesOf(group).length === 0

/**
 * PostHog's status checker, from configuration alone: whether every evaluation gives the same answer.
 * `active` is left out so the answer can be stored; the callers add it.
 */
export const fullRolloutOf = (filters: JsonRecord): string | null => {
  const groups = listOf(filters["groups"]).filter(isRecord)
  if (isTruthy(filters["multivariate"])) {
    const variantKey = variantsOf(filters).find((variant) => variant["rollout_percentage"] === 100)?.["key"]
    const openGroups = groups.filter(groupFullyRolledOut)
    const override = openGroups.map((group) => group["variant"]).find(isTruthy)
    const variant = override ?? variantKey
    if (openGroups.length === 0 || variant === undefined || variant === null) return null
    return `This flag will always use the variant "${String(variant)}"`
  }
  // A flag without release conditions is on for everyone (legacy data PostHog still counts).
  if (Object.keys(filters).length === 0 || groups.some(groupFullyRolledOut)) {
    return "This boolean flag will always evaluate to \"true\""
  }
  return null
}

export const STALE_AFTER_DAYS = 30
const DAY_MS = 24 * 60 * 60 * 1000

export interface StatusInput {
  readonly deleted: boolean
  readonly active: boolean
  readonly filters: JsonRecord
  readonly created_at: string
}

/** D5's `/status/`: deleted, disabled, fully rolled out for 30 days, or still in use. */
export const statusOf = (flag: StatusInput, nowMillis: number): FeatureFlagStatus => {
  if (flag.deleted) return { status: "deleted", reason: "Flag has been deleted" }
  if (!flag.active) return { status: "inactive", reason: "Flag is disabled" }
  const rollout = fullRolloutOf(flag.filters)
  if (rollout !== null && Date.parse(flag.created_at) < nowMillis - STALE_AFTER_DAYS * DAY_MS) {
    return { status: "stale", reason: rollout }
  }
  return { status: "active", reason: "Flag is not fully rolled out and may still be active" }
}

export const statusNameOf = (flag: StatusInput, nowMillis: number): FlagStatusName =>
  statusOf(flag, nowMillis).status.toUpperCase() as FlagStatusName

/** Ids of the flags a flag's conditions depend on (`type: flag` properties with an integer key). */
export const dependenciesOf = (filters: JsonRecord): ReadonlyArray<number> => {
  const ids = new Set<number>()
  for (const group of listOf(filters["groups"]).filter(isRecord)) {
    for (const property of propertiesOf(group).filter(isRecord)) {
      if (property["type"] !== "flag") continue
      const id = integerOf(property["key"])
      if (id !== undefined) ids.add(id)
    }
  }
  return [...ids]
}

/** Python's `safe_int`: an int, or text that is one. */
export const integerOf = (value: unknown): number | undefined => {
  if (typeof value === "number") return Number.isSafeInteger(value) ? value : undefined
  if (typeof value === "string" && /^\s*[+-]?\d+\s*$/.test(value)) {
    const parsed = Number(value)
    return Number.isSafeInteger(parsed) ? parsed : undefined
  }
  return undefined
}
