import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Command, Flag } from "effect/cli"
import * as path from "node:path"
import { dataDirFlag } from "../local.ts"
import { emit, jsonFlag, table } from "../output.ts"
import { loadStore } from "../packages.ts"
import { readBackupFile } from "./backup.ts"

/**
 * The road from the embedded store to PostgreSQL: the store of a data directory (or of a backup file)
 * copied whole into an empty PostgreSQL database, after which `hedgerow serve --database-url` serves it
 * with the same keys, tokens and ids.
 */
export const migrateToPostgres = Command.make(
  "migrate-to-postgres",
  {
    dataDir: dataDirFlag,
    from: Flag.String("from").pipe(
      Flag.withDescription("Copy this backup file (from `hedgerow admin backup`) instead of the store in --data-dir"),
      Flag.optional
    ),
    databaseUrl: Flag.String("database-url").pipe(
      Flag.withDescription("The empty PostgreSQL database to move the store into (env DATABASE_URL)"),
      Flag.withFallbackConfig(Config.String("DATABASE_URL"))
    ),
    json: jsonFlag
  },
  ({ dataDir, databaseUrl, from, json }) =>
    Effect.gen(function*() {
      const { backupDataDir, copyToPostgres } = yield* loadStore
      const source = yield* Option.match(from, {
        onNone: () =>
          Effect.map(backupDataDir(dataDir), (made) => ({
            bytes: made.bytes,
            source: path.resolve(dataDir),
            served: made.from === "running process"
          })),
        onSome: (file) => Effect.map(readBackupFile(file), (bytes) => ({ bytes, source: path.resolve(file), served: false }))
      })
      const copied = yield* copyToPostgres(source.bytes, databaseUrl.trim())
      return { source: source.source, source_was_serving: source.served, ...copied }
    }).pipe(Effect.flatMap(emit(json, (done) =>
      [
        `Moved the store of ${done.source} to ${done.database}: ${done.tables.reduce((n, t) => n + t.rows, 0)} rows in ` +
        `${done.tables.length} tables, ${done.sequences} sequences set.`,
        table(done.tables, ["table", "rows"]),
        ...(done.source_was_serving
          ? [`A server was running on ${done.source}: what it wrote after the copy was taken is not in PostgreSQL; stop it before moving for good.`]
          : []),
        `Serve it with: hedgerow serve --database-url <the same URL>`
      ].join("\n")
    )))
).pipe(Command.withDescription(
  "Move the embedded store (--data-dir, or a backup file with --from) into an empty PostgreSQL database, every row, id and sequence"
))
