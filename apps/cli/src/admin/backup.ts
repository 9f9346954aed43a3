import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Command, Flag } from "effect/cli"
import * as fs from "node:fs"
import * as path from "node:path"
import { dataDirFlag, databaseUrlFlag } from "../local.ts"
import { emit, jsonFlag, UsageError } from "../output.ts"
import { loadStore } from "../packages.ts"

/**
 * Backups of the embedded store: `backup` while a server runs on it (the server makes it, between two
 * transactions) or while none does, and `restore` into a new data directory. A PostgreSQL database is
 * backed up with PostgreSQL's own tools.
 */

/** The default file name: the time in UTC, sortable, with no character a shell or a file system minds. */
const defaultFile = () => `hedgerow-backup-${new Date().toISOString().replace(/[:.]/g, "-")}.tar.gz`

/**
 * Writes `bytes` to `file` whole or not at all, readable by its owner only (a backup holds the hashes of
 * keys and sessions), and never over an existing file: written under another name, then linked into place.
 */
const writeNew = (file: string, bytes: Uint8Array) =>
  Effect.tryPromise({
    try: async () => {
      const draft = `${file}.${process.pid}.partial`
      try {
        await fs.promises.writeFile(draft, bytes, { mode: 0o600, flag: "wx", flush: true })
        await fs.promises.link(draft, file)
      } finally {
        await fs.promises.rm(draft, { force: true })
      }
    },
    catch: (error) =>
      new UsageError({
        message: (error as NodeJS.ErrnoException).code === "EEXIST"
          ? `${file} already exists; a backup never overwrites a file`
          : `cannot write ${file}: ${(error as Error).message}`
      })
  })

/** A backup file's bytes, for `restore` or a move to PostgreSQL. */
export const readBackupFile = (file: string) =>
  Effect.tryPromise({
    try: () => fs.promises.readFile(file),
    catch: (error) => new UsageError({ message: `cannot read ${file}: ${(error as Error).message}` })
  })

export const backup = Command.make(
  "backup",
  {
    dataDir: dataDirFlag,
    databaseUrl: databaseUrlFlag,
    out: Flag.String("out").pipe(
      Flag.withDescription("File to write (default hedgerow-backup-<time>.tar.gz here); never overwritten"),
      Flag.optional
    ),
    json: jsonFlag
  },
  ({ dataDir, databaseUrl, json, out }) =>
    Effect.gen(function*() {
      // With a database URL in the environment, the store in use is that one, and a data directory
      // nearby may be one it was moved from: backing that up instead would only look like a backup.
      if (Option.isSome(Option.filter(databaseUrl, (url) => url.trim() !== ""))) {
        return yield* new UsageError({
          message: "backup copies the embedded store; the store is on PostgreSQL here (--database-url or DATABASE_URL), " +
            "which PostgreSQL's own tools back up (pg_dump)"
        })
      }
      const { backupDataDir } = yield* loadStore
      const file = path.resolve(Option.getOrElse(out, defaultFile))
      if (fs.existsSync(file)) return yield* new UsageError({ message: `${file} already exists; a backup never overwrites a file` })
      const made = yield* backupDataDir(dataDir)
      yield* writeNew(file, made.bytes)
      return { file, bytes: made.bytes.byteLength, data_dir: path.resolve(dataDir), made_by: made.from }
    }).pipe(Effect.flatMap(emit(json, (done) =>
      `Backed up ${done.data_dir} (made by the ${done.made_by}) to ${done.file}, ${done.bytes} bytes; ` +
      `restore it with: hedgerow admin restore --from ${done.file} --data-dir <new directory>`
    )))
).pipe(Command.withDescription(
  "Back up the embedded store in --data-dir to a file, while a server runs on it (it makes the backup) or not"
))

export const restore = Command.make(
  "restore",
  {
    from: Flag.String("from").pipe(Flag.withDescription("The backup file `hedgerow admin backup` wrote")),
    dataDir: dataDirFlag,
    json: jsonFlag
  },
  ({ dataDir, from, json }) =>
    Effect.gen(function*() {
      const { restoreDataDir } = yield* loadStore
      return yield* restoreDataDir(yield* readBackupFile(from), dataDir)
    }).pipe(Effect.flatMap(emit(json, (done) =>
      `Restored ${from} into ${done.dir} (store at migration ${done.migration}); serve it with: hedgerow serve --data-dir ${done.dir}`
    )))
).pipe(Command.withDescription("Make a new embedded store in --data-dir (absent or empty) from a backup file"))
