import { Context, Effect } from "effect"
import { cpSync } from "node:fs"
import * as path from "node:path"
import { hedgerowBin, servingUrlOf } from "../targets/server-process.ts"
import { baselineProcess } from "./baseline-process.ts"
import { BenchFailed } from "./bench-failed.ts"
import { flagScenarios, getFlag } from "./flag-scenarios.ts"
import { eventScenarios } from "./event-scenarios.ts"
import { atLeast, atMost, type Goal } from "./goals.ts"
import { fixtureAt, FlagSeeder, HedgerowFixture, type ScenarioServices, type Tenant } from "./hedgerow-target.ts"
import { type LoggedProcess, loggedProcess } from "./logged-process.ts"
import { measure, type Measured, type MeasureOptions } from "./measure.ts"
import { type Prepared, prepare } from "./prepare.ts"
import type { RequestSpec, Scenario } from "./scenario.ts"
import { getProject } from "./scenarios.ts"
import { scratchDataDir } from "./scoped-server.ts"
import { seededStore } from "./seeded-store.ts"

/** Flags in the served project: a default page of the list, and what `/flags` evaluates. */
export const SEEDED_FLAGS = 100

/**
 * The scenarios that run on the served data dir: every one whose project is no larger than the seeded
 * one, since the server holds the store and nothing else may write to it. Flags are made through the
 * API, which only the writes' own scenarios do in numbers.
 */
export const shippedScenarios: ReadonlyArray<Scenario> = [getProject, ...flagScenarios({ listFlags: SEEDED_FLAGS }), ...eventScenarios]

export const shippedGoals = {
  /** The CPU a GET flag spends on its request log line, as a share of the whole request's. */
  logShare: atMost(0.05),
  /** Requests a second over the first seconds after a start, as a share of the warm server's. */
  startShare: atLeast(0.8)
} as const

export interface ShippedOptions extends MeasureOptions {
  /** Seconds of load on a new server from the moment it prints its URL (5). */
  readonly startSeconds: number
  /** Pairs of new servers the request log's share is read over (`LOG_PAIRS`). */
  readonly logPairs: number
}

/** One scenario against `hedgerow serve` and then against the baseline process. */
export interface ShippedScenarioFigures {
  readonly name: string
  readonly method: string
  readonly path: string
  /** The status of Hedgerow's answer, which the baseline answers with too. */
  readonly status: number
  /** Size of Hedgerow's response body, which the baseline answers with too. */
  readonly responseBytes: number
  readonly hedgerow: Measured
  readonly baseline: Measured
  readonly cpuGoal?: Goal | undefined
}

/** The measured runs of each new server once warm, taken in turns with the other server of its pair. */
export const WARM_ROUNDS = 4

/**
 * Pairs of new servers, one logged and one not: two starts of the same build differ by more than the
 * log costs (the code V8 optimizes, where the heap lands), so the log's share is read over several. The
 * logged server goes first in half of them, so that going first or second weighs on both kinds alike.
 */
export const LOG_PAIRS = 6

/** A new server loaded from the moment it printed its URL, then warmed up and measured. */
export interface StartFigures {
  /** The first `startSeconds` of load, with no warm-up. */
  readonly first: Measured
  /**
   * Its runs once warm, each a `WARM_ROUNDS`th of the measured time, taken in turn with the other new
   * server's, so that whatever else the machine does meets both alike.
   */
  readonly warm: ReadonlyArray<Measured>
}

export interface ShippedFigures {
  readonly seededFlags: number
  readonly scenarios: ReadonlyArray<ShippedScenarioFigures>
  /** The scenario new starts and the request log are measured on. */
  readonly probeScenario: string
  readonly startSeconds: number
  /** New starts with the request log at its default, as shipped, one a pair. */
  readonly logged: ReadonlyArray<StartFigures>
  /** The same with the request log off (HEDGEROW_LOG_LEVEL=none): each the other of its pair. */
  readonly unlogged: ReadonlyArray<StartFigures>
}

/** CPU seconds spent over a measured run per request it answered, in µs; undefined where the CPU was not read. */
export const microsPerRequest = (cpuSeconds: number | undefined, measured: Measured) =>
  cpuSeconds === undefined || measured.load.completed === 0 ? undefined : (cpuSeconds / measured.load.completed) * 1_000_000

/** Server CPU per answered request in µs; undefined where the CPU could not be read. */
export const cpuMicrosPerRequest = (measured: Measured) => microsPerRequest(measured.serverCpuSeconds, measured)

/**
 * The least server CPU per answered request of several runs, in µs: the run the rest of the machine
 * disturbed least. Undefined where no run's CPU was read.
 */
export const leastCpuMicros = (runs: ReadonlyArray<Measured>) => {
  const each = runs.flatMap((run) => cpuMicrosPerRequest(run) ?? [])
  return each.length === 0 ? undefined : Math.min(...each)
}

const mean = (values: ReadonlyArray<number>) => values.reduce((sum, value) => sum + value, 0) / values.length

/** The mean over starts of each one's least CPU per request; undefined where a start's CPU was not read. */
export const startsCpuMicros = (starts: ReadonlyArray<StartFigures>) => {
  const each = starts.map((start) => leastCpuMicros(start.warm))
  return each.length === 0 || each.includes(undefined) ? undefined : mean(each as ReadonlyArray<number>)
}

/** Requests a second over runs of equal length. */
export const requestsPerSecondOverRuns = (runs: ReadonlyArray<Measured>) => mean(runs.map((run) => run.load.requestsPerSecond))

/** The mean over starts of each one's rate in its first seconds against its own warm rate. */
export const startShare = (starts: ReadonlyArray<StartFigures>) =>
  mean(starts.map((start) => {
    const warmRate = requestsPerSecondOverRuns(start.warm)
    return warmRate === 0 ? 0 : start.first.load.requestsPerSecond / warmRate
  }))

/** Every load whose requests must all have succeeded. */
export const shippedLoads = (figures: ShippedFigures) => [
  ...figures.scenarios.flatMap((scenario) => [scenario.hedgerow.load, scenario.baseline.load]),
  ...[...figures.logged, ...figures.unlogged].flatMap((start) => [start.first, ...start.warm].map((run) => run.load))
]

const failed = (reason: string) => new BenchFailed({ scenario: "as shipped", reason })

/** The store a served process keeps: a data dir of the embedded store, or a PostgreSQL database. */
export type ServedStore = { readonly dataDir: string } | { readonly databaseUrl: string }

/**
 * `hedgerow serve` as an operator starts it: bin/hedgerow.mjs, which restarts itself in place with its
 * own process settings (same pid, so its CPU can be read throughout), its stdout written to `logFile`.
 * `logLevel` "" leaves the request log at its default.
 */
export const serve = (store: ServedStore, logFile: string, logLevel: "" | "none") =>
  loggedProcess({
    args: [hedgerowBin, "serve"],
    env: {
      ...process.env,
      PORT: "0",
      HOST: "127.0.0.1",
      // A store or log setting of the caller's shell must not change what is measured.
      DATABASE_URL: "databaseUrl" in store ? store.databaseUrl : "",
      HEDGEROW_DATA_DIR: "dataDir" in store ? store.dataDir : "",
      HEDGEROW_LOG_LEVEL: logLevel,
      HEDGEROW_LOG_FORMAT: ""
    },
    logFile,
    urlOf: servingUrlOf
  })

/** The seeded tenant at `url`. The store is seeded before a server starts, so any more is refused. */
export const servedContext = (tenant: Tenant, url: string): Context.Context<ScenarioServices> =>
  Context.make(HedgerowFixture, fixtureAt(tenant, url)).pipe(Context.add(FlagSeeder, FlagSeeder.of({
    seed: (_, from, to) =>
      from >= to ? Effect.void : Effect.fail(new Error(`the served store holds ${from} flags, and nothing but its servers may add the ${to - from} more asked for`))
  })))

/** The scenario's request against the baseline process answering what Hedgerow answered it; its files go to `dir`. */
export const measureBaseline = (scenario: Scenario, { probed, spec }: Prepared, dir: string, name: string, options: MeasureOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const server = yield* baselineProcess(dir, name, probed.body, probed.status)
    return yield* measure(scenario.name, "baseline", [`${server.url}${spec.path}`], spec, options, server.pid)
  }))

const runScenario = (scenario: Scenario, index: number, context: Context.Context<ScenarioServices>, serverPid: number, dir: string, options: MeasureOptions) =>
  Effect.gen(function*() {
    const { baseUrl } = Context.get(context, HedgerowFixture)
    const prepared = yield* prepare(scenario, context)
    const { probed, spec } = prepared
    const hedgerow = yield* measure(scenario.name, "hedgerow", [`${baseUrl}${spec.path}`], spec, options, serverPid)
    const baseline = yield* measureBaseline(scenario, prepared, dir, `baseline-${index}`, options).pipe(
      Effect.catchTag("ServerStartFailed", (error) => Effect.fail(failed(error.message)))
    )
    const figures: ShippedScenarioFigures = {
      name: scenario.name,
      method: spec.method,
      path: spec.path,
      status: probed.status,
      responseBytes: probed.body.byteLength,
      hedgerow,
      baseline,
      cpuGoal: scenario.cpuGoal
    }
    return { figures, spec }
  })

/**
 * Seeds a data dir and serves it with `hedgerow serve`, its request log at the default level going to a
 * file beside the data dir; runs each scenario against it and then against the baseline process. Then
 * `options.logPairs` pairs of new servers, one pair at a time, one as shipped and one with the request log
 * off, each on a copy of the data dir, loaded with GET flag from its first moment, then warmed up and
 * measured in turns, the logged one first in every other pair: the logged ones for a new server's rate
 * against its warm one, both for the log's share of a request's CPU. The directory, logs included, is
 * removed at the end.
 */
export const measureShipped = (options: ShippedOptions, progress: (line: string) => void) =>
  Effect.scoped(Effect.gen(function*() {
    const dir = yield* scratchDataDir
    const dataDir = path.join(dir, "data")
    progress(`seeding ${SEEDED_FLAGS} flags into a new data dir, ${dataDir}; server logs beside it (removed at the end)`)
    const tenant = yield* seededStore({ dataDir }, SEEDED_FLAGS).pipe(Effect.mapError((error) => failed(`seeding: ${String(error)}`)))
    const measureOptions = { ...options, progress }

    progress("starting `hedgerow serve` on it")
    const runs = yield* Effect.scoped(Effect.gen(function*() {
      const server = yield* serve({ dataDir }, path.join(dir, "hedgerow.log"), "").pipe(Effect.mapError((error) => failed(error.message)))
      const context = servedContext(tenant, server.url)
      return yield* Effect.forEach(shippedScenarios, (scenario, i) => runScenario(scenario, i, context, server.pid, dir, measureOptions))
    }))
    const probeSpec: RequestSpec = runs[shippedScenarios.indexOf(getFlag)]!.spec
    const load = (server: LoggedProcess, target: string, loadOptions: MeasureOptions) =>
      measure(getFlag.name, target, [`${server.url}${probeSpec.path}`], probeSpec, loadOptions, server.pid)
    const newServer = (label: string, name: string, logLevel: "" | "none") =>
      Effect.gen(function*() {
        // Each server holds its data dir's lock: each serves a copy, made while no server runs.
        const copy = path.join(dir, `data-${name}`)
        yield* Effect.sync(() => cpSync(dataDir, copy, { recursive: true }))
        progress(`starting \`hedgerow serve\` again, ${label}`)
        const server = yield* serve({ dataDir: copy }, path.join(dir, `hedgerow-${name}.log`), logLevel).pipe(
          Effect.mapError((error) => failed(error.message))
        )
        const first = yield* load(server, `${label}, its first ${options.startSeconds} s`, {
          ...measureOptions,
          warmupSeconds: 0,
          durationSeconds: options.startSeconds
        })
        return { label, server, first }
      })
    const pair = (index: number) =>
      Effect.scoped(Effect.gen(function*() {
        const pairLabel = `pair ${index + 1} of ${options.logPairs}`
        // Index 0 is the logged server and 1 the other; every other pair starts, and measures in each
        // round, the unlogged one first.
        const order = index % 2 === 0 ? [0, 1] : [1, 0]
        const servers: Array<Effect.Success<ReturnType<typeof newServer>>> = []
        for (const i of order) {
          servers[i] = i === 0
            ? yield* newServer(`${pairLabel}, request log at its default`, `logged-${index + 1}`, "")
            : yield* newServer(`${pairLabel}, request log off`, `unlogged-${index + 1}`, "none")
        }
        const warm: [Array<Measured>, Array<Measured>] = [[], []]
        for (let round = 0; round < WARM_ROUNDS; round++) {
          for (const i of order) {
            const { label, server } = servers[i]!
            warm[i]!.push(yield* load(server, `${label}, warm (${round + 1} of ${WARM_ROUNDS})`, {
              ...measureOptions,
              // Each server is warmed up before its first measured run only.
              warmupSeconds: round === 0 ? options.warmupSeconds : 0,
              durationSeconds: options.durationSeconds / WARM_ROUNDS
            }))
          }
        }
        return [{ first: servers[0]!.first, warm: warm[0] }, { first: servers[1]!.first, warm: warm[1] }] as const
      }))
    const pairs = yield* Effect.forEach(Array.from({ length: options.logPairs }, (_, i) => i), pair)

    return {
      seededFlags: SEEDED_FLAGS,
      scenarios: runs.map(({ figures }) => figures),
      probeScenario: getFlag.name,
      startSeconds: options.startSeconds,
      logged: pairs.map(([logged]) => logged),
      unlogged: pairs.map(([, unlogged]) => unlogged)
    } satisfies ShippedFigures
  }))
