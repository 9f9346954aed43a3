import * as Effect from "effect/Effect"
import { Flag } from "effect/cli"
import { emit, table } from "../output.ts"
import { given } from "../request-body.ts"
import { flag } from "./flags-resource.ts"

interface Report {
  readonly flag_key: string
  readonly date_from: string
  readonly date_to: string
  readonly days: ReadonlyArray<string>
  readonly total: number
  readonly results: ReadonlyArray<{ readonly breakdown_value: string; readonly count: number; readonly data: ReadonlyArray<number> }>
}

/** One row per day with calls, one column per value returned (the most called first), and the total. */
const render = (report: Report): string => {
  const range = `from ${report.date_from} to ${report.date_to}`
  if (report.total === 0) return `No calls of ${report.flag_key} ${range}`
  const values = report.results.map((series) => series.breakdown_value)
  const rows = report.days.flatMap((day, i) => {
    const counts = report.results.map((series) => series.data[i] ?? 0)
    const total = counts.reduce((sum, n) => sum + n, 0)
    return total === 0 ? [] : [{ day, ...Object.fromEntries(values.map((value, j) => [value, counts[j]])), total }]
  })
  return `${table(rows, ["day", ...values, "total"])}\n${report.total} call${report.total === 1 ? "" : "s"} of ${report.flag_key} ${range}`
}

/** How often the SDKs reported the flag called, per day and value returned. */
export const usage = flag.onItem("usage", {
  description:
    "The flag's calls as the SDKs report them ($feature_flag_called), per UTC day and value returned: a table, or the report with --json",
  flags: {
    dateFrom: Flag.String("date-from").pipe(Flag.withDescription("First day: YYYY-MM-DD, or before today as --date-from=-30d, -4w or -1m (default -30d)"), Flag.optional),
    dateTo: Flag.String("date-to").pipe(Flag.withDescription("Last day, the same way (default today)"), Flag.optional)
  },
  run: ({ client, at, id, values, json }) =>
    client.flagUsage.usage({
      params: { ...at, id },
      query: given({ date_from: values.dateFrom, date_to: values.dateTo })
    }).pipe(Effect.flatMap(emit(json, render)))
})
