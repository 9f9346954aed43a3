import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import { lines, member, type Person, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; the people are made once, on first use.
const connect = serverSession({ email: "owner@example.com" }, (s) =>
  Effect.all({ member: member(s.organization, "member@example.com", 1), leaver: member(s.organization, "leaver@example.com", 1) }))
type Session = Effect.Success<typeof connect>

const members = (s: Session, as: Person, ...args: ReadonlyArray<string>) =>
  runInProcess(["members", ...args, "--url", s.url, "--key", as.key])

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow members", (it) => {
  it.effect("list is a table of the members, newest first; --json is the raw page; --email and --order filter and sort", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const table = yield* members(s, s.owner, "list")
      assert.strictEqual(table.stderr, "")
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^UUID\s+EMAIL\s+NAME\s+LEVEL\s+ROLE\s+JOINED_AT$/)
      assert.match(rows[0]!, new RegExp(`^${s.leaver.uuid}\\s+leaver@example\\.com\\s+-?\\s*1\\s+member\\s+\\S+Z$`))
      assert.isTrue(rows.some((row) => row.startsWith(s.owner.uuid) && /\s15\s+owner\s/.test(row)))

      const page = jsonOf((yield* members(s, s.owner, "list", "--json")).stdout)
      assert.deepStrictEqual(Object.keys(page).sort(), ["count", "next", "previous", "results"])
      assert.strictEqual(page.count, 3)
      assert.strictEqual(page.results[0].user.email, "leaver@example.com")

      const one = jsonOf((yield* members(s, s.member, "list", "--email", "MEMBER@example.com", "--json")).stdout)
      assert.deepStrictEqual(one.results.map((m: any) => m.user.uuid), [s.member.uuid])
      const oldest = jsonOf((yield* members(s, s.owner, "list", "--order", "joined_at", "--json")).stdout)
      assert.deepStrictEqual(oldest.results.map((m: any) => m.user.email), ["owner@example.com", "member@example.com", "leaver@example.com"])
    }))

  it.effect("set-level changes another member's level and prints them", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const raised = jsonOf((yield* members(s, s.owner, "set-level", s.member.uuid, "--level", "8", "--json")).stdout)
      assert.deepStrictEqual([raised.user.uuid, raised.level], [s.member.uuid, 8])
      const text = yield* members(s, s.owner, "set-level", s.member.uuid, "--level", "1")
      assert.strictEqual(text.code, 0)
      assert.match(text.stdout, /^level\s+1$/m)
      assert.match(text.stdout, /^role\s+member$/m)
    }))

  it.effect("set-level refuses what the server refuses, in its words", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const badLevel = yield* members(s, s.owner, "set-level", s.member.uuid, "--level", "5")
      assert.strictEqual(badLevel.code, 1)
      assert.deepStrictEqual(lines(badLevel.stderr), ["error: \"5\" is not a valid choice. (field level)"])
      const own = yield* members(s, s.owner, "set-level", "@me", "--level", "8")
      assert.deepStrictEqual(lines(own.stderr), ["error: You can't change your own access level."])
      const notAdmin = yield* members(s, s.member, "set-level", s.owner.uuid, "--level", "1")
      assert.deepStrictEqual(lines(notAdmin.stderr), ["error: You can only edit others if you are an admin."])
      const unknown = yield* members(s, s.owner, "set-level", "00000000-0000-4000-8000-000000000000", "--level", "1")
      assert.deepStrictEqual(lines(unknown.stderr), ["error: Not found."])
    }))

  it.effect("remove takes a member out, or lets the caller leave with @me; the last owner cannot leave", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const last = yield* members(s, s.owner, "remove", "@me")
      assert.strictEqual(last.code, 1)
      assert.deepStrictEqual(lines(last.stderr), ["error: Cannot leave the organization as its owner!"])

      const left = yield* members(s, s.leaver, "remove", "@me")
      assert.deepStrictEqual(lines(left.stdout), ["You left the organization."])
      const after = yield* members(s, s.leaver, "list")
      assert.deepStrictEqual(lines(after.stderr), ["error: Not found."])

      const denied = yield* members(s, s.member, "remove", s.owner.uuid)
      assert.deepStrictEqual(lines(denied.stderr), ["error: You can only edit others if you are an admin."])
    }))

  it.effect("end to end (child process): remove --json through the real executable", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.owner.key }
      const removed = yield* runChild(["members", "remove", s.member.uuid, "--org", s.organization, "--json"], env)
      assert.strictEqual(removed.stderr, "")
      assert.strictEqual(removed.code, 0)
      assert.deepStrictEqual(jsonOf(removed.stdout), { user: s.member.uuid, removed: true })
      const again = yield* runChild(["members", "remove", s.member.uuid], env)
      assert.strictEqual(again.code, 1)
      assert.deepStrictEqual(lines(again.stderr), ["error: Not found."])
    }))
})
