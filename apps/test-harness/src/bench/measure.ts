import { Effect } from "effect"
import { BenchFailed } from "./bench-failed.ts"
import { failures, type LoadFigures, runLoad } from "./load.ts"
import { processCpuSeconds, processTreeCpuSeconds } from "./process-cpu.ts"
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

/** A measured load, and the CPU the server processes (and a database) spent over it when it was read. */
export interface Measured {
  readonly load: LoadFigures
  /** Their user and system CPU seconds between the start and the end of the measured run, summed. */
  readonly serverCpuSeconds?: number | undefined
  /** The same of the database's processes, where the run was given one. */
  readonly databaseCpuSeconds?: number | undefined
}

/** CPU seconds between two readings, where both were read. */
const spent = (before: number | undefined, after: number | undefined) =>
  before === undefined || after === undefined ? undefined : after - before

/** The sum of the processes' CPU seconds so far, where every one was read. */
const summedCpuSeconds = (pids: ReadonlyArray<number>) => {
  const seconds = pids.map(processCpuSeconds)
  return seconds.every((s) => s !== undefined) ? seconds.reduce((a, b) => a + b, 0) : undefined
}

/**
 * Loads `urls` with the scenario's request: a warm-up, whose failures stop the run before its time is
 * spent, then the measured run. Given the pids of the processes serving them, reads their CPU time around
 * the measured run; given a database's root process (a PostgreSQL postmaster), the CPU of it and every
 * process under it as well.
 */
export const measure = (
  scenario: string,
  target: string,
  urls: ReadonlyArray<string>,
  spec: RequestSpec,
  options: MeasureOptions,
  serverPids?: number | ReadonlyArray<number>,
  databasePid?: number
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
    const serverCpu = () => serverPids === undefined ? undefined : summedCpuSeconds(typeof serverPids === "number" ? [serverPids] : serverPids)
    const databaseCpu = () => databasePid === undefined ? undefined : processTreeCpuSeconds(databasePid)
    const before = { server: serverCpu(), database: databaseCpu() }
    const figures = yield* load(options.durationSeconds)
    const after = { server: serverCpu(), database: databaseCpu() }
    return {
      load: figures,
      serverCpuSeconds: spent(before.server, after.server),
      databaseCpuSeconds: spent(before.database, after.database)
    } satisfies Measured
  }).pipe(Effect.mapError((error) =>
    error._tag === "LoadFailed" ? new BenchFailed({ scenario, reason: error.message }) : error))
