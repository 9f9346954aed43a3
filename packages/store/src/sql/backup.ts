import type { PGlite } from "@electric-sql/pglite"
import { Data, Effect } from "effect"
import type { SqlClient } from "effect/sql"
import { promisify } from "node:util"
import * as zlib from "node:zlib"
import { archiveDirectory } from "./directory-archive.ts"

/**
 * A backup of the embedded store is PGlite's data directory as a tar archive, gzipped: the whole
 * database (every table, index, sequence and the migrations applied), which PGlite can start from.
 */

/** A backup could not be made or read; the message says why, for the operator. */
export class BackupFailed extends Data.TaggedError("BackupFailed")<{ readonly message: string }> {}

const gunzipAsync = promisify(zlib.gunzip)

/**
 * The files of the database in `databaseDir` as a tar archive, after a checkpoint has written every
 * changed page to them. PGlite writes straight to those files, so with no statement running they hold
 * the whole database; they are read asynchronously, leaving the event loop free meanwhile.
 */
const archive = (db: PGlite, databaseDir: string) =>
  Effect.tryPromise(async () => {
    await db.exec("CHECKPOINT")
    return archiveDirectory(databaseDir)
  })

/** The archive's parts compressed one after the other on libuv's threads, off the event loop. */
const compressed = (parts: ReadonlyArray<Uint8Array>) =>
  Effect.tryPromise(() =>
    new Promise<Uint8Array>((resolve, reject) => {
      const stream = zlib.createGzip()
      const out: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => out.push(chunk))
      stream.once("end", () => resolve(Buffer.concat(out)))
      stream.once("error", reject)
      for (const part of parts) stream.write(part)
      stream.end()
    })
  )

const failed = (cause: unknown) => new BackupFailed({ message: `could not back up the store: ${messageOf(cause)}` })

/**
 * The backup of a PGlite the store's client serves, taken when no statement or transaction of the store
 * runs: that client lets one lease at a time use the database, and a transaction holds its lease from
 * BEGIN to COMMIT, so while this holds one nothing is half-written. The checkpoint makes a copy that
 * needs no recovery when it starts. Compression happens after the lease is given back, so the store
 * pauses only for the copy of its files.
 */
export const backupServedStore = (
  db: PGlite,
  sql: SqlClient.SqlClient,
  databaseDir: string
): Effect.Effect<Uint8Array, BackupFailed> =>
  Effect.scoped(Effect.andThen(sql.reserve, archive(db, databaseDir))).pipe(Effect.flatMap(compressed), Effect.mapError(failed))

/** The backup of a PGlite on `databaseDir` that nothing else uses. */
export const backupUnsharedStore = (db: PGlite, databaseDir: string): Effect.Effect<Uint8Array, BackupFailed> =>
  archive(db, databaseDir).pipe(Effect.flatMap(compressed), Effect.mapError(failed))

/** The archive inside a backup file; refuses what is not gzip. */
export const unpackBackup = (bytes: Uint8Array): Effect.Effect<Uint8Array<ArrayBuffer>, BackupFailed> =>
  Effect.tryPromise({
    try: async () => new Uint8Array(await gunzipAsync(bytes)),
    catch: (cause) => new BackupFailed({ message: `not a Hedgerow backup (a gzipped archive): ${messageOf(cause)}` })
  })

export const messageOf = (cause: unknown): string => {
  const inner = (cause as { cause?: unknown })?.cause
  const error = cause instanceof Error && cause.name === "UnknownError" && inner !== undefined ? inner : cause
  return error instanceof Error ? error.message : String(error)
}
