import { describeGoal, type Goal, isMet } from "./goals.ts"

export const integer = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
export const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`
export const wholeMilliseconds = (ms: number) => `${integer(ms)} ms`
export const percent = (fraction: number) => `${Number((fraction * 100).toFixed(1))} %`
export const times = (fraction: number) => `${fraction.toFixed(2)}x`
export const milliseconds = (n: number) => n.toFixed(2)
export const microseconds = (n: number) => `${integer(n)} µs`
/** One decimal, thousands separated. */
export const tenths = (n: number) => n.toLocaleString("en-US", { minimumFractionDigits: 1, maximumFractionDigits: 1 })
/** µs to a tenth, for figures of tens of µs judged against a bound of a few tens. */
export const finerMicroseconds = (n: number) => `${tenths(n)} µs`

/** Hedgerow's figure over the baseline's, with fewer decimals the larger it is. */
export const ratio = (hedgerow: number, baseline: number) => {
  if (baseline === 0) return "n/a"
  const r = hedgerow / baseline
  return `${r >= 10 ? r.toFixed(1) : r >= 1 ? r.toFixed(2) : r.toFixed(3)}x`
}

/** First column left-aligned, the rest right-aligned, two spaces between columns. */
export const columns = (rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows.map((row) =>
    row.map((cell, i) => i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)).join("  ").trimEnd()
  )
}

/** A figure as the report prints it, with its target and whether it is met when it has one. */
export interface Check {
  readonly figure: string
  readonly value: string
  readonly target?: { readonly text: string; readonly met: boolean } | undefined
}

export const check = (figure: string, value: number, format: (n: number) => string, goal?: Goal): Check => ({
  figure,
  value: format(value),
  target: goal === undefined ? undefined : { text: describeGoal(goal, format), met: isMet(goal, value) }
})

export const verdict = (met: boolean) => met ? "yes" : "NO"

/** A table of figures, each with its target (blank where it has none) and whether it is met. */
export const checkTable = (checks: ReadonlyArray<Check>) =>
  columns([
    ["figure", "value", "target", "met"],
    ...checks.map((c) => [c.figure, c.value, c.target?.text ?? "", c.target === undefined ? "" : verdict(c.target.met)])
  ])
