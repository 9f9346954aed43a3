import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { lines, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; bootstrap happens once, on first use.
const connect = serverSession()
type Session = Effect.Success<typeof connect>

const projects = (s: Session, ...args: ReadonlyArray<string>) =>
  runInProcess(["projects", ...args, "--url", s.url, "--key", s.key])

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow projects", (it) => {
  it.effect("list --json prints the raw page", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const ran = yield* projects(s, "list", "--json")
      assert.strictEqual(ran.code, 0)
      const page = jsonOf(ran.stdout)
      assert.deepStrictEqual(Object.keys(page).sort(), ["count", "next", "previous", "results"])
      assert.strictEqual(page.count, 1)
      assert.strictEqual(page.next, null)
      assert.strictEqual(page.results[0].id, s.project)
      assert.strictEqual(page.results[0].organization, s.organization)
    }))

  it.effect("create decodes --data as the server does (a choice given as text), and list pages past the end say so", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const ran = yield* projects(s, "create", "--name", "Textual", "--data", JSON.stringify({ week_start_day: "1" }), "--json")
      assert.strictEqual(ran.stderr, "")
      assert.strictEqual(jsonOf(ran.stdout).week_start_day, 1)
      const past = yield* projects(s, "list", "--offset", "500")
      assert.strictEqual(past.code, 0)
      assert.match(past.stdout, /none past 500 \(\d+ in all\)/)
    }))

  it.effect("create merges --data under the flags and defaults to the current organization", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const ran = yield* projects(
        s, "create", "--name", "Web", "--timezone", "Europe/Berlin",
        "--data", JSON.stringify({ anonymize_ips: true, timezone: "UTC", name: "ignored" }), "--json"
      )
      assert.strictEqual(ran.stderr, "")
      const project = jsonOf(ran.stdout)
      assert.strictEqual(project.name, "Web")
      assert.strictEqual(project.timezone, "Europe/Berlin")
      assert.strictEqual(project.anonymize_ips, true)
      assert.strictEqual(project.organization, s.organization)
      assert.strictEqual(project.is_demo, false)

      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-data-"))
      const file = path.join(dir, "project.json")
      fs.writeFileSync(file, JSON.stringify({ week_start_day: 1 }))
      const fromFile = yield* projects(s, "create", "--name", "Docs", "--org", s.organization, "--demo", "--data", `@${file}`, "--json")
      fs.rmSync(dir, { recursive: true, force: true })
      const demo = jsonOf(fromFile.stdout)
      assert.strictEqual(demo.week_start_day, 1)
      assert.strictEqual(demo.is_demo, true)
    }))

  it.effect("a payload the schema rejects gets the server's own words, without a request", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const ran = yield* projects(s, "create", "--name", "Bad", "--timezone", "Mars/Olympus", "--json")
      assert.strictEqual(ran.code, 1)
      assert.strictEqual(ran.stdout, "")
      // What the server answers for the same body, sent by hand.
      const response = yield* Effect.promise(() =>
        fetch(`${s.url}/api/organizations/${s.organization}/projects/`, {
          method: "POST",
          headers: { authorization: `Bearer ${s.key}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "Bad", timezone: "Mars/Olympus" })
        }).then((r) => r.json() as Promise<{ detail: string; attr: string }>)
      )
      assert.deepStrictEqual(lines(ran.stderr), [`error: ${response.detail} (field ${response.attr})`])
      assert.deepStrictEqual(lines(ran.stderr), [`error: "Mars/Olympus" is not a valid choice. (field timezone)`])
    }))

  it.effect("list --all follows next to the end; as text it is a table", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const whole = jsonOf((yield* projects(s, "list", "--org", s.organization, "--limit", "1000", "--json")).stdout)
      assert.isAtLeast(whole.count, 3)

      const all = jsonOf((yield* projects(s, "list", "--org", "@current", "--limit", "1", "--all", "--json")).stdout)
      assert.deepStrictEqual(Object.keys(all).sort(), ["count", "results"])
      assert.strictEqual(all.count, whole.count)
      assert.deepStrictEqual(all.results.map((p: { id: number }) => p.id), whole.results.map((p: { id: number }) => p.id))

      const firstPage = jsonOf((yield* projects(s, "list", "--limit", "1", "--offset", "1", "--json")).stdout)
      assert.strictEqual(firstPage.results.length, 1)
      assert.isString(firstPage.next)

      const text = yield* projects(s, "list", "--all")
      const [header, ...rows] = lines(text.stdout)
      assert.match(header!, /^ID\s+NAME\s+TIMEZONE\s+ORGANIZATION$/)
      assert.isTrue(rows.some((row) => /^\d+\s+Web\s+Europe\/Berlin\s+[0-9a-f-]{36}$/.test(row)))
    }))

  it.effect("get, through the discovery or the organization endpoint", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const direct = jsonOf((yield* projects(s, "get", String(s.project), "--json")).stdout)
      const viaOrg = jsonOf((yield* projects(s, "get", String(s.project), "--org", s.organization, "--json")).stdout)
      assert.strictEqual(direct.id, s.project)
      assert.deepStrictEqual(viaOrg, direct)

      const missing = yield* projects(s, "get", "424242")
      assert.strictEqual(missing.code, 1)
      assert.deepStrictEqual(lines(missing.stderr), ["error: Not found."])
    }))

  it.effect("API errors decode into core's classes and print their detail; a missing key never leaves", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const badKey = yield* runInProcess(["projects", "list", "--url", s.url, "--key", "phx_nope"])
      assert.deepStrictEqual(lines(badKey.stderr), ["error: Personal API key found in request Authorization header is invalid."])

      const noKey = yield* runInProcess(["projects", "list", "--url", s.url])
      assert.strictEqual(noKey.code, 1)
      assert.deepStrictEqual(lines(noKey.stderr), ["error: no API key: pass --key, set HEDGEROW_API_KEY or run hedgerow login"])

      const fromEnv = yield* runInProcess(["projects", "list", "--json"], { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.key })
      assert.strictEqual(fromEnv.code, 0)
      assert.isAtLeast(jsonOf(fromEnv.stdout).count, 1)
    }))

  it.effect("end to end (child process): exit codes, one JSON object on stdout, one line on stderr", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.key }
      const created = yield* runChild(["projects", "create", "--name", "From a shell", "--json"], env)
      assert.strictEqual(created.stderr, "")
      assert.strictEqual(created.code, 0)
      const project = jsonOf(created.stdout)
      assert.strictEqual(project.name, "From a shell")

      const missing = yield* runChild(["projects", "get", "424242", "--json"], env)
      assert.strictEqual(missing.code, 1)
      assert.strictEqual(missing.stdout, "")
      assert.deepStrictEqual(lines(missing.stderr), ["error: Not found."])
    }))
})
