import { Duration, Effect, Schedule } from "effect"
import { execFile } from "node:child_process"
import { bannerOf, firstStartOf } from "../serve-banner.ts"
import { hedgerowBin } from "../targets/server-process.ts"
import { BenchFailed } from "./bench-failed.ts"
import { flagsPath } from "./flag-scenarios.ts"
import { atMost } from "./goals.ts"
import { benchLogSettings } from "./hedgerow-target.ts"
import { probe } from "./probe.ts"
import { scopedServer, scratchDataDir } from "./scoped-server.ts"

/** Wall times of real child processes running the built CLI, in milliseconds. */
export interface StartAndCliFigures {
  /** `hedgerow serve` on an empty data dir, from spawning it to its first 200: it creates, migrates and bootstraps the store. */
  readonly firstStartMs: number
  /** The same on the data dir that start left, as every later start finds it. */
  readonly startMs: number
  /** Runs of each command below; each figure is their median, from spawning it to its exit. */
  readonly runs: number
  readonly versionMs: number
  readonly helpMs: number
  /** `hedgerow flags list` against the server started last, in a project of `listedFlags` flags. */
  readonly flagsListMs: number
  readonly listedFlags: number
}

export const startAndCliGoals = {
  startMs: atMost(1500),
  versionMs: atMost(200),
  helpMs: atMost(200),
  flagsListMs: atMost(400)
} as const

const RUNS = 5
/** A default page of flags for `flags list` to fetch and print. */
const LISTED_FLAGS = 100

const failed = (what: string, reason: string) => new BenchFailed({ scenario: `start and command line, ${what}`, reason })

const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}

/** The tenant the first start bootstrapped, as its banner shows it. */
interface Tenant {
  readonly project: number
  readonly key: string
}

const authorization = (tenant: Tenant) => ({ authorization: `Bearer ${tenant.key}` })

/** Polls the tenant's flag list until it answers 200; a server that printed its URL is meant to answer at once. */
const firstOk = (url: string, tenant: Tenant) =>
  probe(`${url}${flagsPath(tenant.project)}`, { method: "GET", path: flagsPath(tenant.project), headers: authorization(tenant) }).pipe(
    Effect.flatMap((response) => response.status === 200 ? Effect.void : Effect.fail(new Error(`status ${response.status}`))),
    Effect.retry(Schedule.spaced("5 millis").pipe(Schedule.upTo({ duration: "10 seconds" }))),
    Effect.mapError((error) => failed("first request", `no 200 from ${url} within 10 s: ${error.message}`))
  )

/** One CLI run's wall time in milliseconds and its stdout; a non-zero exit fails the section with its stderr. */
const run = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  Effect.callback<{ readonly ms: number; readonly stdout: string }, BenchFailed>((resume) => {
    const started = performance.now()
    const child = execFile(process.execPath, [hedgerowBin, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      const ms = performance.now() - started
      resume(error === null ? Effect.succeed({ ms, stdout }) : Effect.fail(failed(`hedgerow ${args.join(" ")}`, `${error.message}\n${stderr}`)))
    })
    return Effect.sync(() => child.kill("SIGKILL"))
  })

/** The median of RUNS runs, each checked by `expect` on its stdout. */
const medianOf = (args: ReadonlyArray<string>, expect: (stdout: string) => boolean, env?: Readonly<Record<string, string>>) =>
  Effect.forEach(Array.from({ length: RUNS }), () =>
    Effect.flatMap(run(args, env), ({ ms, stdout }) =>
      expect(stdout)
        ? Effect.succeed(ms)
        : Effect.fail(failed(`hedgerow ${args.join(" ")}`, `unexpected output: ${stdout.slice(0, 300)}`)))).pipe(Effect.map(median))

/** Flags made through the API of the running server, so that `flags list` prints a full page. */
const createFlags = (url: string, tenant: Tenant) =>
  Effect.forEach(
    Array.from({ length: LISTED_FLAGS }, (_, i) => i),
    (i) =>
      probe(`${url}${flagsPath(tenant.project)}`, {
        method: "POST",
        path: flagsPath(tenant.project),
        headers: { ...authorization(tenant), "content-type": "application/json" },
        body: JSON.stringify({ key: `bench-cli-${i}`, name: `Listed by the CLI ${i}` })
      }).pipe(
        Effect.flatMap((response) =>
          response.status === 201
            ? Effect.void
            : Effect.fail(failed("creating flags", `${response.status}: ${Buffer.from(response.body).toString("utf8").slice(0, 300)}`))),
        Effect.mapError((error) => error instanceof BenchFailed ? error : failed("creating flags", error.message))
      ),
    { concurrency: 4, discard: true }
  )

/**
 * `hedgerow serve` started on a new data dir, stopped, and started again on it, each timed to its first
 * 200; then `--version`, `--help` and `flags list` against the second server. The data dir is removed
 * at the end, also when a step fails.
 */
export const measureStartAndCli = (progress: (line: string) => void) =>
  Effect.scoped(Effect.gen(function*() {
    const dataDir = yield* scratchDataDir
    const log = yield* benchLogSettings
    const storeEnv = { HEDGEROW_DATA_DIR: dataDir }
    const serve = scopedServer(storeEnv, log).pipe(Effect.mapError((error) => failed("hedgerow serve", error.message)))

    progress(`first start of \`hedgerow serve\` on a new data dir, ${dataDir} (removed at the end)`)
    const [firstStart, tenant] = yield* Effect.scoped(Effect.timed(Effect.gen(function*() {
      const server = yield* serve
      const first = firstStartOf(yield* Effect.promise(() => bannerOf(server)))
      if (first === undefined) return yield* failed("first start", `no key in its banner:\n${server.output()}`)
      const tenant: Tenant = { project: first.project, key: first.key }
      yield* firstOk(server.url, tenant)
      return tenant
    })))

    progress("second start, on the data dir the first one left")
    const [start, server] = yield* Effect.timed(Effect.tap(serve, (server) => firstOk(server.url, tenant)))
    yield* createFlags(server.url, tenant)

    progress(`hedgerow --version, --help and flags list, ${RUNS} times each`)
    const versionMs = yield* medianOf(["--version"], (stdout) => stdout.startsWith("hedgerow v"))
    const helpMs = yield* medianOf(["--help"], (stdout) => stdout.includes("serve"))
    const flagsListMs = yield* medianOf(
      ["flags", "list", "--project", String(tenant.project)],
      (stdout) => stdout.includes("bench-cli-0") && stdout.includes(`bench-cli-${LISTED_FLAGS - 1}`),
      { HEDGEROW_URL: server.url, HEDGEROW_API_KEY: tenant.key }
    )
    return {
      firstStartMs: Duration.toMillis(firstStart),
      startMs: Duration.toMillis(start),
      runs: RUNS,
      versionMs,
      helpMs,
      flagsListMs,
      listedFlags: LISTED_FLAGS
    } satisfies StartAndCliFigures
  }))
