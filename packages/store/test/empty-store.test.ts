import { assert, it } from "@effect/vitest"
import type { PGlite } from "@electric-sql/pglite"
import { Effect } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { migrateDatabase, migrations } from "../src/migrations/index.ts"
import { emptyStore, emptyStoreName } from "../src/sql/empty-store.ts"
import { makePgliteClient, openPglite } from "../src/sql/pglite-client.ts"

/** What the migrations define, read from the catalogs, and when the last of them was applied. */
const schemaOf = (db: PGlite) =>
  Effect.gen(function*() {
    const sql = yield* makePgliteClient(db)
    yield* Effect.provideService(migrateDatabase, SqlClient.SqlClient, sql)
    const read = (query: string) => Effect.map(sql.unsafe<Record<string, unknown>>(query), (rows) => rows.map((row) => Object.values(row).join(" | ")))
    const schema = {
      columns: yield* read(`SELECT table_name, column_name, data_type, column_default, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' ORDER BY 1, 2`),
      indexes: yield* read(`SELECT indexdef FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
      constraints: yield* read(`SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace ORDER BY 1, 2`),
      triggers: yield* read(`SELECT pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`),
      functions: yield* read(`SELECT pg_get_functiondef(oid) FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`),
      sequences: yield* read(`SELECT sequencename, last_value FROM pg_sequences WHERE schemaname = 'public' ORDER BY 1`),
      extensions: yield* read(`SELECT extname FROM pg_extension ORDER BY 1`),
      migrations: yield* read(`SELECT migration_id, name FROM hedgerow_migrations ORDER BY 1`),
      rows: yield* read(`SELECT relname, n_live_tup FROM pg_stat_user_tables WHERE n_live_tup > 0 AND relname <> 'hedgerow_migrations' ORDER BY 1`)
    }
    const [migrated] = yield* sql<{ at: number }>`SELECT (extract(epoch FROM max(created_at)) * 1000)::float8 AS at FROM hedgerow_migrations`
    return { schema, migratedAt: migrated!.at }
  }).pipe(Effect.provide(Reactivity.layer))

it("is in the build, named by PGlite's version and a fingerprint of the migrations", () => {
  assert.match(emptyStoreName(), /^pglite-\d+\.\d+\.\d+-[0-9a-f]{16}\.tar\.gz$/)
  assert.instanceOf(emptyStore(), Blob)
})

it.live("makes new stores, in memory and in a data dir, that hold what initdb and the migrations would make", () =>
  Effect.gen(function*() {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-empty-store-"))
    yield* Effect.addFinalizer(() => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true })))
    const opened = Date.now()
    // The long way, as PGlite makes a database when not asked for the empty store.
    const longWay = yield* schemaOf(yield* openPglite(undefined))
    assert.isAtLeast(longWay.migratedAt, opened)
    assert.strictEqual(longWay.schema.migrations.length, Object.keys(migrations).length)
    for (const [part, found] of Object.entries(longWay.schema)) if (part !== "rows") assert.isNotEmpty(found, part)
    for (const dir of [undefined, path.join(dataDir, "pgdata")]) {
      const copy = yield* schemaOf(yield* openPglite(dir, "empty store"))
      assert.deepStrictEqual(copy.schema, longWay.schema, dir ?? "memory")
      // Migrated when the package was built, not now.
      assert.isBelow(copy.migratedAt, opened, dir ?? "memory")
    }
  }).pipe(Effect.scoped), 60_000)
