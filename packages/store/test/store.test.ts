import { assert, layer } from "@effect/vitest"
import { Authentication, Bootstrap, DEFAULT_SETTINGS, Timestamp } from "@hedgerow/core"
import { OrganizationRepository, ProjectRepository, Transactions, UserRepository } from "@hedgerow/core/ports"
import { Effect, Exit, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow, migrations } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

/** A timestamp column as the repositories read it: through core's Timestamp schema. */
const ts = Schema.decodeUnknownSync(Timestamp)

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000 })(`the store under core on ${backend.name}`, (it) => {
  it.effect("timestamps keep their microseconds, before and after 2000, whatever the session's zone", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [row] = yield* sql<{ a: string; b: string; c: string }>`
        SELECT '2020-01-02 03:04:05.123456+00'::timestamptz AS a, '1999-12-31 23:59:59.999999+00'::timestamptz AS b,
               '2021-06-01 12:00:00.000001+02'::timestamptz AS c`
      assert.deepStrictEqual([ts(row!.a), ts(row!.b), ts(row!.c)], [
        "2020-01-02T03:04:05.123456Z",
        "1999-12-31T23:59:59.999999Z",
        "2021-06-01T10:00:00.000001Z"
      ])
      // A timestamp sent back as a parameter keeps them too.
      const [echo] = yield* sql<{ t: string; d: string }>`
        SELECT ${"2020-01-02T03:04:05.123456Z"}::timestamptz AS t, ${new Date("1999-12-31T23:59:59.999Z")}::timestamptz AS d`
      assert.deepStrictEqual([ts(echo!.t), ts(echo!.d)], ["2020-01-02T03:04:05.123456Z", "1999-12-31T23:59:59.999000Z"])
    }))

  it.effect("records each migration once", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ name: string }>`SELECT name FROM hedgerow_migrations ORDER BY migration_id`
      assert.deepStrictEqual(rows.map((r) => r.name), Object.keys(migrations).map((id) => id.replace(/^\d+_/, "")))
    }))

  it.effect("a failed transaction leaves no trace in any table", () =>
    Effect.gen(function*() {
      const boot = yield* (yield* Bootstrap).run({ email: "tx@example.com" })
      const projects = yield* ProjectRepository
      const transactions = yield* Transactions
      const before = yield* projects.list({ organizations: [boot.organization_id], ids: null }, { limit: 100, offset: 0 })
      const outcome = yield* transactions.run(
        projects.insert({ organization_id: boot.organization_id, name: "doomed", api_token: "phc_doomed", settings: DEFAULT_SETTINGS }).pipe(
          Effect.andThen(Effect.fail("boom" as const))
        )
      ).pipe(Effect.exit)
      assert.isTrue(Exit.isFailure(outcome))
      const after = yield* projects.list({ organizations: [boot.organization_id], ids: null }, { limit: 100, offset: 0 })
      assert.strictEqual(after.count, before.count)
    }))

  it.effect("treats e-mail addresses case-insensitively and keeps them unique", () =>
    Effect.gen(function*() {
      const users = yield* UserRepository
      const taken = yield* users.insert({ email: "TX@Example.com", first_name: "", last_name: "" }).pipe(Effect.flip)
      assert.strictEqual(taken._tag, "EmailTaken")
      const found = yield* users.findByEmail("tx@EXAMPLE.com")
      assert.isTrue(Option.isSome(found))
    }))

  it.effect("keeps organization slugs unique by adding a suffix", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationRepository
      const first = yield* organizations.insert({ name: "Same", slug: "same" })
      const second = yield* organizations.insert({ name: "Same", slug: "same" })
      assert.strictEqual(first.slug, "same")
      assert.match(second.slug, /^same-[0-9a-z]{6}$/)
    }))

  it.effect("concurrent creates in one organization all land, with distinct ids", () =>
    Effect.gen(function*() {
      const organizations = yield* OrganizationRepository
      const org = yield* organizations.insert({ name: "Busy", slug: "busy" })
      const projects = yield* ProjectRepository
      const created = yield* Effect.forEach(
        Array.from({ length: 20 }, (_, i) => i),
        (i) => projects.insert({ organization_id: org.id, name: `p${i}`, api_token: `phc_concurrent_${i}`, settings: DEFAULT_SETTINGS }),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(new Set(created.map((p) => p.id)).size, 20)
      const page = yield* projects.list({ organizations: [org.id], ids: null }, { limit: 5, offset: 5 })
      assert.strictEqual(page.count, 20)
      assert.deepStrictEqual(page.results.map((p) => p.id), [...created.map((p) => p.id)].sort((a, b) => a - b).slice(5, 10))
    }))

  it.effect("the first project is the one with the lowest id, whichever organization holds it", () =>
    Effect.gen(function*() {
      const projects = yield* ProjectRepository
      const organizations = yield* OrganizationRepository
      const org = yield* organizations.insert({ name: "Later", slug: "later" })
      yield* projects.insert({ organization_id: org.id, name: "later", api_token: "phc_later", settings: DEFAULT_SETTINGS })
      const sql = yield* SqlClient.SqlClient
      const [lowest] = yield* sql<{ id: number }>`SELECT min(id) AS id FROM projects`
      const first = yield* projects.first
      assert.strictEqual(Option.getOrThrow(first).id, lowest!.id)
    }))

  it.effect("authenticates by hash and refuses unknown keys", () =>
    Effect.gen(function*() {
      const auth = yield* Authentication
      const failure = yield* auth.authenticate("phx_unknown").pipe(Effect.flip)
      assert.include(failure, { _tag: "AuthenticationError", code: "authentication_failed" })
      const missing = yield* auth.authenticate(undefined).pipe(Effect.flip)
      assert.include(missing, { _tag: "AuthenticationError", code: "not_authenticated" })
    }))

  it.effect("serves key lookups and project lists from indexes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const plan = (query: string) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`SET LOCAL enable_seqscan = off`
          const rows = yield* sql.unsafe<{ "QUERY PLAN": string }>(`EXPLAIN ${query}`)
          return rows.map((r) => r["QUERY PLAN"]).join("\n")
        }))
      assert.match(yield* plan("SELECT * FROM personal_api_keys WHERE secure_value = 'x'"), /Index Scan using personal_api_keys_secure_value_key/)
      assert.match(
        yield* plan("SELECT * FROM projects WHERE organization_id = '00000000-0000-4000-8000-000000000000' ORDER BY id LIMIT 10"),
        /projects_organization_idx/
      )
      assert.match(yield* plan("SELECT * FROM memberships WHERE user_id = 1"), /memberships_user_idx/)
    }))
}))
