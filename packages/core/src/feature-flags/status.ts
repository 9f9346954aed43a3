import type { JsonRecord } from "../shared/fields.ts"
import { DAY_MS } from "../shared/time.ts"
import { conditionsOf, type FlagConditions } from "./conditions.ts"
import { fullRolloutOf } from "./derived.ts"
import type { FlagStatus, FlagStatusName } from "./model.ts"

/**
 * A flag's status, as `GET {id}/status/` answers it and as every answer carries its name: deleted,
 * disabled, stale, or in use.
 */

/** How long an active flag goes uncalled, or fully rolled out, before it counts as stale. */
export const STALE_AFTER_DAYS = 30

/** An active flag's reason before any evaluation has asked for it, in PostHog's words. */
export const NO_USAGE_YET = "Flag has no usage data yet"

/** What the status reads of a flag. */
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
 * The status with PostHog's reason: a flag called recently says when. `conditions`: the flag's filters
 * already read, when the caller has them.
 */
export const statusOf = (
  flag: StatusInput,
  nowMillis: number,
  lastCalledMillis: number | null,
  conditions?: FlagConditions
): FlagStatus => {
  if (flag.deleted) return { status: "deleted", reason: "Flag has been deleted" }
  if (!flag.active) return { status: "inactive", reason: "Flag is disabled" }
  const rollout = fullRolloutOf(conditions ?? conditionsOf(flag.filters))
  if (isStale(flag.created_at, rollout !== null, lastCalledMillis, nowMillis)) {
    return {
      status: "stale",
      reason: lastCalledMillis === null ? rollout! : `Flag has not been called in ${daysSince(lastCalledMillis, nowMillis)} days`
    }
  }
  // Never called and not stale: true whatever the rollout (a flag at 100 % of everyone is not "partly" out).
  if (lastCalledMillis === null) return { status: "active", reason: NO_USAGE_YET }
  const days = daysSince(lastCalledMillis, nowMillis)
  return { status: "active", reason: days <= 0 ? "Flag was called today" : `Flag was last called ${days} day${days === 1 ? "" : "s"} ago` }
}

/** The status's name as the answer's `status` field gives it. */
export const statusNameOf = (
  flag: StatusInput,
  nowMillis: number,
  lastCalledMillis: number | null,
  conditions?: FlagConditions
): FlagStatusName => statusOf(flag, nowMillis, lastCalledMillis, conditions).status.toUpperCase() as FlagStatusName

