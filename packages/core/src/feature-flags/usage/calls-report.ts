import { Schema } from "effect"
import { ValidationError } from "../../shared/errors.ts"
import { DAY_MS, utcDayOf } from "../../shared/time.ts"
import type { FlagCallCount } from "./calls-repository.ts"

/**
 * `GET {id}/usage/`: a flag's calls as PostHog's usage dashboard charts them, a trend of
 * `$feature_flag_called` by day broken down by `$feature_flag_response`. `days` are every UTC day of the
 * range; each result is one value the flag returned, with its count on each day (`data`, aligned with
 * `days`) and in all; the values most called first.
 */
export const FlagUsageSeries = Schema.Struct({
  breakdown_value: Schema.String,
  label: Schema.String,
  count: Schema.Int,
  data: Schema.Array(Schema.Int)
})

export const FlagUsageReport = Schema.Struct({
  flag_id: Schema.Int,
  flag_key: Schema.String,
  date_from: Schema.String,
  date_to: Schema.String,
  days: Schema.Array(Schema.String),
  total: Schema.Int,
  results: Schema.Array(FlagUsageSeries)
})
export type FlagUsageReport = typeof FlagUsageReport.Type

/** `date_from` (default `-30d`, PostHog's usage dashboard range) and `date_to` (default today). */
export const FlagUsageQueryFields = {
  date_from: Schema.optionalKey(Schema.String),
  date_to: Schema.optionalKey(Schema.String)
}
export interface FlagUsageQuery {
  readonly date_from?: string | undefined
  readonly date_to?: string | undefined
}

/** The most days one report covers. */
export const MAX_USAGE_DAYS = 366

const RELATIVE = /^-(\d{1,4})([dwm])$/
const ABSOLUTE = /^(\d{4})-(\d{2})-(\d{2})$/

/** A day as PostHog's date filters write one: `-7d`, `-2w`, `-1m` before today, or `YYYY-MM-DD`; undefined for other text. */
const dayOf = (text: string, todayMillis: number): number | undefined => {
  const relative = RELATIVE.exec(text.trim())
  if (relative !== null) {
    const count = Number(relative[1])
    if (relative[2] === "m") {
      const today = new Date(todayMillis)
      return Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - count, today.getUTCDate())
    }
    return todayMillis - count * (relative[2] === "w" ? 7 : 1) * DAY_MS
  }
  const absolute = ABSOLUTE.exec(text.trim())
  if (absolute === null) return undefined
  const millis = Date.UTC(Number(absolute[1]), Number(absolute[2]) - 1, Number(absolute[3]))
  return utcDayOf(millis) === text.trim() ? millis : undefined
}

const invalidDate = (attr: string) =>
  ValidationError.field(attr, "Enter a date as YYYY-MM-DD or a relative one such as -30d, -4w or -1m.")

/** The range a query asks for, as UTC days; or the 400 naming the parameter that is not a date. */
export const usageRange = (query: FlagUsageQuery, nowMillis: number): { readonly from: string; readonly to: string } | ValidationError => {
  const today = Date.parse(utcDayOf(nowMillis))
  const from = dayOf(query.date_from ?? "-30d", today)
  if (from === undefined) return invalidDate("date_from")
  const to = query.date_to === undefined || query.date_to === "" ? today : dayOf(query.date_to, today)
  if (to === undefined) return invalidDate("date_to")
  if (from > to) return ValidationError.field("date_from", "date_from must not be after date_to.")
  if ((to - from) / DAY_MS + 1 > MAX_USAGE_DAYS) {
    // The parameter the caller gave: a `date_to` far off stretches the default range as much as a `date_from`.
    const attr = query.date_from === undefined ? "date_to" : "date_from"
    return ValidationError.field(attr, `The range may cover at most ${MAX_USAGE_DAYS} days.`)
  }
  return { from: utcDayOf(from), to: utcDayOf(to) }
}

/** The report of a flag's counts over a range. */
export const usageReport = (
  flag: { readonly id: number; readonly key: string },
  range: { readonly from: string; readonly to: string },
  counts: ReadonlyArray<FlagCallCount>
): FlagUsageReport => {
  const days: Array<string> = []
  for (let day = Date.parse(range.from); day <= Date.parse(range.to); day += DAY_MS) days.push(utcDayOf(day))
  const position = new Map(days.map((day, i) => [day, i]))
  const byValue = new Map<string, Array<number>>()
  for (const { day, value, count } of counts) {
    const at = position.get(day)
    if (at === undefined) continue
    let data = byValue.get(value)
    if (data === undefined) byValue.set(value, data = days.map(() => 0))
    data[at]! += count
  }
  const results = [...byValue].map(([value, data]) => ({
    breakdown_value: value,
    label: value,
    count: data.reduce((sum, n) => sum + n, 0),
    data
  })).sort((a, b) => b.count - a.count || (a.breakdown_value < b.breakdown_value ? -1 : 1))
  return {
    flag_id: flag.id,
    flag_key: flag.key,
    date_from: range.from,
    date_to: range.to,
    days,
    total: results.reduce((sum, series) => sum + series.count, 0),
    results
  }
}
