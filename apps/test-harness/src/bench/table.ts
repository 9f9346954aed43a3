import type { LoadFigures } from "./load.ts"
import type { BenchFigures, ScenarioFigures } from "./run-bench.ts"

const integer = (n: number) => n.toLocaleString("en-US", { maximumFractionDigits: 0 })
const milliseconds = (n: number) => n.toFixed(2)
const mebibytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`

const ratio = (hedgerow: number, baseline: number) => {
  if (baseline === 0) return "n/a"
  const r = hedgerow / baseline
  return `${r >= 10 ? r.toFixed(1) : r >= 1 ? r.toFixed(2) : r.toFixed(3)}x`
}

/** First column left-aligned, the rest right-aligned, two spaces between columns. */
const columns = (rows: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)))
  return rows.map((row) =>
    row.map((cell, i) => i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!)).join("  ").trimEnd()
  )
}

const targetRow = (target: string, figures: LoadFigures) => [
  target,
  integer(figures.requestsPerSecond),
  milliseconds(figures.p50Ms),
  milliseconds(figures.p99Ms),
  integer(figures.non2xx),
  integer(figures.errors)
]

const scenarioBlock = (scenario: ScenarioFigures) => {
  const { hedgerow, baseline } = scenario
  return [
    `${scenario.name}: ${scenario.method} ${scenario.path} (${integer(scenario.responseBytes)}-byte response body)`,
    ...columns([
      ["target", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"],
      targetRow("hedgerow", hedgerow),
      targetRow("baseline", baseline),
      [
        "hedgerow/baseline",
        ratio(hedgerow.requestsPerSecond, baseline.requestsPerSecond),
        ratio(hedgerow.p50Ms, baseline.p50Ms),
        ratio(hedgerow.p99Ms, baseline.p99Ms),
        "",
        ""
      ]
    ]),
    `Process memory after the Hedgerow run: RSS ${mebibytes(scenario.memoryAfterHedgerow.rssBytes)}, ` +
    `heap used ${mebibytes(scenario.memoryAfterHedgerow.heapUsedBytes)}`
  ]
}

/** The report `npm run bench` prints: a header, then one block per scenario. */
export const formatBench = (figures: BenchFigures) =>
  [
    `Hedgerow against a bare node:http server sending a body of the same size, on loopback (Node ${process.version}).`,
    `${figures.connections} connections, ${figures.durationSeconds} s measured per target` +
    (figures.warmupSeconds > 0 ? ` after ${figures.warmupSeconds} s of warm-up.` : ", no warm-up."),
    ...figures.scenarios.flatMap((scenario) => ["", ...scenarioBlock(scenario)])
  ].join("\n")
