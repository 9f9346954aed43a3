import { type Check, check, checkTable, integer, mebibytes, times, wholeMilliseconds } from "./checks.ts"
import { type FuzzFigures, serverErrors } from "./fuzzed-writes.ts"
import { serverMemoryGoals, type ServerMemoryFigures } from "./server-memory.ts"
import { startAndCliGoals, type StartAndCliFigures } from "./start-and-cli.ts"

export const startAndCliChecks = (figures: StartAndCliFigures): ReadonlyArray<Check> => [
  check("`hedgerow serve`, empty data dir, to its first 200", figures.firstStartMs, wholeMilliseconds),
  check("`hedgerow serve`, existing data dir, to its first 200", figures.startMs, wholeMilliseconds, startAndCliGoals.startMs),
  check("`hedgerow --version`", figures.versionMs, wholeMilliseconds, startAndCliGoals.versionMs),
  check("`hedgerow --help`", figures.helpMs, wholeMilliseconds, startAndCliGoals.helpMs),
  check(`\`hedgerow flags list\`, ${integer(figures.listedFlags)} flags`, figures.flagsListMs, wholeMilliseconds, startAndCliGoals.flagsListMs)
]

export const startAndCliBlock = (figures: StartAndCliFigures) => [
  "",
  "=== Start and command line ===",
  "Child processes on this Node of the built CLI (apps/cli/bin/hedgerow.mjs, which runs the bundle in dist/bundle), the embedded",
  "store in a temporary data dir. Starts are timed from spawning to the first 200 of GET flags; each command",
  `is the median of ${figures.runs} runs, from spawning to its exit.`,
  "",
  ...checkTable(startAndCliChecks(figures))
]

export const serverMemoryChecks = (figures: ServerMemoryFigures): ReadonlyArray<Check> => [
  check(
    figures.warmupSeconds > 0 ? `RSS after ${figures.warmupSeconds} s of warm-up load` : "RSS after the start, no warm-up",
    figures.afterWarmupBytes,
    mebibytes
  ),
  check("RSS, steady load, first reading", figures.steadyStartBytes, mebibytes),
  check("RSS, steady load, last reading", figures.steadyEndBytes, mebibytes, serverMemoryGoals.steadyEndBytes),
  check("RSS, steady load, last/first reading", figures.steadyEndBytes / figures.steadyStartBytes, times, serverMemoryGoals.steadyGrowth),
  check("RSS, steady load, highest reading", figures.steadyPeakBytes, mebibytes),
  check("RSS before the fuzzed writes", figures.beforeFuzzBytes, mebibytes),
  check("RSS right after the fuzzed writes", figures.afterFuzzBytes, mebibytes, serverMemoryGoals.afterFuzzBytes),
  check(`RSS ${figures.settleSeconds} s after the fuzzed writes`, figures.settledBytes, mebibytes, serverMemoryGoals.settledBytes)
]

const statuses = (statusCodes: Readonly<Record<string, number>>) =>
  Object.entries(statusCodes).map(([code, count]) => `${integer(count)}x ${code}`).join(", ") || "none"

const fuzzLine = (fuzz: FuzzFigures) =>
  `Fuzzed writes: ${integer(fuzz.writes)} POSTs and PATCHes (${integer(fuzz.valid)} valid as built), answered ${statuses(fuzz.statusCodes)}; ` +
  `${integer(serverErrors(fuzz))} with a 5xx, ${integer(fuzz.errors)} without an answer.` +
  (fuzz.errorSamples.length > 0 ? ` First errors: ${fuzz.errorSamples.join("; ")}` : "")

export const serverMemoryBlock = (figures: ServerMemoryFigures) => {
  const { steady } = figures
  return [
    "",
    "=== Memory of one `hedgerow serve` ===",
    `The embedded store in a temporary data dir seeded with ${integer(figures.seededFlags)} flags; resident memory (RSS) of the server process.`,
    `Steady load: ${figures.connections} connections for ${figures.steadySeconds} s, each repeating ${figures.mix.join(", ")}:`,
    `${integer(steady.completed)} requests, ${integer(steady.requestsPerSecond)} req/s, ` +
    `p50 ${steady.p50Ms.toFixed(2)} ms, p99 ${steady.p99Ms.toFixed(2)} ms, ${integer(steady.non2xx)} non-2xx, ${integer(steady.errors)} errors.`,
    fuzzLine(figures.fuzz),
    "",
    ...checkTable(serverMemoryChecks(figures))
  ]
}
