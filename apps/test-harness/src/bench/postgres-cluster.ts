import { Data, Effect } from "effect"
import { execFile, execFileSync } from "node:child_process"
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { loggedProcess } from "./logged-process.ts"

export class ClusterFailed extends Data.TaggedError("ClusterFailed")<{ readonly reason: string }> {
  override get message() {
    return `the bench's PostgreSQL cluster: ${this.reason}`
  }
}

/** Where Debian's postgresql packages put each major version's programs. */
const DEBIAN_VERSIONS = "/usr/lib/postgresql"

/** The programs of the newest PostgreSQL Debian's packages installed; undefined when there are none. */
export const postgresBinaries = (): string | undefined => {
  let versions: ReadonlyArray<string>
  try {
    versions = readdirSync(DEBIAN_VERSIONS)
  } catch {
    return undefined
  }
  return versions
    .map((version) => path.join(DEBIAN_VERSIONS, version, "bin"))
    .filter((bin) => existsSync(path.join(bin, "postgres")) && existsSync(path.join(bin, "initdb")))
    .sort((a, b) => a.localeCompare(b, "en", { numeric: true }))
    .at(-1)
}

/** What the bench says when it finds no PostgreSQL to start. */
export const NO_BINARIES = `no PostgreSQL programs in ${DEBIAN_VERSIONS}/*/bin (Debian's postgresql package); ` +
  "--database-url URL runs it on an existing server instead"

/** A running cluster of the bench's own. */
export interface Cluster {
  /** Its `postgres` database, as its superuser `hedgerow`, over TCP on loopback. */
  readonly url: string
  /** The postmaster: every process of the cluster is it or under it. */
  readonly pid: number
  /** Holds its data directory and its log; removed with it. */
  readonly dir: string
  /** PostgreSQL's major version, from the data directory. */
  readonly version: string
}

/**
 * The user and group the cluster's programs run as: this process's own, or as root the `postgres`
 * user Debian's package creates, since PostgreSQL refuses to run as root.
 */
const clusterOwner = (): { readonly uid: number; readonly gid: number } | undefined => {
  if (process.getuid?.() !== 0) return undefined
  try {
    const id = (flag: string) => Number(execFileSync("id", [flag, "postgres"], { encoding: "utf8" }).trim())
    return { uid: id("-u"), gid: id("-g") }
  } catch {
    throw new Error("running as root, and there is no `postgres` user to run PostgreSQL as")
  }
}

/** A loopback port nothing listens on at the moment it is asked for. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })

/** A new directory the cluster's owner may write to, removed with the scope (after the cluster has stopped). */
const clusterDir = Effect.acquireRelease(
  Effect.try({
    try: () => {
      const owner = clusterOwner()
      const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-bench-pg-"))
      try {
        if (owner !== undefined) chownSync(dir, owner.uid, owner.gid)
      } catch (error) {
        rmSync(dir, { recursive: true, force: true })
        throw error
      }
      return { dir, owner }
    },
    catch: (error) => new ClusterFailed({ reason: error instanceof Error ? error.message : String(error) })
  }),
  ({ dir }) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

/**
 * A throwaway PostgreSQL cluster of the programs in `bin`, for as long as the scope: a new data directory
 * (initdb, superuser `hedgerow`, trust authentication, UTF-8), then `postgres` in the foreground as a
 * child of this process, on a free port of 127.0.0.1 and no Unix socket, with the settings initdb gives
 * it, fsync on among them; its log goes to a file beside the data directory. As root both run as the
 * `postgres` user. At the end the server is stopped (SIGINT, PostgreSQL's fast shutdown) and the
 * directory removed, also when the run fails or is interrupted.
 */
export const scratchCluster = (bin: string) =>
  Effect.gen(function*() {
    const { dir, owner } = yield* clusterDir
    const dataDir = path.join(dir, "data")
    const asOwner = { cwd: dir, env: { PATH: process.env.PATH }, ...owner }
    yield* Effect.tryPromise({
      try: () =>
        new Promise<void>((resolve, reject) =>
          // --no-sync: the new files of a throwaway cluster need not reach the disk before it starts.
          execFile(path.join(bin, "initdb"), ["-D", dataDir, "-U", "hedgerow", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync"], asOwner, (error, _, stderr) =>
            error === null ? resolve() : reject(new Error(`initdb failed: ${stderr || error.message}`)))
        ),
      catch: (error) => new ClusterFailed({ reason: error instanceof Error ? error.message : String(error) })
    })
    const port = yield* Effect.tryPromise({ try: freePort, catch: (error) => new ClusterFailed({ reason: `no free port: ${String(error)}` }) })
    const url = `postgres://hedgerow@127.0.0.1:${port}/postgres`
    const postmaster = yield* loggedProcess({
      ...asOwner,
      command: path.join(bin, "postgres"),
      args: ["-D", dataDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories="],
      logFile: path.join(dir, "postgres.log"),
      stderrToLog: true,
      stopSignal: "SIGINT",
      // initdb's locale C.UTF-8 keeps the server's messages in English.
      urlOf: (log) => log.includes("database system is ready to accept connections") ? url : undefined
    }).pipe(Effect.mapError((error) => new ClusterFailed({ reason: error.message })))
    return {
      url,
      pid: postmaster.pid,
      dir,
      version: readFileSync(path.join(dataDir, "PG_VERSION"), "utf8").trim()
    } satisfies Cluster
  })
