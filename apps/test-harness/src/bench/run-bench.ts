import { Context, Data, Effect } from "effect"
import { baselineServer } from "./baseline-server.ts"
import { HedgerowFixture, type HedgerowServices, startHedgerow } from "./hedgerow-target.ts"
import { failures, type LoadFigures, runLoad } from "./load.ts"
import { probe } from "./probe.ts"
import { type RequestSpec, type Scenario, scenarios as defaultScenarios } from "./scenarios.ts"

export interface BenchOptions {
  /** Seconds of measured load per target. */
  readonly durationSeconds: number
  readonly connections: number
  /** Seconds of unreported load before each measured run, so JIT and pools are warm; 0 skips it. */
  readonly warmupSeconds: number
  readonly scenarios?: ReadonlyArray<Scenario> | undefined
  /** Receives a line as each phase starts; silent when absent. */
  readonly progress?: ((line: string) => void) | undefined
}

export const defaultBenchOptions = { durationSeconds: 10, connections: 10, warmupSeconds: 2 } as const

export interface MemoryFigures {
  readonly rssBytes: number
  readonly heapUsedBytes: number
}

export interface ScenarioFigures {
  readonly name: string
  readonly method: string
  readonly path: string
  /** Size of Hedgerow's response body, which the baseline answers with too. */
  readonly responseBytes: number
  readonly hedgerow: LoadFigures
  readonly baseline: LoadFigures
  /** The whole process (Hedgerow, its in-memory store and the harness), right after Hedgerow's run. */
  readonly memoryAfterHedgerow: MemoryFigures
}

export interface BenchFigures {
  readonly durationSeconds: number
  readonly connections: number
  readonly warmupSeconds: number
  readonly scenarios: ReadonlyArray<ScenarioFigures>
}

export class BenchFailed extends Data.TaggedError("BenchFailed")<{ readonly scenario: string; readonly reason: string }> {
  override get message() {
    return `${this.scenario}: ${this.reason}`
  }
}

/** Failed or non-2xx requests over every measured run; the figures only mean something at 0. */
export const failedRequests = (figures: BenchFigures) =>
  figures.scenarios.reduce((sum, scenario) => sum + failures(scenario.hedgerow) + failures(scenario.baseline), 0)

const describeStatuses = (figures: LoadFigures) =>
  Object.entries(figures.statusCodes).map(([code, count]) => `${count}x ${code}`).join(", ") || "none"

const measure = (scenario: string, target: string, url: string, spec: RequestSpec, options: BenchOptions) =>
  Effect.gen(function*() {
    const load = (durationSeconds: number) =>
      runLoad({
        url,
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        idReplacement: spec.idReplacement,
        durationSeconds,
        connections: options.connections
      })
    if (options.warmupSeconds > 0) {
      options.progress?.(`${scenario}: warming up ${target} for ${options.warmupSeconds} s`)
      const warmup = yield* load(options.warmupSeconds)
      // Failures here would fail the measured run as well; stop before spending its time.
      if (failures(warmup) > 0) {
        return yield* new BenchFailed({
          scenario,
          reason: `${target} failed ${failures(warmup)} requests during the warm-up ` +
            `(${warmup.errors} errors, status codes: ${describeStatuses(warmup)})`
        })
      }
    }
    options.progress?.(`${scenario}: measuring ${target} for ${options.durationSeconds} s`)
    return yield* load(options.durationSeconds)
  }).pipe(Effect.mapError((error) =>
    error._tag === "LoadFailed" ? new BenchFailed({ scenario, reason: error.message }) : error))

const runScenario = (scenario: Scenario, options: BenchOptions, hedgerow: Context.Context<HedgerowServices>) =>
  Effect.gen(function*() {
    const fixture = Context.get(hedgerow, HedgerowFixture)
    const spec = yield* scenario.setup.pipe(
      Effect.provideContext(hedgerow),
      Effect.mapError((error) => new BenchFailed({ scenario: scenario.name, reason: `setup failed: ${String(error)}` }))
    )
    const url = `${fixture.baseUrl}${spec.path}`
    const probed = yield* probe(url, spec).pipe(
      Effect.mapError((error) => new BenchFailed({ scenario: scenario.name, reason: `probe request failed: ${error.message}` }))
    )
    if (probed.status < 200 || probed.status > 299) {
      const excerpt = Buffer.from(probed.body).toString("utf8").slice(0, 300)
      return yield* new BenchFailed({ scenario: scenario.name, reason: `probe got ${probed.status} from Hedgerow: ${excerpt}` })
    }

    const hedgerowFigures = yield* measure(scenario.name, "hedgerow", url, spec, options)
    const memory = process.memoryUsage()
    const baselineFigures = yield* Effect.scoped(Effect.flatMap(
      baselineServer(probed.body),
      (baseUrl) => measure(scenario.name, "baseline", `${baseUrl}${spec.path}`, spec, options)
    ))

    return {
      name: scenario.name,
      method: spec.method,
      path: spec.path,
      responseBytes: probed.body.byteLength,
      hedgerow: hedgerowFigures,
      baseline: baselineFigures,
      memoryAfterHedgerow: { rssBytes: memory.rss, heapUsedBytes: memory.heapUsed }
    } satisfies ScenarioFigures
  })

/**
 * Starts Hedgerow in this process and, for each scenario in turn, loads it and then a bare
 * node:http baseline with the same request. Targets never run at the same time, since they would
 * compete for the same cores. Hedgerow is stopped when the figures are in.
 */
export const runBench = (options: BenchOptions) =>
  Effect.scoped(Effect.gen(function*() {
    options.progress?.("starting Hedgerow on an in-memory store")
    const hedgerow = yield* startHedgerow.pipe(
      Effect.mapError((error) => new BenchFailed({ scenario: "startup", reason: String(error) }))
    )
    const figures = yield* Effect.forEach(
      options.scenarios ?? defaultScenarios,
      (scenario) => runScenario(scenario, options, hedgerow)
    )
    return {
      durationSeconds: options.durationSeconds,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      scenarios: figures
    } satisfies BenchFigures
  }))
