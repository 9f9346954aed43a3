import { Effect } from "effect"
import { BenchFailed } from "./bench-failed.ts"
import { failures, type LoadFigures, runLoad } from "./load.ts"
import { processCpuSeconds } from "./process-cpu.ts"
import type { RequestSpec } from "./scenario.ts"

const describeStatuses = (figures: LoadFigures) =>
  Object.entries(figures.statusCodes).map(([code, count]) => `${count}x ${code}`).join(", ") || "none"

/** How long to load and how hard; `progress` hears of each load as it starts. */
export interface MeasureOptions {
  readonly durationSeconds: number
  readonly connections: number
  /** Seconds of unreported load before the measured run, so JIT and pools are warm; 0 skips it. */
  readonly warmupSeconds: number
  readonly progress?: ((line: string) => void) | undefined
}

/** A measured load, and the CPU the server process spent over it when it was read. */
export interface Measured {
  readonly load: LoadFigures
  /** Its user and system CPU seconds between the start and the end of the measured run. */
  readonly serverCpuSeconds?: number | undefined
}

/**
 * Loads `urls` with the scenario's request: a warm-up, whose failures stop the run before its time is
 * spent, then the measured run. Given the pid of the process serving them, reads its CPU time around
 * the measured run.
 */
export const measure = (
  scenario: string,
  target: string,
  urls: ReadonlyArray<string>,
  spec: RequestSpec,
  options: MeasureOptions,
  serverPid?: number
) =>
  Effect.gen(function*() {
    const load = (durationSeconds: number) =>
      runLoad({
        urls,
        method: spec.method,
        headers: spec.headers,
        body: spec.body,
        idReplacement: spec.idReplacement,
        expectedStatus: spec.expectedStatus,
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
    const cpu = () => serverPid === undefined ? undefined : processCpuSeconds(serverPid)
    const before = cpu()
    const figures = yield* load(options.durationSeconds)
    const after = cpu()
    return {
      load: figures,
      serverCpuSeconds: before === undefined || after === undefined ? undefined : after - before
    } satisfies Measured
  }).pipe(Effect.mapError((error) =>
    error._tag === "LoadFailed" ? new BenchFailed({ scenario, reason: error.message }) : error))
