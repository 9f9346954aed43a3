import { isTruthy, type JsonRecord } from "../shared/fields.ts"
import { DAY_MS } from "../shared/time.ts"
import { type ConditionGroup, conditionsOf, type FlagConditions, propertiesIn } from "./conditions.ts"
import type { FeatureFlagStatus, FlagStatusName } from "./model.ts"

/** Read-only fields PostHog derives from a flag's conditions: the answer's, the list filters' and the status. */


/** One condition group without properties, aggregated by persons. */
export const isSimpleFlag = (conditions: FlagConditions): boolean =>
  conditions.groups.length === 1 &&
  conditions.groups.every((group) => group.properties.length === 0) &&
  conditions.aggregation_group_type_index === null

/** The one group's rollout, for a simple flag. */
export const rolloutPercentageOf = (conditions: FlagConditions): number | null =>
  isSimpleFlag(conditions) ? conditions.groups[0]?.rollout_percentage ?? null : null

/** The list's `type` filter: `multivariant` is a flag with at least one variant. */
export const isMultivariate = (conditions: FlagConditions): boolean => conditions.variants.length > 0

const groupFullyRolledOut = (group: ConditionGroup) => group.rollout_percentage === 100 && group.properties.length === 0

/**
 * PostHog's status checker, from configuration alone: whether every evaluation gives the same answer.
 * `active` is left out so the answer can be stored; the callers add it.
 */
export const fullRolloutOf = (conditions: FlagConditions): string | null => {
  const openGroups = conditions.groups.filter(groupFullyRolledOut)
  if (conditions.hasMultivariate) {
    const variantKey = conditions.variants.find((variant) => variant.rollout_percentage === 100)?.key
    const override = openGroups.map((group) => group.variant).find(isTruthy)
    const variant = override ?? variantKey
    if (openGroups.length === 0 || variant === undefined) return null
    return `This flag will always use the variant "${String(variant)}"`
  }
  // A flag created without filters is on for everyone (legacy data PostHog still counts); its open
  // group has no rollout percentage, which the groups' check alone would not count.
  if (conditions.withoutFilters || openGroups.length > 0) {
    return "This boolean flag will always evaluate to \"true\""
  }
  return null
}

export const STALE_AFTER_DAYS = 30

export interface StatusInput {
  readonly deleted: boolean
  readonly active: boolean
  readonly filters: JsonRecord
  readonly created_at: string
}

/** Whole days from `millis` to `nowMillis`, as PostHog counts them (a time difference's days). */
const daysSince = (millis: number, nowMillis: number) => Math.floor((nowMillis - millis) / DAY_MS)

/**
 * Whether an active flag is stale, by the best signal there is: its calls when it has been called (not
 * for 30 days), else its configuration (fully rolled out, and created over 30 days ago, long enough to
 * have been called). `lastCalledMillis` is null for a flag never called.
 */
export const isStale = (createdAt: string, fullyRolledOut: boolean, lastCalledMillis: number | null, nowMillis: number): boolean => {
  const threshold = nowMillis - STALE_AFTER_DAYS * DAY_MS
  return lastCalledMillis !== null ? lastCalledMillis < threshold : fullyRolledOut && Date.parse(createdAt) < threshold
}

/**
 * `GET {id}/status/`: deleted, disabled, stale (see isStale), or in use, with PostHog's reasons: a flag
 * called recently says when. `conditions`: the flag's filters already read, when the caller has them.
 */
export const statusOf = (
  flag: StatusInput,
  nowMillis: number,
  lastCalledMillis: number | null,
  conditions?: FlagConditions
): FeatureFlagStatus => {
  if (flag.deleted) return { status: "deleted", reason: "Flag has been deleted" }
  if (!flag.active) return { status: "inactive", reason: "Flag is disabled" }
  const rollout = fullRolloutOf(conditions ?? conditionsOf(flag.filters))
  if (isStale(flag.created_at, rollout !== null, lastCalledMillis, nowMillis)) {
    return {
      status: "stale",
      reason: lastCalledMillis === null ? rollout! : `Flag has not been called in ${daysSince(lastCalledMillis, nowMillis)} days`
    }
  }
  if (lastCalledMillis === null) return { status: "active", reason: "Flag is not fully rolled out and may still be active" }
  const days = daysSince(lastCalledMillis, nowMillis)
  return { status: "active", reason: days <= 0 ? "Flag was called today" : `Flag was last called ${days} day${days === 1 ? "" : "s"} ago` }
}

export const statusNameOf = (
  flag: StatusInput,
  nowMillis: number,
  lastCalledMillis: number | null,
  conditions?: FlagConditions
): FlagStatusName => statusOf(flag, nowMillis, lastCalledMillis, conditions).status.toUpperCase() as FlagStatusName

/** Ids of the flags a flag's conditions depend on (`type: flag` properties whose key is a flag id). */
export const dependenciesOf = (conditions: FlagConditions): ReadonlyArray<number> => [
  ...new Set(propertiesIn(conditions).flatMap((property) => (property.flag_id === null ? [] : [property.flag_id])))
]
