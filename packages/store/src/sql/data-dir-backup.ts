import { Data, Effect } from "effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { BackupFailed, backupUnsharedStore, messageOf, unpackBackup } from "./backup.ts"
import { backupSocketPath, requestBackup } from "./backup-socket.ts"
import { acquireDataDirLock, databaseDirOf, DataDirInUse } from "./data-dir-lock.ts"
import { openPglite } from "./pglite-client.ts"

/** A backup of a data directory, and who made it: the process serving it, or this one on a stopped store. */
export interface DataDirBackup {
  readonly bytes: Uint8Array
  readonly from: "running process" | "stopped store"
}

/**
 * Backs up the embedded store in `dir`: asks the process that holds it over its socket, or, when none
 * does, locks the directory (so that no server starts on it meanwhile) and reads it here.
 */
export const backupDataDir = (dir: string): Effect.Effect<DataDirBackup, BackupFailed> =>
  requestBackup(dir).pipe(
    Effect.map((bytes): DataDirBackup => ({ bytes, from: "running process" })),
    Effect.catchTag("NoBackupSocket", () => backupStoppedDataDir(dir))
  )

const backupStoppedDataDir = (dir: string): Effect.Effect<DataDirBackup, BackupFailed> =>
  Effect.gen(function*() {
    const database = databaseDirOf(dir)
    if (!fs.existsSync(database)) {
      return yield* new BackupFailed({ message: `${path.resolve(dir)} holds no embedded store (no ${database})` })
    }
    const bytes = yield* Effect.scoped(
      Effect.gen(function*() {
        yield* acquireDataDirLock(dir)
        return yield* backupUnsharedStore(yield* openPglite(database), database)
      })
    )
    return { bytes, from: "stopped store" } satisfies DataDirBackup
  }).pipe(
    Effect.mapError((error) =>
      error instanceof BackupFailed
        ? error
        : error instanceof DataDirInUse
        ? new BackupFailed({
          message: `${error.dir} is in use by process ${error.pid}` +
            (error.hostname === "" ? "" : ` on host ${error.hostname}`) +
            `, which does not answer backup requests on ${backupSocketPath(dir)}; stop it, then back up again`
        })
        : new BackupFailed({ message: `could not back up ${path.resolve(dir)}: ${messageOf(error)}` })
    )
  )

/** The directory to restore into already holds something; a restore never overwrites. */
export class RestoreRefused extends Data.TaggedError("RestoreRefused")<{ readonly message: string }> {}

/** What a restore made: the directory, and the newest migration its store had. */
export interface Restored {
  readonly dir: string
  readonly migration: string
}

/**
 * Makes a new data directory `dir` from a backup: refused when `dir` exists and is not empty. The backup
 * is checked to be a Hedgerow store (it has the migrations' table) before the restore counts as done; on
 * any failure nothing is left in `dir`.
 */
export const restoreDataDir = (backup: Uint8Array, dir: string): Effect.Effect<Restored, BackupFailed | RestoreRefused> =>
  Effect.gen(function*() {
    const absolute = path.resolve(dir)
    const existed = fs.existsSync(absolute)
    if (existed && (!fs.statSync(absolute).isDirectory() || fs.readdirSync(absolute).length > 0)) {
      return yield* new RestoreRefused({
        message: `${absolute} is not an empty directory; restore into a new one (a restore never overwrites a store)`
      })
    }
    const archive = yield* unpackBackup(backup)
    const restore = Effect.scoped(
      Effect.gen(function*() {
        yield* acquireDataDirLock(absolute)
        const db = yield* openPglite(databaseDirOf(absolute), new Blob([archive]))
        const rows = yield* Effect.tryPromise(() =>
          db.query<{ name: string }>("SELECT name FROM hedgerow_migrations ORDER BY migration_id DESC LIMIT 1")
        )
        return { dir: absolute, migration: rows.rows[0]?.name ?? "none" } satisfies Restored
      })
    )
    return yield* restore.pipe(
      Effect.mapError((error) =>
        new BackupFailed({ message: `could not restore into ${absolute}: ${error instanceof Error ? messageOf(error) : String(error)}` })
      ),
      Effect.tapError(() =>
        Effect.sync(() => {
          if (existed) for (const entry of fs.readdirSync(absolute)) fs.rmSync(path.join(absolute, entry), { recursive: true, force: true })
          else fs.rmSync(absolute, { recursive: true, force: true })
        })
      )
    )
  })
