import { type Check, check, checkTable, columns, integer, microseconds, milliseconds, percent, ratio } from "./checks.ts"
import type { Goal } from "./goals.ts"
import type { Measured } from "./measure.ts"
import { cpuMicrosPerRequest, type ShippedFigures, shippedGoals, type ShippedScenarioFigures } from "./shipped.ts"

const NOT_READ = "n/a"

const cpuCell = (measured: Measured) => {
  const micros = cpuMicrosPerRequest(measured)
  return micros === undefined ? NOT_READ : integer(micros)
}

const row = (target: string, measured: Measured) => [
  target,
  cpuCell(measured),
  integer(measured.load.requestsPerSecond),
  milliseconds(measured.load.p50Ms),
  milliseconds(measured.load.p99Ms),
  integer(measured.load.non2xx),
  integer(measured.load.errors)
]

/** A figure of CPU per request, judged against its goal where the CPU could be read. */
const cpuCheck = (figure: string, measured: Measured, goal: Goal | undefined): Check => {
  const micros = cpuMicrosPerRequest(measured)
  return micros === undefined ? { figure, value: NOT_READ, target: undefined } : check(figure, micros, microseconds, goal)
}

const scenarioBlock = (scenario: ShippedScenarioFigures) => {
  const hedgerowCpu = cpuMicrosPerRequest(scenario.hedgerow)
  const baselineCpu = cpuMicrosPerRequest(scenario.baseline)
  return [
    "",
    `${scenario.name}: ${scenario.method} ${scenario.path} (${integer(scenario.responseBytes)}-byte response body)`,
    ...columns([
      ["target", "CPU µs/req", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"],
      row("hedgerow serve", scenario.hedgerow),
      row("baseline", scenario.baseline),
      [
        "hedgerow/baseline",
        hedgerowCpu === undefined || baselineCpu === undefined ? NOT_READ : ratio(hedgerowCpu, baselineCpu),
        ratio(scenario.hedgerow.load.requestsPerSecond, scenario.baseline.load.requestsPerSecond),
        ratio(scenario.hedgerow.load.p50Ms, scenario.baseline.load.p50Ms),
        ratio(scenario.hedgerow.load.p99Ms, scenario.baseline.load.p99Ms),
        "",
        ""
      ]
    ])
  ]
}

/**
 * Server CPU per request of each scenario with a goal, then the request log's share of the probe's CPU
 * and a new server's rate against its own warm rate.
 */
export const shippedChecks = (figures: ShippedFigures): ReadonlyArray<Check> => {
  const { logged, unlogged } = figures
  const probe = figures.probeScenario
  const loggedCpu = cpuMicrosPerRequest(logged.warm)
  const unloggedCpu = cpuMicrosPerRequest(unlogged.warm)
  const logShare = `as shipped: ${probe}, the request log's share of its CPU`
  return [
    ...figures.scenarios.filter((scenario) => scenario.cpuGoal !== undefined)
      .map((scenario) => cpuCheck(`as shipped: ${scenario.name}, server CPU per request`, scenario.hedgerow, scenario.cpuGoal)),
    loggedCpu === undefined || unloggedCpu === undefined
      ? { figure: logShare, value: NOT_READ, target: undefined }
      : check(logShare, (loggedCpu - unloggedCpu) / loggedCpu, percent, shippedGoals.logShare),
    check(
      `as shipped: ${probe}, req/s over the first ${figures.startSeconds} s after a start / warm`,
      logged.warm.load.requestsPerSecond === 0 ? 0 : logged.first.load.requestsPerSecond / logged.warm.load.requestsPerSecond,
      percent,
      shippedGoals.startShare
    )
  ]
}

export const shippedBlock = (figures: ShippedFigures) => [
  "",
  "=== Hedgerow as shipped: `hedgerow serve` on a data dir ===",
  `\`hedgerow serve\` in a process of its own (bin/hedgerow.mjs, with the process settings it gives itself) on the embedded`,
  `store in a temporary data dir seeded with ${integer(figures.seededFlags)} flags, its request log at the default level written to a`,
  "file. The baseline is a bare node:http process on the same Node answering the same status and bytes. CPU µs/req is the",
  "server process's user and system time over the measured run (/proc/<pid>/stat) divided by the requests it answered.",
  ...figures.scenarios.flatMap(scenarioBlock),
  "",
  `${figures.probeScenario} on two more starts of the server on the same data dir, as shipped and with HEDGEROW_LOG_LEVEL=none:`,
  `each loaded for ${figures.startSeconds} s from the moment it printed its URL, then warmed up and measured as above.`,
  ...columns([
    ["target", "CPU µs/req", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"],
    row(`first ${figures.startSeconds} s after a start`, figures.logged.first),
    row("warm", figures.logged.warm),
    row(`request log off, first ${figures.startSeconds} s`, figures.unlogged.first),
    row("request log off, warm", figures.unlogged.warm)
  ]),
  "",
  ...checkTable(shippedChecks(figures))
]
