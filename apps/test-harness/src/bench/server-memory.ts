import { Duration, Effect, Fiber } from "effect"
import { BenchFailed } from "./bench-failed.ts"
import { flagsPath } from "./flag-scenarios.ts"
import { type FuzzFigures, sendFuzzedWrites } from "./fuzzed-writes.ts"
import { atMost } from "./goals.ts"
import { benchLogSettings, type Tenant } from "./hedgerow-target.ts"
import { failures, type LoadFigures, type LoadStep, runLoad } from "./load.ts"
import { residentBytes } from "./memory.ts"
import { probe } from "./probe.ts"
import { scopedServer, scratchDataDir } from "./scoped-server.ts"
import { seededStore } from "./seeded-store.ts"

/** Resident memory of one `hedgerow serve` on the embedded store, through loads a team's use resembles. */
export interface ServerMemoryFigures {
  readonly seededFlags: number
  readonly connections: number
  /** Seconds of the mixed load before the first reading; 0 reads right after the start. */
  readonly warmupSeconds: number
  readonly afterWarmupBytes: number
  readonly steadySeconds: number
  readonly steady: LoadFigures
  /** What each connection of the steady load repeats, in order. */
  readonly mix: ReadonlyArray<string>
  /** Readings taken while the steady load ran: the first, the last and the highest. */
  readonly steadyStartBytes: number
  readonly steadyEndBytes: number
  readonly steadyPeakBytes: number
  readonly fuzz: FuzzFigures
  readonly beforeFuzzBytes: number
  readonly afterFuzzBytes: number
  readonly settleSeconds: number
  /** `settleSeconds` after the last fuzzed write was answered, the server idle. */
  readonly settledBytes: number
}

/** The most a server's resident memory may reach: 300 MB, 286.1 MiB. */
const RSS_BOUND_BYTES = 300_000_000

export const serverMemoryGoals = {
  steadyEndBytes: atMost(RSS_BOUND_BYTES),
  /** The last reading of the steady load over its first: no growth beyond noise. */
  steadyGrowth: atMost(1.1),
  afterFuzzBytes: atMost(RSS_BOUND_BYTES),
  settledBytes: atMost(RSS_BOUND_BYTES)
} as const

export interface ServerMemoryOptions {
  readonly seedFlags: number
  readonly connections: number
  readonly warmupSeconds: number
  readonly steadySeconds: number
  readonly fuzzWrites: number
  readonly settleSeconds: number
}

const failed = (reason: string) => new BenchFailed({ scenario: "memory", reason })

/** Ids of the first page of the project's flags: the ones the loads read and change. */
const firstFlagIds = (baseUrl: string, tenant: Tenant) =>
  probe(`${baseUrl}${flagsPath(tenant.projectId)}`, { method: "GET", path: flagsPath(tenant.projectId), headers: tenant.authorization }).pipe(
    Effect.mapError((error) => failed(`listing flags: ${error.message}`)),
    Effect.flatMap((response) => {
      const text = Buffer.from(response.body).toString("utf8")
      if (response.status !== 200) return Effect.fail(failed(`listing flags answered ${response.status}: ${text.slice(0, 300)}`))
      const ids = (JSON.parse(text) as { readonly results: ReadonlyArray<{ readonly id: number }> }).results.map((flag) => flag.id)
      // The mix reads four flags.
      return ids.length >= 4 ? Effect.succeed(ids) : Effect.fail(failed(`the project holds ${ids.length} flags, fewer than the 4 the loads use`))
    })
  )

/**
 * A team's traffic, repeated by every connection: mostly reads of single flags and of the list's first
 * page, and for every six reads two changes, a rename and a new rollout. The project keeps its size, so
 * that memory which grows is memory the server holds on to, not flags it was asked to keep: creating
 * flags at this rate would add tens of thousands in five minutes (POST's speed is a scenario's).
 */
const teamMix = (tenant: Tenant, ids: ReadonlyArray<number>): ReadonlyArray<{ readonly label: string; readonly step: LoadStep }> => {
  const list = flagsPath(tenant.projectId)
  const json = { "content-type": "application/json" }
  const read = (id: number) => ({ label: "GET flag", step: { method: "GET", path: `${list}${id}/` } })
  const readList = { label: "GET flags", step: { method: "GET", path: list } }
  const rename = { label: "PATCH name", step: { method: "PATCH", path: `${list}${ids[0]}/`, headers: json, body: JSON.stringify({ name: "Renamed [<id>]" }) } }
  const rollout = {
    label: "PATCH filters",
    step: {
      method: "PATCH",
      path: `${list}${ids[1]}/`,
      headers: json,
      body: JSON.stringify({
        name: "Rolled out [<id>]",
        filters: { groups: [{ properties: [{ key: "email", type: "person", operator: "icontains", value: "@example.com" }], rollout_percentage: 20 }] }
      })
    }
  }
  return [read(ids[0]!), readList, read(ids[1]!), rename, read(ids[2]!), readList, read(ids[3]!), rollout]
}

/**
 * Seeds a data dir, starts `hedgerow serve` on it and reads its resident memory after a warm-up, through
 * a steady mixed load, and before, right after and a while after a run of fuzzed writes. A warm-up that
 * fails stops the section; failures of the measured loads are counted in its figures.
 */
export const measureServerMemory = (options: ServerMemoryOptions, progress: (line: string) => void) =>
  Effect.scoped(Effect.gen(function*() {
    const dataDir = yield* scratchDataDir
    progress(`seeding ${options.seedFlags.toLocaleString("en-US")} flags into a new data dir, ${dataDir} (removed at the end)`)
    const tenant = yield* seededStore({ dataDir }, options.seedFlags).pipe(Effect.mapError((error) => failed(`seeding: ${String(error)}`)))
    progress("starting `hedgerow serve` on it")
    const server = yield* scopedServer({ HEDGEROW_DATA_DIR: dataDir }, yield* benchLogSettings).pipe(
      Effect.mapError((error) => failed(error.message))
    )
    const rss = Effect.sync(() => residentBytes(server.child.pid!))
    const ids = yield* firstFlagIds(server.url, tenant)
    const steps = teamMix(tenant, ids)
    const mix = (durationSeconds: number) =>
      runLoad({
        urls: [server.url],
        method: "GET",
        headers: tenant.authorization,
        idReplacement: true,
        requests: steps.map(({ step }) => step),
        durationSeconds,
        connections: options.connections
      }).pipe(Effect.mapError((error) => failed(error.message)))

    if (options.warmupSeconds > 0) {
      progress(`warming up for ${options.warmupSeconds} s`)
      const warmup = yield* mix(options.warmupSeconds)
      if (failures(warmup) > 0) {
        return yield* failed(
          `the warm-up load failed ${failures(warmup)} requests (${warmup.errors} errors, status codes: ${JSON.stringify(warmup.statusCodes)})`
        )
      }
    }
    const afterWarmupBytes = yield* rss

    progress(`steady load for ${options.steadySeconds} s`)
    // A reading a second, or ten over a shorter load; the first is taken one interval in.
    const readings: Array<number> = []
    const read = Effect.map(rss, (bytes) => void readings.push(bytes))
    const sampler = yield* Effect.forkChild(Effect.forever(Effect.delay(read, Duration.millis(Math.min(1000, options.steadySeconds * 100)))))
    const steady = yield* mix(options.steadySeconds)
    yield* Fiber.interrupt(sampler)
    if (readings.length === 0) readings.push(yield* rss)

    progress(`${options.fuzzWrites.toLocaleString("en-US")} fuzzed writes`)
    const beforeFuzzBytes = yield* rss
    const fuzz = yield* sendFuzzedWrites({
      baseUrl: server.url,
      authorization: tenant.authorization,
      projectId: tenant.projectId,
      flagIds: ids,
      writes: options.fuzzWrites,
      connections: options.connections
    })
    const afterFuzzBytes = yield* rss
    progress(`idle for ${options.settleSeconds} s`)
    yield* Effect.sleep(Duration.seconds(options.settleSeconds))
    const settledBytes = yield* rss

    return {
      seededFlags: options.seedFlags,
      connections: options.connections,
      warmupSeconds: options.warmupSeconds,
      afterWarmupBytes,
      steadySeconds: options.steadySeconds,
      steady,
      mix: steps.map(({ label }) => label),
      steadyStartBytes: readings[0]!,
      steadyEndBytes: readings.at(-1)!,
      steadyPeakBytes: Math.max(...readings),
      fuzz,
      beforeFuzzBytes,
      afterFuzzBytes,
      settleSeconds: options.settleSeconds,
      settledBytes
    } satisfies ServerMemoryFigures
  }))
