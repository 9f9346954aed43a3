import { totpCode } from "@hedgerow/core"
import { Hedgerow, layerPostgres } from "@hedgerow/store"
import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { lines, runChild, runInProcess, type Serving, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const BOOTSTRAP = /created organization ([0-9a-f-]{36}), project (\d+) and owner (\S+)\.\n.*: (phx_\w+)/
const PASSWORD = "a long and correct password"

/** Every table of the store's schema with its rows as sorted JSON text, and every sequence where it stands. */
const contents = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Timestamps as text in one zone on both sides.
  yield* sql`SET TIME ZONE 'UTC'`
  const tables = yield* sql<{ name: string }>`SELECT relname AS name FROM pg_class
    WHERE relnamespace = current_schema()::regnamespace AND relkind IN ('r', 'p') ORDER BY relname`
  const rows: Record<string, Array<string>> = {}
  for (const { name } of tables) {
    const found = yield* sql<{ row: string }>`SELECT row_to_json(t)::text AS row FROM ${sql(name)} AS t`
    rows[name] = found.map((r) => r.row).sort()
  }
  const sequences = yield* sql<{ name: string }>`SELECT relname AS name FROM pg_class
    WHERE relnamespace = current_schema()::regnamespace AND relkind = 'S' ORDER BY relname`
  const positions: Record<string, string> = {}
  for (const { name } of sequences) {
    const [state] = yield* sql<{ at: string }>`SELECT last_value::text || ':' || is_called::text AS at FROM ${sql(name)}`
    positions[name] = state!.at
  }
  return { rows, positions }
})

const readDataDir = (dataDir: string) => Effect.runPromise(Effect.provide(contents, Hedgerow.layer({ dataDir }).pipe(Layer.orDie)))
const readDatabase = (url: string) => Effect.runPromise(Effect.provide(contents, layerPostgres({ url }).pipe(Layer.orDie)))

// A move needs a PostgreSQL server to move to: this file registers nothing without one.
forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("hedgerow admin migrate-to-postgres", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-move-"))
    let database: { url: string; drop: () => Promise<void> }
    let key = ""
    let organization = ""
    let project = 0
    let owner = ""
    const made: Record<string, number | string> = {}
    let cookie = ""
    let token = ""

    beforeAll(async () => {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_move")
    })
    // A server a failed test left running, stopped before the files go.
    let running: Serving | undefined
    afterAll(async () => {
      if (running !== undefined && running.child.exitCode === null) {
        running.child.kill("SIGKILL")
        await running.exited
      }
      await database?.drop()
      rmSync(dataDir, { recursive: true, force: true })
    })

    const call = async (url: string, method: string, route: string, body?: unknown, status = 200) => {
      const response = await fetch(`${url}${route}`, {
        method,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const answer = await response.json()
      expect(response.status, `${method} ${route}: ${JSON.stringify(answer)}`).toBe(status)
      return answer
    }

    const stop = async (server: Serving) => {
      server.child.kill("SIGTERM")
      expect(await server.exited).toBe(0)
    }

    it("moves a store seeded through the API into PostgreSQL, every row of every table and every sequence", async () => {
      // A webhook's receiver on loopback that refuses every delivery, so that each stays with its attempt.
      const receiver = createServer((_, response) => response.writeHead(500).end())
      await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
      const server = startServe({
        HEDGEROW_DATA_DIR: dataDir,
        HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true",
        // A GitHub client, so that a GitHub log-in can be started (it goes no further than the redirect).
        HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "moved-client",
        HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: "moved-secret"
      })
      running = server
      const url = await servingUrl(server)
      await waitFor(server, /Ctrl-C/)
      const banner = BOOTSTRAP.exec(server.output())!
      ;[, organization, , owner, key] = banner as unknown as [string, string, string, string, string]
      project = Number(banner[2])

      // Something in every table: a webhook with a delivery and its attempt, a password and a session, a role with a member, a domain, an invite and
      // its e-mail, a static cohort with members, a group type, a flag on the cohort with role access, a
      // usage dashboard and activity, and the calls the SDKs reported.
      const webhook = await call(url, "POST", `/api/projects/${project}/webhooks/`, {
        url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`
      }, 201)
      await call(url, "PATCH", "/api/users/@me/", { password: PASSWORD })
      const login = await fetch(`${url}/api/login/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: owner, password: PASSWORD })
      })
      expect(login.status).toBe(200)
      cookie = login.headers.getSetCookie().find((c) => c.startsWith("sessionid="))!.split(";")[0]!
      // Two-factor authentication, as a browser sets it up: its app, backup codes, a log-in finished with
      // one (which remembers the browser), and a log-in still waiting for its code.
      const csrf = login.headers.getSetCookie().find((c) => c.startsWith("posthog_csrftoken="))!.split(";")[0]!
      const inBrowser = async (method: string, route: string, body?: unknown, extraCookie = "") => {
        const response = await fetch(`${url}${route}`, {
          method,
          headers: { cookie: [cookie, csrf, extraCookie].filter(Boolean).join("; "), "x-csrftoken": csrf.split("=")[1]!, "content-type": "application/json" },
          ...(body === undefined ? {} : { body: JSON.stringify(body) })
        })
        return { status: response.status, body: await response.json(), cookies: response.headers.getSetCookie() }
      }
      const setup = await inBrowser("GET", "/api/users/@me/two_factor_start_setup/")
      expect(setup.status).toBe(200)
      expect((await inBrowser("POST", "/api/users/@me/two_factor_validate/", { token: totpCode(setup.body.secret, Date.now()) })).status).toBe(200)
      const backup = await inBrowser("POST", "/api/users/@me/two_factor_backup_codes/")
      expect(backup.status).toBe(200)
      const passwordStep = async () => {
        const step = await fetch(`${url}/api/login/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email: owner, password: PASSWORD })
        })
        expect(step.status).toBe(401)
        return step.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ")
      }
      const pending = await passwordStep()
      const finished = await fetch(`${url}/api/login/token/`, {
        method: "POST",
        headers: { cookie: pending, "content-type": "application/json" },
        body: JSON.stringify({ token: backup.body.backup_codes[0] })
      })
      expect(finished.status).toBe(200)
      await passwordStep()
      // A CLI waiting for its code, and a GitHub log-in started.
      await call(url, "POST", "/api/cli-auth/device-code/")
      expect((await fetch(`${url}/login/github/`, { redirect: "manual" })).status).toBe(302)
      const me = await call(url, "GET", "/api/users/@me/")
      const role = await call(url, "POST", `/api/organizations/${organization}/roles/`, { name: "Engineers" }, 201)
      await call(url, "POST", `/api/organizations/${organization}/roles/${role.id}/role_memberships/`, { user_uuid: me.uuid }, 201)
      await call(url, "POST", `/api/organizations/${organization}/domains/`, { domain: "moved.example.com" }, 201)
      await call(url, "POST", `/api/organizations/${organization}/invites/`, { target_email: "new@moved.example.com", level: 1 }, 201)
      const cohort = await call(url, "POST", `/api/projects/${project}/cohorts/`, { name: "Beta", is_static: true }, 201)
      // More than one page of the move's reads.
      for (const ids of [["anna", "bob"], ...[0, 1, 2].map((n) => Array.from({ length: 400 }, (_, i) => `person-${n}-${i}`))]) {
        await call(url, "PATCH", `/api/projects/${project}/cohorts/${cohort.id}/add_persons_to_static_cohort/`, { person_ids: ids })
      }
      await call(url, "POST", `/api/projects/${project}/groups_types/`, { group_type: "company" }, 201)
      const flag = await call(url, "POST", `/api/projects/${project}/feature_flags/`, {
        key: "beta-checkout",
        filters: { groups: [{ properties: [{ key: "id", type: "cohort", value: cohort.id }], rollout_percentage: 100 }] }
      }, 201)
      await call(url, "POST", `/api/projects/${project}/feature_flags/${flag.id}/role_access/`, { role_id: role.id }, 201)
      await call(url, "POST", `/api/projects/${project}/feature_flags/${flag.id}/dashboard/`)
      token = (await call(url, "GET", `/api/projects/${project}/`)).api_token
      const reported = { event: "$feature_flag_called", distinct_id: "anna", properties: { $feature_flag: "beta-checkout", $feature_flag_response: true } }
      await call(url, "POST", "/batch/", { api_key: token, batch: [reported, reported] })
      Object.assign(made, { flag: flag.id, cohort: cohort.id, role: role.id })
      for (let tries = 0; ; tries++) {
        const deliveries = await call(url, "GET", `/api/projects/${project}/webhooks/${webhook.id}/deliveries/`)
        if (deliveries.results.some((delivery: { attempts: Array<unknown> }) => delivery.attempts.length > 0)) break
        expect(tries, "a delivery attempted").toBeLessThan(100)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
      await stop(server)
      receiver.close()

      // Batch exports have no create endpoint: the operator's command makes one, on the stopped store.
      const exported = await Effect.runPromise(runInProcess([
        "admin", "batch-exports", "create", "--org", organization, "--project", String(project), "--name", "Nightly", "--data-dir", dataDir
      ]))
      expect(exported.code).toBe(0)
      // A sign-in link: the first start's went with the password set above, so the operator makes another.
      const link = await Effect.runPromise(runInProcess(["admin", "users", "sign-in-link", owner, "--data-dir", dataDir]))
      expect(link.code).toBe(0)

      const moved = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--data-dir", dataDir, "--database-url", database.url]))
      expect(moved.stderr).toBe("")
      expect(moved.code).toBe(0)
      const printed = lines(moved.stdout)
      expect(printed[0]).toMatch(new RegExp(`^Moved the store of ${dataDir} to ${database.url}: \\d+ rows in \\d+ tables, \\d+ sequences set\\.$`))
      expect(printed.at(-1)).toBe("Serve it with: hedgerow serve --database-url <the same URL>")

      const source = await readDataDir(dataDir)
      const target = await readDatabase(database.url)
      // The seeding reached every table the store has, so a table the move skipped would show below; but
      // the webhooks' queue of changes, which a running server empties as soon as it reads them, and the
      // SAML log-ins in flight and answers seen (a SAML log-in needs a domain verified through DNS), and a
      // two-factor setup begun, which its validation ends.
      expect(Object.entries(source.rows).filter(([, rows]) => rows.length === 0).map(([table]) => table)).toEqual([
        "saml_assertions",
        "saml_requests",
        "two_factor_setups",
        "webhook_changes"
      ])
      expect(Object.keys(target.rows)).toEqual(Object.keys(source.rows))
      for (const table of Object.keys(source.rows)) expect(target.rows[table], table).toEqual(source.rows[table])
      expect(target.positions).toEqual(source.positions)
      expect(target.rows["cohort_members"]).toHaveLength(1_202)
      expect(printed).toContain(`hedgerow_migrations       ${source.rows["hedgerow_migrations"]!.length}`)
    }, 180_000)

    it("serves the moved store with the same key, SDK token, session and flag ids, and goes on from its sequences", async () => {
      const server = startServe({ DATABASE_URL: database.url })
      const url = await servingUrl(server)
      await waitFor(server, /Ctrl-C/)
      try {
        expect(server.output()).not.toContain("First start")
        const flag = await call(url, "GET", `/api/projects/${project}/feature_flags/${made.flag}/`)
        expect(flag.key).toBe("beta-checkout")
        expect(flag.usage_dashboard).not.toBeNull()
        const access = await call(url, "GET", `/api/projects/${project}/feature_flags/${made.flag}/role_access/`)
        expect(access.results.map((a: { role: { id: string } }) => a.role.id)).toEqual([made.role])
        // The SDK's token evaluates the flag on the cohort's members.
        const evaluate = async (distinctId: string) => {
          const response = await fetch(`${url}/flags/?v=2`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ api_key: token, distinct_id: distinctId })
          })
          expect(response.status).toBe(200)
          return (await response.json()).flags["beta-checkout"].enabled as boolean
        }
        expect(await evaluate("anna")).toBe(true)
        expect(await evaluate("carol")).toBe(false)
        // The session cookie made on the embedded store still logs its user in.
        const session = await fetch(`${url}/api/users/@me/`, { headers: { cookie } })
        expect(session.status).toBe(200)
        expect((await session.json()).email).toBe(owner)
        const usage = await call(url, "GET", `/api/projects/${project}/feature_flags/${made.flag}/usage/`)
        expect(usage.total).toBe(2)
        // New rows take the ids after the moved ones.
        const next = await call(url, "POST", `/api/projects/${project}/feature_flags/`, { key: "after-move", filters: { groups: [] } }, 201)
        expect(next.id).toBe(Number(made.flag) + 1)
        const cohort = await call(url, "POST", `/api/projects/${project}/cohorts/`, { name: "After", is_static: true }, 201)
        expect(cohort.id).toBe(Number(made.cohort) + 1)
      } finally {
        await stop(server)
      }
    }, 120_000)

    it("refuses a database that already holds tables, and a directory with no store, changing nothing", async () => {
      const before = await readDatabase(database.url)
      const again = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--data-dir", dataDir, "--database-url", database.url]))
      expect(again.code).toBe(1)
      expect(again.stdout).toBe("")
      expect(lines(again.stderr)).toEqual([
        `error: ${database.url} already holds tables (public.activity_log, public.batch_exports, public.cli_auth_requests, ` +
        `public.cohort_members, public.cohorts, …); move the store into an empty database`
      ])
      expect(await readDatabase(database.url)).toEqual(before)

      const nowhere = path.join(dataDir, "nothing-here")
      const none = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--data-dir", nowhere, "--database-url", database.url]))
      expect(none.code).toBe(1)
      expect(lines(none.stderr)).toEqual([`error: ${nowhere} holds no embedded store (no ${path.join(nowhere, "pgdata")})`])
    }, 60_000)

    it("moves a store a server is serving (the server makes the copy and goes on) and a backup file", async () => {
      const server = startServe({ HEDGEROW_DATA_DIR: dataDir })
      const url = await servingUrl(server)
      await waitFor(server, /Ctrl-C/)
      const served = await createDatabase(testDatabaseUrl()!, "hedgerow_move")
      const fromFile = await createDatabase(testDatabaseUrl()!, "hedgerow_move")
      try {
        const moved = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--data-dir", dataDir, "--database-url", served.url]))
        expect(moved.stderr).toBe("")
        expect(moved.code).toBe(0)
        expect(lines(moved.stdout)).toContain(
          `A server was running on ${dataDir}: what it wrote after the copy was taken is not in PostgreSQL; stop it before moving for good.`
        )
        // The server answered throughout and still does.
        expect((await call(url, "GET", `/api/projects/${project}/feature_flags/${made.flag}/`)).key).toBe("beta-checkout")

        const file = path.join(dataDir, "..", `${path.basename(dataDir)}.tar.gz`)
        expect((await Effect.runPromise(runChild(["admin", "backup", "--data-dir", dataDir, "--out", file]))).code).toBe(0)
        const fromBackup = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--from", file, "--database-url", fromFile.url]))
        rmSync(file, { force: true })
        expect(fromBackup.code).toBe(0)
        expect(lines(fromBackup.stdout)[0]).toMatch(new RegExp(`^Moved the store of ${file} to `))
        const [a, b] = [await readDatabase(served.url), await readDatabase(fromFile.url)]
        expect(b.rows).toEqual(a.rows)
        expect(b.positions).toEqual(a.positions)
        expect(a.rows["batch_exports"]).toHaveLength(1)
      } finally {
        await stop(server)
        await served.drop()
        await fromFile.drop()
      }
    }, 180_000)

    it("a move that fails part-way leaves the target database as empty as it found it", async () => {
      // A store with a table this version does not make: its tables differ from the target's, which is
      // found after the migrations ran on the target, in the move's transaction.
      const odd = mkdtempSync(path.join(tmpdir(), "hedgerow-odd-"))
      const target = await createDatabase(testDatabaseUrl()!, "hedgerow_move")
      try {
        await Effect.runPromise(Effect.provide(
          Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql`CREATE TABLE stray (n integer)`),
          Hedgerow.layer({ dataDir: odd }).pipe(Layer.orDie)
        ))
        const moved = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--data-dir", odd, "--database-url", target.url]))
        expect(moved.code).toBe(1)
        expect(lines(moved.stderr)).toHaveLength(1)
        expect(moved.stderr).toMatch(/^error: the store's tables \(activity_log, .*, stray, .*users, .*\) differ from those this version makes \(activity_log, .*, users, .*\); move it with the hedgerow version that last served it\n$/)
        expect(Object.keys((await readDatabase(target.url)).rows)).toEqual([])
      } finally {
        await target.drop()
        rmSync(odd, { recursive: true, force: true })
      }
    }, 120_000)

    it("names an unreachable database without its password", async () => {
      const url = "postgres://hedgerow:s3cret-pw@127.0.0.1:1/hedgerow"
      const moved = await Effect.runPromise(runChild(["admin", "migrate-to-postgres", "--data-dir", dataDir, "--database-url", url]))
      expect(moved.code).toBe(1)
      expect(moved.stderr).not.toContain("s3cret-pw")
      expect(lines(moved.stderr)).toHaveLength(1)
      expect(moved.stderr).toMatch(/^error: cannot use the PostgreSQL database at postgres:\/\/hedgerow:\*\*\*@127\.0\.0\.1:1\/hedgerow: .*ECONNREFUSED/)
    }, 60_000)
  })
})
