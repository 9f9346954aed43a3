import { type Check, check, checkTable, columns, integer, microseconds, milliseconds, percent, ratio } from "./checks.ts"
import type { Goal } from "./goals.ts"
import type { Measured } from "./measure.ts"
import {
  cpuMicrosPerRequest,
  type ShippedFigures,
  shippedGoals,
  type ShippedScenarioFigures,
  startsCpuMicros,
  startShare
} from "./shipped.ts"

const NOT_READ = "n/a"

/** CPU per request in µs, or n/a where it was not read. */
export const microsCell = (micros: number | undefined) => micros === undefined ? NOT_READ : integer(micros)

/** The heads of `row`'s cells. */
export const ROW_HEADS = ["target", "CPU µs/req", "req/s", "p50 ms", "p99 ms", "non-2xx", "errors"]

/** A target's cells: CPU per request, req/s, p50, p99 and the failed requests. */
export const row = (target: string, measured: Measured) => [
  target,
  microsCell(cpuMicrosPerRequest(measured)),
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

/** The row of a target's figures over the baseline's, in the cells of `row`. */
export const ratioRow = (label: string, measured: Measured, baseline: Measured) => {
  const cpu = cpuMicrosPerRequest(measured)
  const baselineCpu = cpuMicrosPerRequest(baseline)
  return [
    label,
    cpu === undefined || baselineCpu === undefined ? NOT_READ : ratio(cpu, baselineCpu),
    ratio(measured.load.requestsPerSecond, baseline.load.requestsPerSecond),
    ratio(measured.load.p50Ms, baseline.load.p50Ms),
    ratio(measured.load.p99Ms, baseline.load.p99Ms),
    "",
    ""
  ]
}

/** A scenario's heading: its request and the size of the body the baseline answers with too. */
export const scenarioHeading = (scenario: Pick<ShippedScenarioFigures, "name" | "method" | "path" | "responseBytes">) =>
  `${scenario.name}: ${scenario.method} ${scenario.path} (${integer(scenario.responseBytes)}-byte response body)`

const scenarioBlock = (scenario: ShippedScenarioFigures) => [
  "",
  scenarioHeading(scenario),
  ...columns([
    ROW_HEADS,
    row("hedgerow serve", scenario.hedgerow),
    row("baseline", scenario.baseline),
    ratioRow("hedgerow/baseline", scenario.hedgerow, scenario.baseline)
  ])
]

/**
 * Server CPU per request of each scenario with a goal, then the request log's share of the probe's CPU
 * and a new server's rate against its own warm rate.
 */
export const shippedChecks = (figures: ShippedFigures): ReadonlyArray<Check> => {
  const probe = figures.probeScenario
  const loggedCpu = startsCpuMicros(figures.logged)
  const unloggedCpu = startsCpuMicros(figures.unlogged)
  const logShare = `as shipped: ${probe}, the request log's share of its CPU`
  return [
    ...figures.scenarios.filter((scenario) => scenario.cpuGoal !== undefined)
      .map((scenario) => cpuCheck(`as shipped: ${scenario.name}, server CPU per request`, scenario.hedgerow, scenario.cpuGoal)),
    loggedCpu === undefined || unloggedCpu === undefined
      ? { figure: logShare, value: NOT_READ, target: undefined }
      : check(logShare, (loggedCpu - unloggedCpu) / loggedCpu, percent, shippedGoals.logShare),
    check(
      `as shipped: ${probe}, req/s over the first ${figures.startSeconds} s after a start / warm`,
      startShare(figures.logged),
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
  `${figures.probeScenario} on ${figures.logged.length} pairs of new servers, one pair at a time: one as shipped and one with`,
  `HEDGEROW_LOG_LEVEL=none, each on a copy of the data dir, loaded for ${figures.startSeconds} s from the moment it printed its URL,`,
  "then warmed up and measured in turns, the measured time split into runs taken one server after the other (the logged",
  "one first in every other pair, started first there too). The log's share compares the mean over each kind of server",
  "of its least CPU per request (the run the machine disturbed least); a new start's rate is against its own warm runs,",
  "the mean over the logged servers.",
  ...columns([
    ROW_HEADS,
    ...figures.logged.flatMap((logged, pair) => {
      const unlogged = figures.unlogged[pair]!
      const name = `pair ${pair + 1}`
      return [
        row(`${name}: first ${figures.startSeconds} s after a start`, logged.first),
        row(`${name}, log off: first ${figures.startSeconds} s`, unlogged.first),
        ...logged.warm.flatMap((run, i) => [
          row(`${name}: warm, run ${i + 1}`, run),
          row(`${name}, log off: warm, run ${i + 1}`, unlogged.warm[i]!)
        ])
      ]
    })
  ]),
  "",
  ...checkTable(shippedChecks(figures))
]
