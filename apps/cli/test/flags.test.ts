import { assert, layer } from "@effect/vitest"
import { bodyOf, RoleService, systemActor } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { lines, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; bootstrap happens once, on first use, with
// a role of the organization that can only view flags.
const connect = serverSession({ email: "owner@example.com" }, (s) =>
  Effect.map(
    RoleService.use((roles) => roles.create(systemActor, s.organization, bodyOf({ name: "Viewers", feature_flags_access_level: 21 }))),
    (role) => ({ role: role.id })
  ))
type Session = Effect.Success<typeof connect>

const flags = (s: Session, ...args: ReadonlyArray<string>) => runInProcess(["flags", ...args, "--url", s.url, "--key", s.key])

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

/** Runs a command that must succeed with nothing on stderr, and parses its one JSON document. */
const json = (s: Session, ...args: ReadonlyArray<string>) =>
  flags(s, ...args, "--json").pipe(Effect.map((ran) => {
    assert.strictEqual(ran.stderr, "", `stderr of flags ${args.join(" ")}`)
    assert.strictEqual(ran.code, 0)
    return jsonOf(ran.stdout)
  }))

let serial = 0
const freshKey = (stem: string) => `${stem}-${++serial}`

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow flags", (it) => {
  it.effect("create takes the key as an argument and --filters inline; get prints the same flag", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const key = freshKey("inline")
      const filters = { groups: [{ properties: [], rollout_percentage: 25 }] }
      const flag = yield* json(s, "create", key, "--name", "Inline", "--filters", JSON.stringify(filters), "--tags", "web, beta")
      assert.strictEqual(flag.key, key)
      assert.strictEqual(flag.name, "Inline")
      assert.strictEqual(flag.rollout_percentage, 25)
      assert.deepStrictEqual([...flag.tags].sort(), ["beta", "web"])
      assert.isNumber(flag.usage_dashboard)
      assert.deepStrictEqual(yield* json(s, "get", String(flag.id), "--project", String(s.project)), flag)

      const text = yield* flags(s, "get", String(flag.id))
      assert.strictEqual(text.code, 0)
      assert.match(text.stdout, new RegExp(`^key\\s+${key}$`, "m"))
      assert.match(text.stdout, new RegExp(`^created_by\\s+${s.owner.email}$`, "m"))
      // Never evaluated yet.
      assert.match(text.stdout, /^last_called_at\s+-$/m)
    }))

  it.effect("create reads --filters and --data from files; --no-usage-dashboard and --active false are sent", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-flags-"))
      const filtersFile = path.join(dir, "filters.json")
      fs.writeFileSync(filtersFile, JSON.stringify({
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
      }))
      const dataFile = path.join(dir, "data.json")
      fs.writeFileSync(dataFile, JSON.stringify({ evaluation_runtime: "server", name: "overridden by --name" }))
      const flag = yield* json(
        s, "create", freshKey("from-files"), "--filters", `@${filtersFile}`, "--data", `@${dataFile}`, "--name", "Files",
        "--active", "false", "--no-usage-dashboard"
      )
      fs.rmSync(dir, { recursive: true, force: true })
      assert.deepStrictEqual(flag.filters.multivariate.variants.map((v: { key: string }) => v.key), ["control", "test"])
      assert.strictEqual(flag.evaluation_runtime, "server")
      assert.strictEqual(flag.name, "Files")
      assert.strictEqual(flag.active, false)
      assert.strictEqual(flag.usage_dashboard, null)
    }))

  it.effect("bad --filters never leave the CLI; the server's refusals print their detail and field", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const notJson = yield* flags(s, "create", freshKey("bad"), "--filters", "{groups")
      assert.strictEqual(notJson.code, 1)
      assert.match(lines(notJson.stderr)[0]!, /^error: --filters is not valid JSON: /)
      const list = yield* flags(s, "create", freshKey("bad"), "--filters", "[]")
      assert.deepStrictEqual(lines(list.stderr), ["error: --filters must be a JSON object"])
      const choice = yield* flags(s, "create", freshKey("bad"), "--data", JSON.stringify({ evaluation_runtime: "edge" }))
      assert.deepStrictEqual(lines(choice.stderr), ["error: \"edge\" is not a valid choice. (field evaluation_runtime)"])

      const badKey = yield* flags(s, "create", "has space")
      assert.strictEqual(badKey.code, 1)
      assert.deepStrictEqual(lines(badKey.stderr), ["error: Only letters, numbers, hyphens (-) & underscores (_) are allowed. (field key)"])
      const sum = yield* flags(s, "create", freshKey("bad"), "--filters", JSON.stringify({
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "a", rollout_percentage: 60 }] }
      }))
      assert.deepStrictEqual(lines(sum.stderr), ["error: Invalid variant definitions: Variant rollout percentages must sum to 100. (field filters)"])
    }))

  it.effect("list filters by search, type and active; --json is the raw page, --all follows next", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const token = freshKey("listing").replace("-", "")
      const one = yield* json(s, "create", `${token}-one`, "--filters", JSON.stringify({ groups: [{ properties: [], rollout_percentage: 10 }] }))
      const two = yield* json(s, "create", `${token}-two`, "--name", "Second", "--active", "false", "--tags", "ops")
      const page = yield* json(s, "list", "--search", token.toUpperCase())
      assert.deepStrictEqual(Object.keys(page).sort(), ["count", "next", "previous", "results"])
      assert.deepStrictEqual(page.results.map((f: { key: string }) => f.key), [two.key, one.key])
      const inactive = yield* json(s, "list", "--search", token, "--active", "false")
      assert.deepStrictEqual(inactive.results.map((f: { id: number }) => f.id), [two.id])
      const tagged = yield* json(s, "list", "--search", token, "--tags", "ops,unused")
      assert.deepStrictEqual(tagged.results.map((f: { id: number }) => f.id), [two.id])
      const multivariant = yield* json(s, "list", "--search", token, "--type", "multivariant")
      assert.strictEqual(multivariant.count, 0)

      const all = yield* json(s, "list", "--search", token, "--limit", "1", "--all", "--order", "key")
      assert.deepStrictEqual(Object.keys(all).sort(), ["count", "results"])
      assert.deepStrictEqual(all.results.map((f: { key: string }) => f.key), [one.key, two.key])

      const text = yield* flags(s, "list", "--search", token, "--limit", "1")
      const [header, row, footer] = lines(text.stdout)
      assert.match(header!, /^ID\s+KEY\s+NAME\s+ACTIVE\s+STATUS\s+ROLLOUT\s+CREATED_BY$/)
      assert.match(row!, new RegExp(`^${two.id}\\s+${two.key}\\s+Second\\s+false\\s+INACTIVE\\s+-\\s+${s.owner.email}$`))
      assert.strictEqual(footer, "1-1 of 2 (--all for every page)")
    }))

  it.effect("update changes what it is given, --flag-key renames, a stale --version is refused", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const flag = yield* json(s, "create", freshKey("update"))
      const renamed = yield* json(s, "update", String(flag.id), "--name", "Renamed", "--version", "1")
      assert.deepStrictEqual([renamed.name, renamed.key, renamed.version], ["Renamed", flag.key, 2])
      const newKey = freshKey("updated")
      const rekeyed = yield* json(s, "update", String(flag.id), "--flag-key", newKey, "--filters", JSON.stringify({ groups: [{ properties: [], rollout_percentage: 100 }] }))
      assert.deepStrictEqual([rekeyed.key, rekeyed.rollout_percentage], [newKey, 100])
      const stale = yield* flags(s, "update", String(flag.id), "--name", "Lost", "--version", "1")
      assert.strictEqual(stale.code, 1)
      assert.deepStrictEqual(lines(stale.stderr), [
        `error: The feature flag was updated by ${s.owner.email} since you started editing it. Please refresh and try again.`
      ])
    }))

  it.effect("delete soft-deletes (hidden from list, still readable), restore brings it back; status follows", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const flag = yield* json(s, "create", freshKey("lifecycle"))
      const status = yield* flags(s, "status", String(flag.id))
      assert.deepStrictEqual(lines(status.stdout), ["status  active", "reason  Flag has no usage data yet"])
      const deleted = yield* json(s, "delete", String(flag.id))
      assert.strictEqual(deleted.deleted, true)
      assert.strictEqual((yield* json(s, "list", "--search", flag.key)).count, 0)
      assert.strictEqual((yield* json(s, "get", String(flag.id))).deleted, true)
      assert.deepStrictEqual(yield* json(s, "status", String(flag.id)), { status: "deleted", reason: "Flag has been deleted" })
      const restored = yield* json(s, "restore", String(flag.id))
      assert.strictEqual(restored.deleted, false)
      assert.strictEqual((yield* json(s, "list", "--search", flag.key)).count, 1)

      const missing = yield* flags(s, "delete", "424242")
      assert.deepStrictEqual(lines(missing.stderr), ["error: Not found."])
    }))

  it.effect("activity of one flag or of the project, newest first, paged with --page/--limit or --all", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const flag = yield* json(s, "create", freshKey("history"), "--name", "v1")
      yield* json(s, "update", String(flag.id), "--name", "v2")
      yield* json(s, "delete", String(flag.id))
      const history = yield* json(s, "activity", String(flag.id))
      assert.strictEqual(history.total_count, 3)
      assert.deepStrictEqual(history.results.map((e: { activity: string }) => e.activity), ["deleted", "updated", "created"])
      const paged = yield* json(s, "activity", String(flag.id), "--limit", "1", "--page", "2")
      assert.deepStrictEqual(paged.results.map((e: { activity: string }) => e.activity), ["updated"])
      const all = yield* json(s, "activity", String(flag.id), "--limit", "1", "--all")
      assert.deepStrictEqual([all.total_count, all.results.length], [3, 3])

      const text = yield* flags(s, "activity", String(flag.id))
      const [header, newest, , , footer] = lines(text.stdout)
      assert.match(header!, /^CREATED_AT\s+ACTIVITY\s+FLAG\s+USER\s+CHANGED$/)
      assert.match(newest!, new RegExp(`\\sdeleted\\s+${flag.key}\\s+${s.owner.email}\\s+.*deleted`))
      assert.strictEqual(footer, "3 of 3")
      const project = yield* json(s, "activity", "--limit", "1")
      assert.strictEqual(project.results[0].item_id, String(flag.id))
    }))

  it.effect("role-access add, list and remove", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const flag = yield* json(s, "create", freshKey("roles"))
      const added = yield* json(s, "role-access", "add", String(flag.id), "--role", s.role)
      assert.strictEqual(added.role.id, s.role)
      assert.strictEqual(added.feature_flag.id, flag.id)
      const listed = yield* json(s, "role-access", "list", String(flag.id))
      assert.deepStrictEqual(listed.results.map((a: { id: number }) => a.id), [added.id])
      const table = yield* flags(s, "role-access", "list", String(flag.id))
      assert.match(lines(table.stdout)[1]!, new RegExp(`^${added.id}\\s+Viewers\\s+${s.role}\\s+21\\s+\\d{4}-`))

      const again = yield* flags(s, "role-access", "add", String(flag.id), "--role", s.role)
      assert.strictEqual(again.code, 1)
      const removed = yield* flags(s, "role-access", "remove", String(flag.id), String(added.id))
      assert.deepStrictEqual(lines(removed.stdout), [`Removed role access ${added.id} from flag ${flag.id}.`])
      assert.strictEqual((yield* json(s, "role-access", "list", String(flag.id))).count, 0)
      const gone = yield* flags(s, "role-access", "remove", String(flag.id), String(added.id))
      assert.deepStrictEqual(lines(gone.stderr), ["error: Not found."])
    }))

  it.effect("end to end (child process): one JSON object on stdout, exit codes, one error line", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.key }
      const created = yield* runChild(["flags", "create", freshKey("shell"), "--json"], env)
      assert.strictEqual(created.stderr, "")
      assert.strictEqual(created.code, 0)
      assert.strictEqual(jsonOf(created.stdout).version, 1)
      const missing = yield* runChild(["flags", "get", "424242", "--json"], env)
      assert.strictEqual(missing.code, 1)
      assert.strictEqual(missing.stdout, "")
      assert.deepStrictEqual(lines(missing.stderr), ["error: Not found."])
    }))
})
