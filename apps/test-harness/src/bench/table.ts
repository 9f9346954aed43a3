import { type Check, check, checkTable, columns, integer, mebibytes, milliseconds, percent, ratio } from "./checks.ts"
import { embeddingBlock, embeddingChecks } from "./embedding-table.ts"
import type { LoadFigures } from "./load.ts"
import { paceLines } from "./machine-pace.ts"
import type { ProcessMemory } from "./memory.ts"
import type { BenchFigures, RunFigures, ScenarioFigures } from "./run-bench.ts"
import { serverMemoryBlock, serverMemoryChecks, startAndCliBlock, startAndCliChecks } from "./section-tables.ts"
import { shippedBlock, shippedChecks } from "./shipped-table.ts"
import { shippedOnPostgresBlock } from "./shipped-postgres-table.ts"

const targetRow = (target: string, figures: LoadFigures) => [
  target,
  integer(figures.requestsPerSecond),
  milliseconds(figures.p50Ms),
  milliseconds(figures.p99Ms),
  integer(figures.non2xx),
  integer(figures.errors)
]

/** The bench process's RSS and heap when Hedgerow runs in it; of a server process only its resident set shows. */
const memoryLine = (memory: ReadonlyArray<ProcessMemory>) => {
  const [only] = memory
  if (memory.length === 1 && only!.heapUsedBytes !== undefined) {
    return `Process memory after the Hedgerow run: RSS ${mebibytes(only!.rssBytes)}, heap used ${mebibytes(only!.heapUsedBytes)}`
  }
  return `Server process memory after the Hedgerow run (resident): ` +
    memory.map((process) => `${process.label} ${mebibytes(process.rssBytes)}`).join(", ")
}

/** Hedgerow's req/s as a share of the baseline's, against the scenario's target if it has one. */
const throughputCheck = (scenario: ScenarioFigures): Check | undefined =>
  scenario.throughputGoal === undefined
    ? undefined
    : check(
      "hedgerow/baseline req/s",
      scenario.baseline.requestsPerSecond === 0 ? 0 : scenario.hedgerow.requestsPerSecond / scenario.baseline.requestsPerSecond,
      percent,
      scenario.throughputGoal
    )

/** The scenario's target under its table, if it has one. */
const targetLine = (scenario: ScenarioFigures) => {
  const c = throughputCheck(scenario)
  return c?.target === undefined ? [] : [`Target: ${c.figure} ${c.target.text}; it is ${c.value}: ${c.target.met ? "met" : "NOT met"}.`]
}

const scenarioBlock = (scenario: ScenarioFigures) => {
  const { hedgerow, baseline, httpApiAlone } = scenario
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
      ],
      ...(httpApiAlone === undefined ? [] : [
        targetRow("HttpApi alone", httpApiAlone),
        ["HttpApi alone/baseline", ratio(httpApiAlone.requestsPerSecond, baseline.requestsPerSecond), "", "", "", ""]
      ])
    ]),
    ...targetLine(scenario),
    ...(scenario.hedgerowPerServer.length > 1
      ? [`Hedgerow requests completed per server process: ${scenario.hedgerowPerServer.map(integer).join(" / ")}`]
      : []),
    memoryLine(scenario.memoryAfterHedgerow)
  ]
}

/** Every figure that has a target, each named by where it comes from. */
const targetedChecks = (figures: BenchFigures): ReadonlyArray<Check> => [
  ...(figures.shipped === undefined ? [] : shippedChecks(figures.shipped)),
  ...(figures.embedding === undefined ? [] : embeddingChecks(figures.embedding)),
  ...figures.runs.flatMap((run) =>
    run.scenarios.flatMap((scenario) => {
      const c = throughputCheck(scenario)
      const where = figures.runs.length > 1 ? `${run.label}: ${scenario.name}` : scenario.name
      return c === undefined ? [] : [{ ...c, figure: `${where}, ${c.figure}` }]
    })
  ),
  ...(figures.startAndCli === undefined ? [] : startAndCliChecks(figures.startAndCli)),
  ...(figures.serverMemory === undefined ? [] : serverMemoryChecks(figures.serverMemory))
].filter((c) => c.target !== undefined)

const targetsBlock = (figures: BenchFigures) => {
  const checks = targetedChecks(figures)
  if (checks.length === 0) return []
  const met = checks.filter((c) => c.target!.met).length
  return [
    "",
    "=== Targets ===",
    ...checkTable(checks),
    `${met} of ${checks.length} targets met.`,
    ...paceLines(figures.shipped, figures.embedding)
  ]
}

const runBlock = (run: RunFigures) => [
  "",
  `=== ${run.label} ===`,
  ...(run.serverProcesses > 1
    ? ["Load spread over the servers: connections dealt out in turn; req/s is their sum, p50/p99 come from all responses together."]
    : []),
  ...run.scenarios.flatMap((scenario) => ["", ...scenarioBlock(scenario)])
]

/**
 * The report `npm run bench` prints: a header; Hedgerow as shipped, a block per scenario and its checks;
 * Hedgerow embedded, its reads beside posthog-node's; for the scenarios a labelled table per run with a block per scenario; a table per further section;
 * then every figure that has a target, with whether it is met.
 */
export const formatBench = (figures: BenchFigures) => {
  const serverProcesses = figures.runs.some((run) => run.serverProcesses > 0)
  const machine = `Node ${process.version}, ${figures.cpus} CPU${figures.cpus === 1 ? "" : "s"}`
  return [
    figures.runs.length === 0
      ? `Hedgerow on ${machine}.`
      : `Hedgerow against a bare node:http server sending a body of the same size, on loopback (${machine}).`,
    ...(figures.shipped === undefined && figures.postgres === undefined && figures.runs.length === 0 ? [] : [
      `${figures.connections} connections, ${figures.durationSeconds} s measured per target` +
      (figures.warmupSeconds > 0 ? ` after ${figures.warmupSeconds} s of warm-up.` : ", no warm-up.")
    ]),
    ...(serverProcesses
      ? [
        `The load generator (a thread of the bench process), the server processes and PostgreSQL (if on this machine)`,
        `all share these ${figures.cpus} CPUs: a second server process only adds capacity where a core would otherwise idle.`,
        `The baseline is one node:http server in the bench process, in every run.`
      ]
      : []),
    ...(figures.shipped === undefined ? [] : shippedBlock(figures.shipped)),
    ...(figures.postgres === undefined ? [] : shippedOnPostgresBlock(figures.postgres)),
    ...(figures.embedding === undefined ? [] : embeddingBlock(figures.embedding)),
    ...figures.runs.flatMap(runBlock),
    ...(figures.startAndCli === undefined ? [] : startAndCliBlock(figures.startAndCli)),
    ...(figures.serverMemory === undefined ? [] : serverMemoryBlock(figures.serverMemory)),
    ...targetsBlock(figures)
  ].join("\n")
}
