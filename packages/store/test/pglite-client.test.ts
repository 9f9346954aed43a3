import { assert, describe, expect, it, layer } from "@effect/vitest"
import { PGlite } from "@electric-sql/pglite"
import { PgTypes } from "@effect/sql-pg"
import { Effect, Fiber, Layer, Stream } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { layerPglite } from "../src/sql/pglite-client.ts"
import { preparedStatements } from "../src/sql/pglite-statements.ts"

// Runs through `.unprepared` with no params, i.e. PGlite's `exec`, the same way a
// multi-statement migration file would.
const Schema = Layer.effectDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL UNIQUE);
    CREATE TABLE docs (id serial PRIMARY KEY, title text NOT NULL, body jsonb NOT NULL,
                       created_at timestamptz NOT NULL DEFAULT now());
    CREATE TABLE tags (id serial PRIMARY KEY, item_id int NOT NULL REFERENCES items (id), label text NOT NULL);
  `.unprepared
}))

const TestDb = Schema.pipe(Layer.provideMerge(layerPglite()))

const names = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM items ORDER BY name`
  return rows.map((r) => r.name)
})

const reset = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`TRUNCATE items, docs, tags RESTART IDENTITY`.unprepared
})

const reasonOf = <A, R>(effect: Effect.Effect<A, SqlError.SqlError, R>) =>
  Effect.map(Effect.flip(effect), (e) => {
    assert.isTrue(SqlError.isSqlError(e))
    return e.reason
  })

describe("prepared statements", () => {
  it("two clients of one session keep their statements apart", async () => {
    const db = await PGlite.create()
    try {
      const [one, two] = [preparedStatements(db), preparedStatements(db)]
      const first = await one("SELECT $1::int AS n", [1], [], "object")
      const second = await two("SELECT $1::int + 1 AS n", [1], [], "object")
      expect([first.rows, second.rows]).toEqual([[{ n: 1 }], [{ n: 2 }]])
    } finally {
      await db.close()
    }
  })
})

describe("pglite-client", () => {
  // Real clock: the transaction tests need overlapping sleeps.
  layer(TestDb, { excludeTestServices: true })("PGlite SqlClient", (it) => {
    it.effect("driver name and postgres placeholders", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        assert.strictEqual(sql.driver, "pglite")
        const [query, params] = sql`SELECT ${1} AS a, ${"x"} AS b`.compile()
        assert.strictEqual(query, "SELECT $1 AS a, $2 AS b")
        assert.deepStrictEqual(params, [1, "x"])
      }))

    it.effect("a concurrent fiber never runs inside another fiber's transaction", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const a = yield* Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "a" })}`
          yield* Effect.sleep("200 millis")
          return yield* Effect.fail("boom" as const)
        }).pipe(sql.withTransaction, Effect.flip, Effect.forkChild)
        // Both start while A's transaction is open and sleeping.
        yield* Effect.sleep("50 millis")
        const outside = yield* Effect.forkChild(sql`INSERT INTO items ${sql.insert({ name: "b-outside" })}`)
        const ownTx = yield* Effect.forkChild(
          sql.withTransaction(sql`INSERT INTO items ${sql.insert({ name: "b-own-tx" })}`)
        )
        assert.strictEqual(yield* Fiber.join(a), "boom")
        yield* Fiber.join(outside)
        yield* Fiber.join(ownTx)
        assert.deepStrictEqual(yield* names, ["b-outside", "b-own-tx"])
      }))

    it.effect("nested transactions use savepoints", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const inner = yield* Effect.gen(function*() {
          yield* sql`INSERT INTO items ${sql.insert({ name: "outer" })}`
          const caught = yield* Effect.gen(function*() {
            yield* sql`INSERT INTO items ${sql.insert({ name: "inner" })}`
            return yield* Effect.fail("inner failed" as const)
          }).pipe(sql.withTransaction, Effect.flip)
          yield* sql`INSERT INTO items ${sql.insert({ name: "outer-after" })}`
          return caught
        }).pipe(sql.withTransaction)
        assert.strictEqual(inner, "inner failed")
        assert.deepStrictEqual(yield* names, ["outer", "outer-after"])
      }))

    it.effect("a transaction whose statement failed does not report a successful commit", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO items ${sql.insert({ name: "taken" })}`
        const reason = yield* reasonOf(
          Effect.gen(function*() {
            yield* sql`INSERT INTO items ${sql.insert({ name: "lost" })}`
            // Swallowing the error leaves Postgres in an aborted transaction.
            yield* Effect.ignore(sql`INSERT INTO items ${sql.insert({ name: "taken" })}`)
          }).pipe(sql.withTransaction)
        )
        assert.strictEqual(reason._tag, "UnknownError")
        assert.strictEqual(reason.operation, "commit")
        assert.deepStrictEqual(yield* names, ["taken"])
      }))

    it.effect("unique violation maps to UniqueViolation with the constraint name", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO items ${sql.insert({ name: "dup" })}`
        const reason = yield* reasonOf(sql`INSERT INTO items ${sql.insert({ name: "dup" })}`)
        assert.strictEqual(reason._tag, "UniqueViolation")
        if (reason._tag === "UniqueViolation") assert.strictEqual(reason.constraint, "items_name_key")
        assert.isFalse(reason.isRetryable)
        // catchTag works on the outer error, as with @effect/sql-pg.
        const handled = yield* sql`INSERT INTO items ${sql.insert({ name: "dup" })}`.pipe(
          Effect.as("inserted"),
          Effect.catchTag("SqlError", (e) => Effect.succeed(e.reason._tag))
        )
        assert.strictEqual(handled, "UniqueViolation")
      }))

    it.effect("foreign key, not-null and syntax errors get their reasons", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const fk = yield* reasonOf(sql`INSERT INTO tags ${sql.insert({ item_id: 424242, label: "x" })}`)
        assert.strictEqual(fk._tag, "ConstraintError")
        const notNull = yield* reasonOf(sql`INSERT INTO items (name) VALUES (NULL)`)
        assert.strictEqual(notNull._tag, "ConstraintError")
        const syntax = yield* reasonOf(sql`SELEC 1`)
        assert.strictEqual(syntax._tag, "SqlSyntaxError")
        const missing = yield* reasonOf(sql`SELECT * FROM no_such_table`)
        assert.strictEqual(missing._tag, "SqlSyntaxError")
        assert.match(missing.message ?? "", /no_such_table/)
      }))

    it.effect("multi-statement unprepared SQL runs every statement", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql.unsafe(`
          INSERT INTO items (name) VALUES ('m1');
          INSERT INTO items (name) VALUES ('m2');
          SELECT count(*)::int AS n FROM items;
        `).unprepared
        assert.deepStrictEqual(rows, [{ n: 2 }])
        assert.deepStrictEqual(yield* names, ["m1", "m2"])
      }))

    it.effect("sql.insert of many rows, jsonb round-trip, sql.in, sql.update, timestamptz as text", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const body = { flags: ["a", "b"], nested: { n: 1.5, ok: true, none: null }, text: "it's \"quoted\"" }
        const inserted = yield* sql<{ id: number; title: string }>`INSERT INTO docs ${
          sql.insert([{ title: "one", body }, { title: "two", body: [1, 2, 3] }, { title: "three", body: {} }])
        } RETURNING id, title`
        assert.deepStrictEqual(inserted.map((r) => r.title), ["one", "two", "three"])

        const picked = yield* sql<{ title: string; body: unknown; created_at: unknown }>`
          SELECT title, body, created_at FROM docs WHERE ${sql.in("title", ["one", "two"])} ORDER BY id`
        assert.deepStrictEqual(picked.map((r) => r.body), [body, [1, 2, 3]])
        // Text keeps the microseconds a Date would drop (sql/timestamps.ts).
        assert.match(String(picked[0]!.created_at), /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(\.\d{1,6})?\+00$/)

        yield* sql`UPDATE docs SET ${sql.update({ title: "uno", body: { v: 2 } })} WHERE id = ${inserted[0]!.id}`
        const [updated] = yield* sql<{ title: string; v: number }>`
          SELECT title, (body->>'v')::int AS v FROM docs WHERE id = ${inserted[0]!.id}`
        assert.deepStrictEqual(updated, { title: "uno", v: 2 })

        // A typed parameter from @effect/sql-pg's PgTypes is unwrapped, keeping its type.
        // A JSON string scalar needs the wrapper: a bare string is taken as JSON text.
        const [typed] = yield* sql<{ kind: string; s: unknown }>`
          SELECT jsonb_typeof(${PgTypes.jsonb({ k: 1 })}) AS kind, ${PgTypes.jsonb("it's")}::jsonb AS s`
        assert.deepStrictEqual(typed, { kind: "object", s: "it's" })
      }))

    it.effect("parameters are bound, not spliced into the SQL", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const nasty = `O'Brien'); DROP TABLE items; -- \\ $1 "x"`
        yield* sql`INSERT INTO items (name) VALUES (${nasty})`
        const [row] = yield* sql<{ name: string }>`SELECT name FROM items WHERE name = ${nasty}`
        assert.strictEqual(row!.name, nasty)
      }))

    it.effect("values and stream", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO items ${sql.insert([{ name: "v1" }, { name: "v2" }])}`
        const values = yield* sql`SELECT id, name FROM items ORDER BY id`.values
        assert.deepStrictEqual(values, [[1, "v1"], [2, "v2"]])
        const streamed = yield* Stream.runCollect(sql<{ name: string }>`SELECT name FROM items ORDER BY id`.stream)
        assert.deepStrictEqual(Array.from(streamed, (r) => r.name), ["v1", "v2"])
      }))

    it.effect("a statement is prepared once and run by name, with its parameters' types as PostgreSQL says", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        const byName = (name: string) => sql<{ id: number }>`SELECT id FROM items WHERE name = ${name}`
        yield* sql`INSERT INTO items ${sql.insert([{ name: "p1" }, { name: "p2" }])}`
        assert.deepStrictEqual(yield* byName("p1"), [{ id: 1 }])
        assert.deepStrictEqual(yield* byName("p2"), [{ id: 2 }])
        const held = yield* sql<{ count: number }>`
          SELECT count(*)::int AS count FROM pg_prepared_statements
          WHERE statement = 'SELECT id FROM items WHERE name = $1' AND NOT from_sql`
        assert.deepStrictEqual(held, [{ count: 1 }])
        // A number for a text column and a date for a timestamp are serialized by the inferred types.
        yield* sql`INSERT INTO docs (title, body, created_at) VALUES (${42}, ${PgTypes.jsonb({ a: [1] })}, ${new Date(0)})`
        const [doc] = yield* sql<{ title: string; body: unknown; created_at: string }>`SELECT title, body, created_at FROM docs`
        assert.deepStrictEqual([doc!.title, doc!.body, Date.parse(doc!.created_at)], ["42", { a: [1] }, 0])
      }))

    it.effect("a prepared statement whose table changed, or that was dropped, is prepared again", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        yield* sql`INSERT INTO items (name) VALUES ('t1')`
        const all = sql<Record<string, unknown>>`SELECT * FROM items ORDER BY id LIMIT 1`
        assert.deepStrictEqual(Object.keys((yield* all)[0]!), ["id", "name"])
        // Its rows would change shape under the prepared statement (0A000), then it is gone (26000).
        yield* sql`ALTER TABLE items ADD COLUMN extra int DEFAULT 7`.unprepared
        assert.deepStrictEqual((yield* all)[0], { id: 1, name: "t1", extra: 7 })
        yield* sql`DEALLOCATE ALL`.unprepared
        assert.deepStrictEqual((yield* all)[0], { id: 1, name: "t1", extra: 7 })
        // Inside a transaction the failure has ended it: the caller is told so, and the next run, after
        // the transaction, is prepared afresh.
        yield* sql`ALTER TABLE items DROP COLUMN extra`.unprepared
        const failed = yield* Effect.flip(sql.withTransaction(all))
        assert.strictEqual(failed.reason._tag, "UnknownError")
        assert.include(failed.message, "cached plan must not change result type")
        assert.deepStrictEqual((yield* all)[0], { id: 1, name: "t1" })
      }))

    it.effect("at most 256 statements stay prepared; one let go is prepared again when it comes back", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        // Each a statement of its own text.
        const numbered = (n: number) => sql<{ n: number; text: string }>`SELECT ${n}::int AS n, ${sql.literal(`'n${n}'`)} AS text`
        for (let n = 0; n < 300; n++) assert.deepStrictEqual(yield* numbered(n), [{ n, text: `n${n}` }])
        const [{ count }] = yield* sql<{ count: number }>`SELECT count(*)::int AS count FROM pg_prepared_statements WHERE NOT from_sql`
        assert.isAtMost(count, 256)
        assert.deepStrictEqual(yield* numbered(0), [{ n: 0, text: "n0" }])
      }))

    it.effect("statements of long texts are bounded together, and one too long for keeping runs unkept", () =>
      Effect.gen(function*() {
        yield* reset
        const sql = yield* SqlClient.SqlClient
        // 4 KiB of text each: 100 of them would hold 400 KiB.
        const padded = (n: number, size: number) =>
          sql<{ n: number }>`SELECT ${n}::int AS n ${sql.literal(`/* ${String(n).padEnd(size, "x")} */`)}`
        for (let n = 0; n < 100; n++) assert.deepStrictEqual(yield* padded(n, 4096), [{ n }])
        const [{ text }] = yield* sql<{ text: number }>`
          SELECT coalesce(sum(length(statement)), 0)::int AS text FROM pg_prepared_statements WHERE NOT from_sql`
        assert.isAtMost(text, 256 * 1024)
        assert.deepStrictEqual(yield* padded(1, 20_000), [{ n: 1 }])
        const [{ long }] = yield* sql<{ long: number }>`
          SELECT count(*)::int AS long FROM pg_prepared_statements WHERE length(statement) > 16384`
        assert.strictEqual(long, 0)
      }))
  })
})
