import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Context, Data, Effect, Layer, Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient, type SqlError } from "effect/sql"
import type { Listener } from "./listener.ts"
import { backupServedStore } from "./backup.ts"
import { serveBackups } from "./backup-socket.ts"
import { openPglite, pgliteContext } from "./pglite-client.ts"

/** Another live process holds the data directory. */
export class DataDirInUse extends Data.TaggedError("DataDirInUse")<{
  readonly dir: string
  readonly pid: number
  readonly hostname: string
  readonly startedAt: string
  readonly message: string
}> {}

/** The lock could not be written or read for a reason other than contention (permissions, disk...). */
export class DataDirLockError extends Data.TaggedError("DataDirLockError")<{
  readonly dir: string
  readonly message: string
  readonly cause: unknown
}> {}

export interface LockOwner {
  readonly pid: number
  readonly hostname: string
  readonly startedAt: string
}

export const lockFileName = "hedgerow.lock"

/** Where PGlite keeps the database inside a data directory, beside the lock. */
export const databaseDirOf = (dir: string) => path.join(path.resolve(dir), "pgdata")

const parseOwner = (text: string): LockOwner | undefined => {
  try {
    const v = JSON.parse(text)
    return typeof v?.pid === "number" && Number.isInteger(v.pid) && v.pid > 0
      ? { pid: v.pid, hostname: String(v.hostname ?? ""), startedAt: String(v.startedAt ?? "") }
      : undefined
  } catch {
    return undefined
  }
}

const readOwner = (file: string): LockOwner | undefined => {
  try {
    return parseOwner(fs.readFileSync(file, "utf8"))
  } catch (e) {
    // It vanished between our failed create and this read: its owner released it.
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined
    throw e
  }
}

// EPERM means the process exists but belongs to someone else: still alive.
const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

type Attempt = { readonly _tag: "Acquired" } | { readonly _tag: "Held"; readonly owner: LockOwner }

const tryAcquire = (file: string, me: LockOwner, text: string, retries = 3): Attempt => {
  // Written whole first, then linked into place: link() fails if the lock exists, so of several processes
  // racing here exactly one wins, and nobody ever sees a lock file without its owner in it.
  const draft = `${file}.${process.pid}.new`
  fs.writeFileSync(draft, text, { flush: true })
  try {
    fs.linkSync(draft, file)
    return { _tag: "Acquired" }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
  } finally {
    fs.rmSync(draft, { force: true })
  }
  const owner = readOwner(file)
  // A foreign host's pid says nothing about this machine, so never presume it dead.
  if (owner !== undefined && (owner.hostname !== me.hostname || isAlive(owner.pid))) {
    return { _tag: "Held", owner }
  }
  // Stale (crash, SIGKILL) or unreadable: replace it whole via rename so that no
  // reader ever sees a half-written lock, then read back to see who won in case
  // another starter took over the same stale lock at the same moment.
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, text)
  fs.renameSync(tmp, file)
  const now = readOwner(file)
  if (now === undefined && retries > 0) return tryAcquire(file, me, text, retries - 1)
  return now !== undefined && now.pid === me.pid && now.startedAt === me.startedAt
    ? { _tag: "Acquired" }
    : { _tag: "Held", owner: now ?? owner ?? me }
}

const release = (file: string, me: LockOwner) => {
  const owner = readOwner(file)
  // Only delete a lock that is still ours; someone may have legitimately replaced it.
  if (owner?.pid === me.pid && owner.startedAt === me.startedAt) fs.rmSync(file, { force: true })
}

/** A directory of this process's user that others may enter is closed to them; another user's is left as it is. */
const closeToOthers = (dir: string) => {
  const stat = fs.statSync(dir)
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) fs.chmodSync(dir, stat.mode & 0o700)
}

/**
 * Takes `<dir>/hedgerow.lock` (creating `dir` if needed; made open to its owner only, an
 * existing one too: PGlite makes its files readable and writable by everyone, and they
 * hold webhook secrets and the hashes of keys) for the lifetime of the current scope, so that only one process
 * at a time opens the database under it.
 */
export const acquireDataDirLock = (
  dir: string
): Effect.Effect<LockOwner, DataDirInUse | DataDirLockError, Scope.Scope> => {
  const absolute = path.resolve(dir)
  const file = path.join(absolute, lockFileName)
  return Effect.acquireRelease(
    Effect.suspend(() => {
      const me: LockOwner = { pid: process.pid, hostname: os.hostname(), startedAt: new Date().toISOString() }
      const text = JSON.stringify(me)
      const attempt = Effect.try({
        try: () => {
          fs.mkdirSync(absolute, { recursive: true, mode: 0o700 })
          closeToOthers(absolute)
          return tryAcquire(file, me, text)
        },
        catch: (cause) =>
          new DataDirLockError({ dir: absolute, message: `Could not lock ${absolute}: ${String(cause)}`, cause })
      })
      return Effect.flatMap(attempt, (result): Effect.Effect<LockOwner, DataDirInUse> =>
        result._tag === "Acquired" ? Effect.succeed(me) : Effect.fail(
          new DataDirInUse({
            dir: absolute,
            ...result.owner,
            message: `Data directory ${absolute} is in use by process ${result.owner.pid}` +
              (result.owner.hostname === me.hostname ? "" : ` on host ${result.owner.hostname}`) +
              ` (started ${result.owner.startedAt}). Stop it first, or use another --data-dir` +
              (result.owner.hostname === me.hostname ? "." : `; if that host is gone for good, delete ${file}.`)
          })
        ))
    }),
    (me) => Effect.ignore(Effect.try(() => release(file, me)), { log: "Warn" })
  )
}

/**
 * Locks `dir`, then opens PGlite on `<dir>/pgdata`, keeping the lock beside the
 * database rather than inside PGlite's own files. The database closes before the
 * lock is released.
 */
export const layerPgliteDataDir = (dir: string): Layer.Layer<
  SqlClient.SqlClient | Listener,
  DataDirInUse | DataDirLockError | SqlError.SqlError
> =>
  Layer.effectContext(
    Effect.gen(function*() {
      // Same scope for both, so finalizers run in reverse: PGlite is closed (and
      // flushed) before another process can see the lock disappear.
      yield* acquireDataDirLock(dir)
      const db = yield* openPglite(databaseDirOf(dir), "empty store")
      const context = yield* pgliteContext(db)
      // Opened last, so closed first: no backup is asked for once the database starts closing.
      yield* serveBackups(dir, backupServedStore(db, Context.get(context, SqlClient.SqlClient), databaseDirOf(dir)))
      return context
    })
  ).pipe(Layer.provide(Reactivity.layer))
