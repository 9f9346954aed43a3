import { Effect, type Scope } from "effect"
import { availableParallelism } from "node:os"
import { baselineServer } from "./baseline-server.ts"
import { BenchFailed } from "./bench-failed.ts"
import { serverErrors } from "./fuzzed-writes.ts"
import { defaultEmbeddingOptions, type EmbeddingFigures, type EmbeddingOptions, measureEmbedding } from "./embedding.ts"
import type { Goal } from "./goals.ts"
import { type HedgerowTarget, inProcess, type TargetPlan } from "./hedgerow-target.ts"
import { httpApiFloorServer } from "./http-api-floor.ts"
import { failures, type LoadFigures } from "./load.ts"
import { measure } from "./measure.ts"
import type { ProcessMemory } from "./memory.ts"
import { onPostgres } from "./postgres-target.ts"
import { prepare } from "./prepare.ts"
import type { Scenario } from "./scenario.ts"
import { scenarios as defaultScenarios } from "./scenarios.ts"
import { measureServerMemory, type ServerMemoryFigures, type ServerMemoryOptions } from "./server-memory.ts"
import { LOG_PAIRS, measureShipped, type ShippedFigures, shippedLoads } from "./shipped.ts"
import { measureShippedOnPostgres, type PostgresFigures, postgresLoads, type PostgresSkipped } from "./shipped-postgres.ts"
import { measureStartAndCli, type StartAndCliFigures } from "./start-and-cli.ts"

/** The parts of a run, in the order they run; `--only` picks some. */
export const SECTIONS = ["shipped", "postgres", "embedding", "scenarios", "cli", "memory"] as const
export type Section = typeof SECTIONS[number]

/**
 * What runs when `--only` is not given: all but the in-process scenarios, which would make the run
 * too long for rows that are not Hedgerow as shipped; with a PostgreSQL server to run them on, all.
 */
export const defaultSections = (options: Pick<BenchOptions, "databaseUrl">): ReadonlyArray<Section> =>
  options.databaseUrl === undefined ? SECTIONS.filter((section) => section !== "scenarios") : SECTIONS

export interface BenchOptions {
  /** What to run; `defaultSections(options)` when absent. */
  readonly sections?: ReadonlyArray<Section> | undefined
  /** Seconds of measured load per target. */
  readonly durationSeconds: number
  readonly connections: number
  /** Seconds of unreported load before each measured run, so JIT and pools are warm; 0 skips it. */
  readonly warmupSeconds: number
  /** Seconds of load on a new server of the shipped section, from the moment it prints its URL. */
  readonly startSeconds?: number | undefined
  /** Pairs of new servers, logged and not, of the shipped section (`LOG_PAIRS`). */
  readonly logPairs?: number | undefined
  /**
   * A PostgreSQL server to run on instead of the in-process embedded store: a fresh database there,
   * served by one and then by two `hedgerow serve` processes. The postgres section runs there too,
   * instead of on a cluster of its own.
   */
  readonly databaseUrl?: string | undefined
  readonly scenarios?: ReadonlyArray<Scenario> | undefined
  /** Seconds of the memory section's steady mixed load. */
  readonly steadySeconds: number
  /** The memory section's fuzzed writes (40,000), flags seeded (10,000) and idle seconds after the writes (10). */
  readonly memory?: Partial<Pick<ServerMemoryOptions, "fuzzWrites" | "seedFlags" | "settleSeconds">> | undefined
  /** The embedding section's flags (100), people (2,000), warm-up passes (2) and measured passes (5). */
  readonly embedding?: Partial<EmbeddingOptions> | undefined
  /** Receives a line as each phase starts; silent when absent. */
  readonly progress?: ((line: string) => void) | undefined
}

export const defaultBenchOptions = { durationSeconds: 8, connections: 10, warmupSeconds: 4, steadySeconds: 300 } as const
const DEFAULT_START_SECONDS = 5
const defaultMemoryOptions = { fuzzWrites: 40_000, seedFlags: 10_000, settleSeconds: 10 } as const

export interface ScenarioFigures {
  readonly name: string
  readonly method: string
  readonly path: string
  /** The status of Hedgerow's answer (a 2xx, or the 304 the scenario expects), which the baseline answers with too. */
  readonly status: number
  /** Size of Hedgerow's response body, which the baseline answers with too. */
  readonly responseBytes: number
  readonly hedgerow: LoadFigures
  readonly baseline: LoadFigures
  /**
   * Effect's HttpApi alone answering the same request with the same bytes (http-api-floor.ts): the most
   * a server on it reaches. Measured for the scenarios with a throughput goal.
   */
  readonly httpApiAlone?: LoadFigures | undefined
  /** The scenario's bound on hedgerow/baseline requests per second, if it has one. */
  readonly throughputGoal?: Goal | undefined
  /** Hedgerow's completed requests per server, in server order (one entry for a single server). */
  readonly hedgerowPerServer: ReadonlyArray<number>
  /**
   * The processes serving Hedgerow right after its run: the bench process itself (Hedgerow, its
   * in-memory store and the harness), or each server process.
   */
  readonly memoryAfterHedgerow: ReadonlyArray<ProcessMemory>
}

/** One target's table: its label and a row block per scenario. */
export interface RunFigures {
  readonly label: string
  /** `hedgerow serve` processes the load was spread over; 0 for Hedgerow in the bench process. */
  readonly serverProcesses: number
  readonly scenarios: ReadonlyArray<ScenarioFigures>
}

export interface BenchFigures {
  readonly durationSeconds: number
  readonly connections: number
  readonly warmupSeconds: number
  /** Logical CPUs of this machine, which the load generator and every server share. */
  readonly cpus: number
  readonly shipped?: ShippedFigures | undefined
  readonly postgres?: PostgresFigures | PostgresSkipped | undefined
  readonly embedding?: EmbeddingFigures | undefined
  /** One per target, when the scenarios ran; none otherwise. */
  readonly runs: ReadonlyArray<RunFigures>
  readonly startAndCli?: StartAndCliFigures | undefined
  readonly serverMemory?: ServerMemoryFigures | undefined
}

/** Every load a scenario ran: Hedgerow, the baseline and, where measured, HttpApi alone. */
export const loadsOf = (scenario: ScenarioFigures): ReadonlyArray<LoadFigures> =>
  scenario.httpApiAlone === undefined ? [scenario.hedgerow, scenario.baseline] : [scenario.hedgerow, scenario.baseline, scenario.httpApiAlone]

/**
 * Requests that failed or got an answer they should not have, over every measured load: any failure or
 * non-2xx of the scenarios and of the steady load, a 5xx or no answer at all for a fuzzed write (which
 * the server refuses with a 4xx as a rule). The figures only mean something at 0.
 */
export const failedRequests = (figures: BenchFigures) =>
  [
    ...(figures.shipped === undefined ? [] : shippedLoads(figures.shipped)),
    ...(figures.postgres === undefined ? [] : postgresLoads(figures.postgres)),
    ...figures.runs.flatMap((run) => run.scenarios).flatMap(loadsOf)
  ].reduce((sum, load) => sum + failures(load), 0) +
  (figures.serverMemory === undefined
    ? 0
    : failures(figures.serverMemory.steady) + serverErrors(figures.serverMemory.fuzz) + figures.serverMemory.fuzz.errors)

const runScenario = (scenario: Scenario, options: BenchOptions, target: HedgerowTarget) =>
  Effect.gen(function*() {
    const { probed, spec } = yield* prepare(scenario, target.context)
    const { load: hedgerowFigures } = yield* measure(scenario.name, "hedgerow", target.urls.map((url) => `${url}${spec.path}`), spec, options)
    const memory = yield* target.memory
    // A server of the harness's own, answering what Hedgerow answered, for as long as its run.
    const against = <E>(label: string, server: Effect.Effect<string, E, Scope.Scope>) =>
      Effect.scoped(Effect.flatMap(server, (baseUrl) =>
        Effect.map(measure(scenario.name, label, [`${baseUrl}${spec.path}`], spec, options), ({ load }) => load)))
    const baselineFigures = yield* against("baseline", baselineServer(probed.body, probed.status))
    const httpApiAlone = scenario.throughputGoal === undefined ? undefined : yield* against(
      "HttpApi alone",
      httpApiFloorServer(spec, probed.body, probed.status).pipe(Effect.mapError((error) =>
        new BenchFailed({ scenario: scenario.name, reason: `the HttpApi server did not start: ${error.message}` })))
    )

    return {
      name: scenario.name,
      method: spec.method,
      path: spec.path,
      status: probed.status,
      responseBytes: probed.body.byteLength,
      hedgerow: hedgerowFigures,
      baseline: baselineFigures,
      httpApiAlone,
      throughputGoal: scenario.throughputGoal,
      hedgerowPerServer: target.urls.map((url) => hedgerowFigures.completedByOrigin[new URL(url).origin] ?? 0),
      memoryAfterHedgerow: memory
    } satisfies ScenarioFigures
  })

/** In-process on the embedded store; or on PostgreSQL with one server process, then with two. */
export const plansFor = (options: Pick<BenchOptions, "databaseUrl">): ReadonlyArray<TargetPlan> =>
  options.databaseUrl === undefined ? [inProcess] : [onPostgres(options.databaseUrl, 1), onPostgres(options.databaseUrl, 2)]

/**
 * Starts the target and, for each scenario in turn, loads it and then a bare node:http baseline with
 * the same request. Targets never run at the same time, since they would compete for the same cores.
 * The target is stopped (and its database dropped) when its figures are in, or the run fails.
 */
const runTarget = (plan: TargetPlan, options: BenchOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const progress = (line: string) => options.progress?.(`${plan.label}: ${line}`)
    progress("starting")
    const target = yield* plan.start(progress).pipe(
      Effect.mapError((error) =>
        new BenchFailed({ scenario: `${plan.label}, startup`, reason: error instanceof Error ? error.message : String(error) }))
    )
    const scenarios = yield* Effect.forEach(
      options.scenarios ?? defaultScenarios,
      (scenario) => runScenario(scenario, { ...options, progress }, target).pipe(
        Effect.mapError((error) => new BenchFailed({ scenario: `${plan.label}, ${error.scenario}`, reason: error.reason }))
      )
    )
    progress("stopping")
    return { label: plan.label, serverProcesses: plan.serverProcesses, scenarios } satisfies RunFigures
  }))

/** Every section `options` asks for, one after the other; each with the machine to itself. */
export const runBench = (options: BenchOptions) =>
  Effect.gen(function*() {
    const sections = new Set(options.sections ?? defaultSections(options))
    const shipped = sections.has("shipped")
      ? yield* measureShipped(
        {
          durationSeconds: options.durationSeconds,
          connections: options.connections,
          warmupSeconds: options.warmupSeconds,
          startSeconds: options.startSeconds ?? DEFAULT_START_SECONDS,
          logPairs: options.logPairs ?? LOG_PAIRS
        },
        (line) => options.progress?.(`as shipped: ${line}`)
      )
      : undefined
    const postgres = sections.has("postgres")
      ? yield* measureShippedOnPostgres({
        durationSeconds: options.durationSeconds,
        connections: options.connections,
        warmupSeconds: options.warmupSeconds,
        databaseUrl: options.databaseUrl,
        progress: (line) => options.progress?.(`on PostgreSQL: ${line}`)
      })
      : undefined
    const embedding = sections.has("embedding")
      ? yield* measureEmbedding({ ...defaultEmbeddingOptions, ...options.embedding }, (line) => options.progress?.(`embedded: ${line}`))
      : undefined
    const runs = sections.has("scenarios") ? yield* Effect.forEach(plansFor(options), (plan) => runTarget(plan, options)) : []
    const startAndCli = sections.has("cli")
      ? yield* measureStartAndCli((line) => options.progress?.(`start and command line: ${line}`))
      : undefined
    const serverMemory = sections.has("memory")
      ? yield* measureServerMemory(
        {
          ...defaultMemoryOptions,
          ...options.memory,
          connections: options.connections,
          warmupSeconds: options.warmupSeconds,
          steadySeconds: options.steadySeconds
        },
        (line) => options.progress?.(`memory: ${line}`)
      )
      : undefined
    return {
      durationSeconds: options.durationSeconds,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      cpus: availableParallelism(),
      shipped,
      postgres,
      embedding,
      runs,
      startAndCli,
      serverMemory
    } satisfies BenchFigures
  })
