import { displayUrl } from "@hedgerow/store"
import { Effect } from "effect"
import * as path from "node:path"
import { BenchFailed } from "./bench-failed.ts"
import { measure, type Measured, type MeasureOptions } from "./measure.ts"
import { residentBytes } from "./memory.ts"
import { NO_BINARIES, postgresBinaries, scratchCluster } from "./postgres-cluster.ts"
import { benchDatabase } from "./postgres-target.ts"
import { prepare } from "./prepare.ts"
import { scratchDataDir } from "./scoped-server.ts"
import { seededStore } from "./seeded-store.ts"
import { measureBaseline, SEEDED_FLAGS, serve, servedContext, shippedScenarios, type ShippedScenarioFigures } from "./shipped.ts"

/** `hedgerow serve` processes sharing the database, one and then two, the load spread over them. */
const DEPLOYMENTS = [1, 2] as const

/** One scenario against one deployment. */
export interface PostgresRow {
  /** `hedgerow serve` processes the load was spread over. */
  readonly processes: number
  /** Server CPU is the sum of the processes'; database CPU is the cluster's, where it could be read. */
  readonly measured: Measured
  /** Resident memory of each server process right after its measured run, in server order. */
  readonly rssBytes: ReadonlyArray<number>
  /** Requests each server process answered in the measured run, in server order. */
  readonly completedPerServer: ReadonlyArray<number>
}

/**
 * One scenario on each deployment, and the baseline process answering what the one-process deployment
 * answered (status and bytes), measured once for both.
 */
export interface PostgresScenarioFigures extends Pick<ShippedScenarioFigures, "name" | "method" | "path" | "status" | "responseBytes" | "baseline"> {
  readonly rows: ReadonlyArray<PostgresRow>
}

export interface PostgresFigures {
  /** Which PostgreSQL, for the report: the bench's own cluster and its version, or the server given. */
  readonly database: string
  /** Whether the database is the bench's own cluster, whose processes' CPU is read. */
  readonly ownCluster: boolean
  readonly seededFlags: number
  readonly scenarios: ReadonlyArray<PostgresScenarioFigures>
}

/** The section when there is no PostgreSQL to run on, and why. */
export interface PostgresSkipped {
  readonly skipped: string
}

/** Every load whose requests must all have succeeded. */
export const postgresLoads = (figures: PostgresFigures | PostgresSkipped) =>
  "skipped" in figures ? [] : figures.scenarios.flatMap((scenario) => [scenario.baseline.load, ...scenario.rows.map((row) => row.measured.load)])

const failed = (reason: string) => new BenchFailed({ scenario: "on PostgreSQL", reason })

const plural = (processes: number) => `${processes} process${processes === 1 ? "" : "es"}`

/**
 * A new database on the server at `serverUrl` seeded with the shipped section's project, served by
 * `processes` `hedgerow serve` processes with DATABASE_URL set, each with its request log at the default
 * level going to a file in `dir`. Each scenario is loaded over all of them. The servers are stopped and
 * the database dropped at the end.
 */
const runDeployment = (serverUrl: string, clusterPid: number | undefined, processes: number, dir: string, options: MeasureOptions) =>
  Effect.scoped(Effect.gen(function*() {
    const progress = (line: string) => options.progress?.(`${plural(processes)}: ${line}`)
    const databaseUrl = yield* benchDatabase(serverUrl).pipe(Effect.mapError((error) => failed(error.message)))
    progress(`seeding ${SEEDED_FLAGS} flags into a new database, ${new URL(databaseUrl).pathname.slice(1)} (dropped at the end)`)
    const tenant = yield* seededStore({ databaseUrl }, SEEDED_FLAGS).pipe(Effect.mapError((error) => failed(`seeding: ${String(error)}`)))
    progress(`starting ${plural(processes)} of \`hedgerow serve\` on it`)
    const servers = yield* Effect.forEach(
      Array.from({ length: processes }, (_, i) => path.join(dir, `hedgerow-${processes}-${i + 1}.log`)),
      (logFile) => serve({ databaseUrl }, logFile, "").pipe(Effect.mapError((error) => failed(error.message))),
      { concurrency: "unbounded" }
    )
    const context = servedContext(tenant, servers[0]!.url)
    const measureOptions = { ...options, progress }
    return yield* Effect.forEach(shippedScenarios, (scenario) =>
      Effect.gen(function*() {
        const prepared = yield* prepare(scenario, context)
        const { spec } = prepared
        const measured = yield* measure(
          scenario.name,
          `hedgerow serve, ${plural(processes)}`,
          servers.map((server) => `${server.url}${spec.path}`),
          spec,
          measureOptions,
          servers.map((server) => server.pid),
          clusterPid
        )
        const row: PostgresRow = {
          processes,
          measured,
          rssBytes: servers.map((server) => residentBytes(server.pid)),
          completedPerServer: servers.map((server) => measured.load.completedByOrigin[new URL(server.url).origin] ?? 0)
        }
        return { prepared, row }
      }))
  }))

/**
 * The PostgreSQL server to run on: the one at `databaseUrl` when given, else a new cluster of this
 * machine's newest Debian PostgreSQL, stopped and removed with the scope; nothing when there is neither.
 */
const databaseServer = (databaseUrl: string | undefined, progress: (line: string) => void) =>
  Effect.gen(function*() {
    if (databaseUrl !== undefined) {
      return { url: databaseUrl, clusterPid: undefined, database: `the PostgreSQL server at ${displayUrl(databaseUrl)}` }
    }
    const bin = postgresBinaries()
    if (bin === undefined) return undefined
    progress(`starting a new PostgreSQL cluster of ${bin}`)
    const cluster = yield* scratchCluster(bin).pipe(Effect.mapError((error) => failed(error.message)))
    progress(`PostgreSQL ${cluster.version} serving ${displayUrl(cluster.url)} from a new cluster, ${cluster.dir} (removed at the end)`)
    return { url: cluster.url, clusterPid: cluster.pid, database: `PostgreSQL ${cluster.version} in a cluster the bench started` }
  })

/**
 * Hedgerow as shipped on PostgreSQL: the shipped section's project and scenarios on a database of its
 * own, first served by one `hedgerow serve` process and then by two sharing it (on a new database seeded
 * alike); then the baseline process once per scenario, answering what the one process answered. The
 * server processes' CPU and the cluster's (the postmaster and every process under it) are read around
 * each measured run.
 */
export const measureShippedOnPostgres = (options: MeasureOptions & { readonly databaseUrl?: string | undefined }) =>
  Effect.scoped(Effect.gen(function*() {
    const progress = (line: string) => options.progress?.(line)
    const server = yield* databaseServer(options.databaseUrl, progress)
    if (server === undefined) {
      progress(`skipped: ${NO_BINARIES}`)
      return { skipped: NO_BINARIES } satisfies PostgresSkipped
    }
    const dir = yield* scratchDataDir
    progress(`server logs in a new directory, ${dir} (removed at the end)`)
    const runs = yield* Effect.forEach(DEPLOYMENTS, (processes) => runDeployment(server.url, server.clusterPid, processes, dir, options))
    const scenarios = yield* Effect.forEach(shippedScenarios, (scenario, i) =>
      Effect.gen(function*() {
        const { prepared } = runs[0][i]!
        const baseline = yield* measureBaseline(scenario, prepared, dir, `baseline-${i}`, options).pipe(
          Effect.catchTag("ServerStartFailed", (error) => Effect.fail(failed(error.message)))
        )
        return {
          name: scenario.name,
          method: prepared.spec.method,
          path: prepared.spec.path,
          status: prepared.probed.status,
          responseBytes: prepared.probed.body.byteLength,
          baseline,
          rows: runs.map((run) => run[i]!.row)
        } satisfies PostgresScenarioFigures
      }))
    return {
      database: server.database,
      ownCluster: server.clusterPid !== undefined,
      seededFlags: SEEDED_FLAGS,
      scenarios
    } satisfies PostgresFigures
  }))
