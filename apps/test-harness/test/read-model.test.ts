import { MemberService, PersonalApiKeyService, systemActor, UserService } from "@hedgerow/core"
import { Hedgerow } from "@hedgerow/store"
import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { firstDay } from "../src/scenarios/first-day.ts"
import { bannerOf, type FirstStart, firstStartOf } from "../src/serve-banner.ts"
import { httpTarget } from "../src/targets/http.ts"
import { type ServerProcess, startServerProcess } from "../src/targets/server-process.ts"
import type { Target } from "../src/targets/target.ts"
import { Browser, loggedIn, logout, SESSION, updateMe as UPDATE_ME } from "../src/scenarios/sessions-support.ts"
import { STALENESS_BOUND_MS, within } from "../src/within.ts"

const ME = { group: "identity", endpoint: "me" } as const
const ORGANIZATION = { group: "organizations", endpoint: "retrieve" } as const
const FLAGS = { group: "featureFlags", endpoint: "list" } as const
const MEMBER = { group: "members", endpoint: "destroy" } as const
const FLAG = { group: "featureFlags", endpoint: "retrieve" } as const
const FLAG_CREATE = { group: "featureFlags", endpoint: "create" } as const
const FLAG_UPDATE = { group: "featureFlags", endpoint: "update" } as const
const PROJECT = { group: "projects", endpoint: "retrieve" } as const
const DEFINITIONS = { group: "flagDefinitions", endpoint: "definitions" } as const
const EVALUATE = { group: "flagEvaluation", endpoint: "flags" } as const
const KEY_CREATE = { group: "personalApiKeys", endpoint: "create" } as const
const KEY_ROLL = { group: "personalApiKeys", endpoint: "roll" } as const
const KEY_DESTROY = { group: "personalApiKeys", endpoint: "destroy" } as const

/**
 * Each server process serves authentication from memory. A change made anywhere else (another server, an
 * admin command, SQL) must reach it within a second, and a lost notification connection must never
 * leave a revoked grant in memory.
 */
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("the in-memory read model across two hedgerow serve processes on one PostgreSQL database", () => {
    let database: { url: string; drop: () => Promise<void> } | undefined
    const servers: Array<ServerProcess> = []
    let tenant: FirstStart
    let a: Target
    let b: Target
    /** A third writer on the same database, as `hedgerow admin` is. */
    let admin: ManagedRuntime.ManagedRuntime<any, any>

    /** A new member of the tenant's organization and a `*` key of theirs. */
    const memberWithKey = (email: string) =>
      admin.runPromise(Effect.gen(function*() {
        const user = yield* UserService.use((s) => s.create(systemActor, { email }))
        yield* MemberService.use((s) => s.add(systemActor, tenant.organization, { email, level: 1 }))
        const key = yield* PersonalApiKeyService.use((s) =>
          s.create(systemActor, { email, scopes: ["*"], scoped_organizations: null, scoped_teams: null }))
        return { uuid: user.uuid, key: key.personal_api_key, id: key.id }
      }))
    const sql = (statement: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) =>
      admin.runPromise(Effect.flatMap(Effect.service(SqlClient.SqlClient), statement))
    const status = async (target: Target, ref: Parameters<Target["call"]>[0], key: string, params = {}) =>
      (await target.call(ref, { key, params })).status

    beforeAll(async () => {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_read_model")
      servers.push(await startServerProcess({ args: ["--database-url", database.url] }))
      tenant = firstStartOf(await bannerOf(servers[0]!))!
      servers.push(await startServerProcess({ args: ["--database-url", database.url] }))
      await bannerOf(servers[1]!)
      a = httpTarget("A", servers[0]!.url)
      b = httpTarget("B", servers[1]!.url)
      admin = ManagedRuntime.make(Hedgerow.layer({ databaseUrl: database.url, poolSize: 2 }))
    }, 60_000)

    afterAll(async () => {
      await Promise.all(servers.map((server) => server.stop()))
      await admin?.dispose()
      await database?.drop()
    })

    it("a key deleted by another writer is refused by both servers within a second", async () => {
      const member = await memberWithKey("deleted-key@example.com")
      // Warm both servers' memory with the key.
      for (const target of [a, b, a, b]) expect(await status(target, ME, member.key)).toBe(200)
      await sql((sql) => sql`DELETE FROM personal_api_keys WHERE id = ${member.id}`)
      const took = await Promise.all([a, b].map((target) => within(async () => (await status(target, ME, member.key)) === 401)))
      expect(Math.max(...took)).toBeLessThanOrEqual(STALENESS_BOUND_MS)
    })

    it("a key rolled or revoked through one server's API is refused by that server at once and by the other within a second", async () => {
      const made = await a.call(KEY_CREATE, { key: tenant.key, body: { label: "two processes", scopes: ["*"] } })
      expect(made.status).toBe(201)
      const id = made.body.id as string
      const first = made.body.value as string
      for (const target of [a, b, a, b]) expect(await status(target, ME, first)).toBe(200)

      const rolled = await a.call(KEY_ROLL, { key: tenant.key, params: { id } })
      expect(rolled.status).toBe(200)
      const second = rolled.body.value as string
      expect(await status(a, ME, first)).toBe(401)
      const tookRoll = await within(async () => (await status(b, ME, first)) === 401)
      for (const target of [a, b, a, b]) expect(await status(target, ME, second)).toBe(200)

      // Revoked through the other process this time.
      expect((await b.call(KEY_DESTROY, { key: tenant.key, params: { id } })).status).toBe(204)
      expect(await status(b, ME, second)).toBe(401)
      const tookRevoke = await within(async () => (await status(a, ME, second)) === 401)
      expect(Math.max(tookRoll, tookRevoke)).toBeLessThanOrEqual(STALENESS_BOUND_MS)
    })

    /** A new member of the tenant's organization with a password, logged in through `target`. */
    const memberLoggedIn = async (email: string, password: string, target: Target) => {
      await admin.runPromise(Effect.gen(function*() {
        yield* UserService.use((s) => s.create(systemActor, { email }))
        yield* MemberService.use((s) => s.add(systemActor, tenant.organization, { email, level: 1 }))
        yield* UserService.use((s) => s.setPassword(systemActor, { email, password }))
      }))
      return loggedIn(target, email, password)
    }

    it("a session logged out through one server is refused by the other within a second", async () => {
      const browser = await memberLoggedIn("logged-out@example.com", "a long password", a)
      const session = { [SESSION]: browser.cookies[SESSION]! }
      for (const target of [b, b, a]) expect((await target.call(ME, { cookies: session })).status).toBe(200)
      expect((await browser.call(logout)).status).toBe(204)
      const took = await within(async () => (await b.call(ME, { cookies: session })).status === 401)
      expect(took).toBeLessThanOrEqual(STALENESS_BOUND_MS)
    })

    it("a password changed through one server ends the user's other sessions on the other within a second", async () => {
      const changing = await memberLoggedIn("changing@example.com", "a long password", a)
      const other = await loggedIn(b, "changing@example.com", "a long password")
      for (let i = 0; i < 2; i++) expect((await other.call(ME)).status).toBe(200)
      const changed = await changing.call(UPDATE_ME, { body: { current_password: "a long password", password: "another long password" } })
      expect(changed.status).toBe(200)
      await within(async () => (await other.call(ME)).status === 401)
      expect((await new Browser(b).call(ME, { cookies: changing.cookies })).status).toBe(200)
    })

    it("a member removed through one server loses the organization on the other within a second", async () => {
      const member = await memberWithKey("removed-member@example.com")
      const organization = { organization_id: tenant.organization }
      expect(await status(b, ORGANIZATION, member.key, organization)).toBe(200)
      expect(await status(b, ORGANIZATION, member.key, organization)).toBe(200)
      expect(await status(a, MEMBER, tenant.key, { ...organization, user__uuid: member.uuid })).toBe(204)
      await within(async () => (await status(b, ORGANIZATION, member.key, organization)) === 404)
    })

    it("a team's first day through one server: the teammate's key, cut off and revoked there, is refused by the other within a second", async () => {
      await firstDay(a, tenant, b)
    })

    it("a narrowed scope is enforced by both servers within a second", async () => {
      const member = await memberWithKey("narrowed-scope@example.com")
      const project = { project_id: tenant.project }
      for (const target of [a, b]) expect(await status(target, FLAGS, member.key, project)).toBe(200)
      await sql((sql) => sql`UPDATE personal_api_keys SET scopes = ARRAY['organization:read'] WHERE id = ${member.id}`)
      await Promise.all([a, b].map((target) => within(async () => (await status(target, FLAGS, member.key, project)) === 403)))
    })

    it("a flag soft-deleted through one server reads as deleted through the other within a second", async () => {
      const created = await a.call(FLAG_CREATE, { key: tenant.key, params: { project_id: tenant.project }, body: { key: "read-model-flag" } })
      expect(created.status).toBe(201)
      const flag = { project_id: tenant.project, id: created.body.id }
      for (const target of [a, b]) expect((await target.call(FLAG, { key: tenant.key, params: flag })).body.deleted).toBe(false)
      expect((await a.call(FLAG_UPDATE, { key: tenant.key, params: flag, body: { deleted: true } })).status).toBe(200)
      await within(async () => (await b.call(FLAG, { key: tenant.key, params: flag })).body.deleted === true)
    })

    it("a flag changed through one server changes the other's definitions (their ETag) and its /flags answer within a second", async () => {
      const project = { project_id: tenant.project }
      const created = await a.call(FLAG_CREATE, { key: tenant.key, params: project, body: { key: "read-model-evaluated", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } } })
      expect(created.status).toBe(201)
      const token = (await a.call(PROJECT, { key: tenant.key, params: project })).body.api_token as string
      const definitions = (target: Target, ifNoneMatch?: string) =>
        target.call(DEFINITIONS, { key: tenant.key, query: { token }, ...(ifNoneMatch === undefined ? {} : { headers: { "if-none-match": ifNoneMatch } }) })
      const evaluated = async (target: Target) =>
        (await target.call(EVALUATE, { query: { v: "2" }, body: { token, distinct_id: "someone", evaluation_runtime: "all" } })).body.flags["read-model-evaluated"]?.enabled
      await within(async () => (await evaluated(b)) === true)
      const etag = (await definitions(b)).headers?.["etag"] ?? ""
      expect((await definitions(b, etag)).status).toBe(304)
      const flag = { ...project, id: created.body.id }
      expect((await a.call(FLAG_UPDATE, { key: tenant.key, params: flag, body: { active: false } })).status).toBe(200)
      const took = await Promise.all([
        within(async () => (await definitions(b, etag)).status === 200),
        within(async () => (await evaluated(b)) === undefined)
      ])
      expect(Math.max(...took)).toBeLessThanOrEqual(STALENESS_BOUND_MS)
      // The two processes make the same definitions, so the same ETag.
      const [fromA, fromB] = await Promise.all([definitions(a), definitions(b)])
      expect(fromA.headers?.["etag"]).toBe(fromB.headers?.["etag"])
    })

    it("a lost notification connection is listened again, and nothing revoked meanwhile is served from memory", async () => {
      const member = await memberWithKey("lost-feed@example.com")
      for (const target of [a, b]) expect(await status(target, ME, member.key)).toBe(200)
      const listeners = () =>
        sql((sql) => sql<{ n: number }>`
          SELECT count(*)::integer AS n FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%hedgerow_changes%'`)
          .then((rows) => (rows as ReadonlyArray<{ n: number }>)[0]!.n)
      // Both servers listen, and so does the admin writer of this test.
      const listening = await listeners()
      expect(listening).toBe(3)
      // Cut both servers' listening connections, then revoke while they may not yet have noticed.
      await sql((sql) => sql`
        SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%hedgerow_changes%'`)
      await sql((sql) => sql`DELETE FROM personal_api_keys WHERE id = ${member.id}`)
      await Promise.all([a, b].map((target) => within(async () => (await status(target, ME, member.key)) === 401)))
      // Both listen again, and serve from memory again: the owner's key keeps working throughout.
      await within(async () => (await listeners()) === listening, 10_000)
      for (const target of [a, b]) expect(await status(target, ME, tenant.key)).toBe(200)
    })
  })
})
