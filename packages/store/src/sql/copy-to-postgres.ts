import { Context, Data, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { migrateDatabase } from "../migrations/index.ts"
import { BackupFailed, messageOf, unpackBackup } from "./backup.ts"
import { makePgliteClient, openPglite } from "./pglite-client.ts"
import { DatabaseUnavailable, displayUrl, layerPostgres, sqlErrorReason } from "./postgres-client.ts"
import { Reactivity } from "effect/reactivity"

/**
 * Moves an embedded store to a PostgreSQL database: every row of every table, with the same ids, and
 * every sequence where it stood, so that keys, SDK tokens, sessions and flag ids work on the new store
 * as they did on the old. The tables are read from the catalog, so a table a later migration adds is
 * copied without this file knowing it.
 */

/** The move was refused or failed; the target is left as it was. */
export class CopyToPostgresFailed extends Data.TaggedError("CopyToPostgresFailed")<{ readonly message: string }> {}

/** What was copied: each table with its rows, and the sequences set. */
export interface CopiedStore {
  readonly database: string
  readonly tables: ReadonlyArray<{ readonly table: string; readonly rows: number }>
  readonly sequences: number
}

/** Rows read and written at a time: a few hundred kilobytes of JSON for the widest rows. */
const ROWS_PER_INSERT = 500

/** The store's tables (and partitioned tables) in the current schema, by name. */
const tablesOf = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind IN ('r', 'p') ORDER BY c.relname`,
    (rows) => rows.map((row) => row.name)
  )

const sequencesOf = (sql: SqlClient.SqlClient) =>
  Effect.map(
    sql<{ name: string }>`SELECT c.relname AS name FROM pg_class c
      WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'S' ORDER BY c.relname`,
    (rows) => rows.map((row) => row.name)
  )

/**
 * A page of `table`'s rows after the row at `after` (in physical order, which a table read alone keeps),
 * each as JSON text in the form PostgreSQL reads back with json_populate_recordset, with where it lies.
 */
const pageOf = (sql: SqlClient.SqlClient, table: string, after: string) =>
  sql<{ at: string; row: string }>`SELECT ctid::text AS at, row_to_json(t)::text AS row FROM ${sql(table)} AS t
    WHERE ctid > ${after}::tid ORDER BY ctid LIMIT ${ROWS_PER_INSERT}`

const sameList = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((x, i) => x === b[i])

/**
 * Copies the store in `backup` (what `hedgerow admin backup` writes) into the empty PostgreSQL
 * database at `url`, in one transaction there: the store's migrations, then the rows, then the
 * sequences. The source is opened in memory and brought up to this version's migrations first, so both
 * sides have the same tables. A target that already holds a table is refused.
 */
export const copyToPostgres = (backup: Uint8Array, url: string): Effect.Effect<CopiedStore, CopyToPostgresFailed | BackupFailed | DatabaseUnavailable> =>
  Effect.scoped(
    Effect.gen(function*() {
      const archive = yield* unpackBackup(backup)
      const source = yield* makePgliteClient(yield* openPglite(undefined, new Blob([archive])))
      yield* Effect.provideService(migrateDatabase, SqlClient.SqlClient, source)
      // Built into this scope: the pool stays open until the copy is done.
      const target = Context.get(yield* Layer.build(layerPostgres({ url, poolSize: 2 })), SqlClient.SqlClient)

      const present = yield* target<{ name: string }>`SELECT table_schema || '.' || table_name AS name
        FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`
      if (present.length > 0) {
        return yield* new CopyToPostgresFailed({
          message: `${displayUrl(url)} already holds tables (${present.slice(0, 5).map((t) => t.name).join(", ")}` +
            `${present.length > 5 ? ", …" : ""}); move the store into an empty database`
        })
      }

      return yield* target.withTransaction(Effect.gen(function*() {
        yield* Effect.provideService(migrateDatabase, SqlClient.SqlClient, target)
        const tables = yield* tablesOf(source)
        const targetTables = yield* tablesOf(target)
        const sequences = yield* sequencesOf(source)
        if (!sameList(tables, targetTables) || !sameList(sequences, yield* sequencesOf(target))) {
          return yield* new CopyToPostgresFailed({
            message: `the store's tables (${tables.join(", ")}) differ from those this version makes ` +
              `(${targetTables.join(", ")}); move it with the hedgerow version that last served it`
          })
        }

        // Foreign keys are set aside while the rows go in, so that tables can be filled in any order
        // (users and projects refer to each other), then put back as they were, which checks every row.
        // Their names and definitions come from the target's own catalog.
        const foreignKeys = yield* target<{ table: string; name: string; definition: string }>`
          SELECT cl.relname AS table, co.conname AS name, pg_get_constraintdef(co.oid) AS definition
          FROM pg_constraint co JOIN pg_class cl ON cl.oid = co.conrelid
          WHERE co.contype = 'f' AND co.connamespace = current_schema()::regnamespace ORDER BY 1, 2`
        for (const key of foreignKeys) yield* target`ALTER TABLE ${target(key.table)} DROP CONSTRAINT ${target(key.name)}`
        // The rows are history, not changes: the tables' own triggers (the change feed's notices, the
        // webhooks' outbox) stay off while they go in, whatever order the tables come in.
        for (const table of tables) yield* target`ALTER TABLE ${target(table)} DISABLE TRIGGER USER`
        // What the migrations themselves wrote (their own record, any seeded row) gives way to the source's.
        for (const table of tables) yield* target`TRUNCATE ${target(table)}`

        const copied: Array<{ table: string; rows: number }> = []
        for (const table of tables) {
          // Identity columns keep their values; generated ones are computed again.
          const columns = yield* target<{ name: string }>`SELECT attname AS name FROM pg_attribute
            WHERE attrelid = format('%I', ${table}::text)::regclass AND attnum > 0 AND NOT attisdropped AND attgenerated = ''
            ORDER BY attnum`.pipe(Effect.map((list) => list.map((column) => target`${target(column.name)}`)))
          // Read a page at a time, so that a large table is never held whole.
          let read = 0
          for (let after = "(0,0)"; ;) {
            const page = yield* pageOf(source, table, after)
            if (page.length === 0) break
            const batch = `[${page.map((entry) => entry.row).join(",")}]`
            yield* target`INSERT INTO ${target(table)} (${target.csv(columns)}) OVERRIDING SYSTEM VALUE
              SELECT ${target.csv(columns)} FROM json_populate_recordset(NULL::${target(table)}, ${batch}::json)`
            read += page.length
            after = page.at(-1)!.at
          }
          const [counted] = yield* target<{ n: number }>`SELECT count(*)::integer AS n FROM ${target(table)}`
          if (counted?.n !== read) {
            return yield* new CopyToPostgresFailed({ message: `${table}: ${read} rows read, ${counted?.n ?? 0} written` })
          }
          copied.push({ table, rows: read })
        }
        for (const table of tables) yield* target`ALTER TABLE ${target(table)} ENABLE TRIGGER USER`
        for (const key of foreignKeys) {
          yield* target`ALTER TABLE ${target(key.table)} ADD CONSTRAINT ${target(key.name)} ${target.unsafe(key.definition)}`
        }

        for (const sequence of sequences) {
          const [state] = yield* source<{ value: string; called: boolean }>`
            SELECT last_value::text AS value, is_called AS called FROM ${source(sequence)}`
          yield* target`SELECT setval(format('%I', ${sequence}::text)::regclass, ${state!.value}::bigint, ${state!.called})`
        }
        return { database: displayUrl(url), tables: copied, sequences: sequences.length } satisfies CopiedStore
      }))
    })
  ).pipe(
    Effect.provide(Reactivity.layer),
    Effect.mapError((error) =>
      error instanceof CopyToPostgresFailed || error instanceof BackupFailed || error instanceof DatabaseUnavailable
        ? error
        : new CopyToPostgresFailed({
          message: `could not move the store to ${displayUrl(url)}: ${
            (error as { _tag?: string })._tag === "SqlError" ? sqlErrorReason(error) : messageOf(error)
          }`
        })
    )
  )
