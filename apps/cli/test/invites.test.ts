import { assert, describe, it, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { parseCsv } from "../src/csv.ts"
import { lines, member, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; bootstrap happens once, on first use, with
// a member already in the organization.
const connect = serverSession({ email: "owner@example.com" }, (s) => Effect.as(member(s.organization, "already@example.com", 1), {}))
type Session = Effect.Success<typeof connect>

const invites = (s: Session, ...args: ReadonlyArray<string>) => runInProcess(["invites", ...args, "--url", s.url, "--key", s.key])

const jsonOf = (stdout: string) => JSON.parse(stdout) as Record<string, any>

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-invites-"))
const csvFile = (name: string, text: string) => {
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

/** Every invite of the organization, through the CLI itself. */
const everyInvite = (s: Session) =>
  invites(s, "list", "--limit", "1000", "--json").pipe(Effect.map((ran) => jsonOf(ran.stdout).results as Array<Record<string, any>>))

describe("CSV reading", () => {
  it("reads quoted fields with commas, doubled quotes and line breaks, CRLF, a byte-order mark, and skips blank lines", () => {
    const text = "\uFEFFtarget_email,first_name\r\n\r\na@example.com,\"O\"\"Neil, Ann\"\r\n\"b@example.com\",\"two\nlines\"\n\nc@example.com,"
    assert.deepStrictEqual(parseCsv(text), [
      { line: 1, fields: ["target_email", "first_name"] },
      { line: 3, fields: ["a@example.com", "O\"Neil, Ann"] },
      { line: 4, fields: ["b@example.com", "two\nlines"] },
      { line: 7, fields: ["c@example.com", ""] }
    ])
  })
  it("counts a CR-only line break inside a quoted field as a line, as outside one", () => {
    assert.deepStrictEqual(parseCsv("a,b\r\"x\",\"one\rtwo\"\ry,z\r"), [
      { line: 1, fields: ["a", "b"] },
      { line: 2, fields: ["x", "one\rtwo"] },
      { line: 4, fields: ["y", "z"] }
    ])
  })
  it("names the line of a malformed record", () => {
    assert.throws(() => parseCsv("a,b\nx,\"open\n\n"), /^line 2: a quoted field is never closed$/)
    assert.throws(() => parseCsv("a\nx\"y\n"), /line 2: a quote inside an unquoted field/)
    assert.throws(() => parseCsv("a\n\"x\"y\n"), /line 2: text after a closing quote/)
  })
})

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow invites", (it) => {
  it.effect("create --json prints the invite; the domain is lower-cased and the flags become fields", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const ran = yield* invites(s, "create", "--email", "Ada@Example.COM", "--first-name", "Ada", "--level", "8", "--message", "Hi", "--no-email", "--json")
      assert.strictEqual(ran.stderr, "")
      const invite = jsonOf(ran.stdout)
      assert.deepStrictEqual(
        [invite.target_email, invite.first_name, invite.level, invite.message, invite.emailing_attempt_made, invite.is_expired],
        ["Ada@example.com", "Ada", 8, "Hi", false, false]
      )
      const text = yield* invites(s, "create", "--email", "ada@example.com", "--combine")
      assert.strictEqual(text.code, 0)
      assert.match(text.stdout, /^level\s+8$/m)
      assert.match(text.stdout, /^target_email\s+ada@example\.com$/m)
    }))

  it.effect("create refuses what the server would refuse, in the server's words", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const bad = yield* invites(s, "create", "--email", "not-an-address")
      assert.strictEqual(bad.code, 1)
      assert.deepStrictEqual(lines(bad.stderr), ["error: Enter a valid email address. (field target_email)"])
      const member = yield* invites(s, "create", "--email", "already@example.com")
      assert.deepStrictEqual(lines(member.stderr), ["error: A user with this email address already belongs to the organization."])
      const foreign = yield* invites(s, "create", "--email", "x@example.com", "--data", JSON.stringify({ private_project_access: [{ id: 4242, level: "admin" }] }))
      assert.deepStrictEqual(lines(foreign.stderr), [
        "error: Project does not exist on this organization, or it is private and you do not have access to it. (field private_project_access)"
      ])
    }))

  it.effect("list is a table by default and the raw page with --json; delete withdraws, once", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const made = jsonOf((yield* invites(s, "create", "--email", "gone@example.com", "--json")).stdout)
      const table = yield* invites(s, "list")
      const [header, ...rows] = lines(table.stdout)
      assert.match(header!, /^ID\s+TARGET_EMAIL\s+LEVEL\s+IS_EXPIRED\s+EMAILING_ATTEMPT_MADE\s+CREATED_AT$/)
      assert.isTrue(rows.some((row) => row.startsWith(`${made.id}  gone@example.com`)))
      const page = jsonOf((yield* invites(s, "list", "--limit", "1", "--json")).stdout)
      assert.deepStrictEqual(Object.keys(page).sort(), ["count", "next", "previous", "results"])
      assert.strictEqual(page.results[0].id, made.id)

      const deleted = yield* invites(s, "delete", made.id)
      assert.deepStrictEqual(lines(deleted.stdout), [`Deleted invite ${made.id}.`])
      const again = yield* invites(s, "delete", made.id, "--json")
      assert.strictEqual(again.code, 1)
      assert.strictEqual(again.stdout, "")
      assert.deepStrictEqual(lines(again.stderr), ["error: Not found."])
    }))

  it.effect("bulk --file sends 45 rows in batches of 20, one progress line each", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const rows = Array.from({ length: 45 }, (_, i) => `bulk${i}@example.com,${i === 0 ? "\"O\"\"Neil, Ann\"" : `Person ${i}`},${i % 2 === 0 ? 1 : 8}`)
      const file = csvFile("many.csv", ["target_email,first_name,level", ...rows].join("\r\n") + "\r\n")
      const ran = yield* invites(s, "bulk", "--file", file, "--no-email")
      assert.strictEqual(ran.stderr, "")
      assert.deepStrictEqual(lines(ran.stdout), ["sent 20/45", "sent 40/45", "sent 45/45"])
      const sent = (yield* everyInvite(s)).filter((invite) => invite.target_email.startsWith("bulk"))
      assert.strictEqual(sent.length, 45)
      const first = sent.find((invite) => invite.target_email === "bulk0@example.com")!
      assert.deepStrictEqual([first.first_name, first.level, first.emailing_attempt_made], ["O\"Neil, Ann", 1, false])
      assert.strictEqual(sent.find((invite) => invite.target_email === "bulk1@example.com")!.level, 8)

      const small = csvFile("small.csv", "level,target_email\n,solo@example.com\n")
      const json = yield* invites(s, "bulk", "--file", small, "--json")
      assert.deepStrictEqual(jsonOf(json.stdout), { sent: 1, total: 1 })
    }))

  it.effect("a bad row is one error line naming it, and nothing is sent", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const before = (yield* everyInvite(s)).length
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["target_email,first_name,level\nok@example.com,,\nnope,,\n", "bad.csv, row 2 (line 3): Enter a valid email address. (field target_email)"],
        ["target_email,level\nok@example.com,9\n", "bad.csv, row 1 (line 2): \"9\" is not a valid choice. (field level)"],
        ["target_email,first_name\nok@example.com\n", "bad.csv, row 1 (line 2): expected 2 fields, found 1"],
        ["target_email\n\"open@example.com\n", "bad.csv, line 2: a quoted field is never closed"],
        ["email,first_name\nx@example.com,X\n", "bad.csv, line 1: the header must name target_email and optionally first_name and level, each once; found email,first_name"],
        ["target_email\n", "bad.csv has a header but no invites"],
        ["", "bad.csv is empty: expected a header row (target_email,first_name,level)"]
      ]
      for (const [text, message] of cases) {
        const file = csvFile("bad.csv", text)
        const ran = yield* invites(s, "bulk", "--file", file)
        assert.strictEqual(ran.code, 1)
        assert.strictEqual(ran.stdout, "")
        assert.deepStrictEqual(lines(ran.stderr), [`error: ${message.replace(/^bad\.csv/, file)}`])
      }
      const missing = yield* invites(s, "bulk", "--file", path.join(dir, "absent.csv"))
      assert.match(lines(missing.stderr)[0]!, /^error: --file: cannot read .*absent\.csv/)
      assert.strictEqual((yield* everyInvite(s)).length, before)
    }))

  it.effect("a batch the server refuses names the row; the batches before it stay sent", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const rows = Array.from({ length: 25 }, (_, i) => (i === 23 ? "already@example.com" : `late${i}@example.com`))
      const file = csvFile("late.csv", ["target_email", ...rows].join("\n"))
      const ran = yield* invites(s, "bulk", "--file", file)
      assert.strictEqual(ran.code, 1)
      assert.deepStrictEqual(lines(ran.stdout), ["sent 20/25"])
      assert.deepStrictEqual(lines(ran.stderr), [
        `error: ${file}, row 24 (line 25): A user with this email address already belongs to the organization.`
      ])
      const sent = (yield* everyInvite(s)).filter((invite) => invite.target_email.startsWith("late"))
      assert.strictEqual(sent.length, 20)
    }))

  it.effect("end to end (child process): create and list through the real executable", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.key }
      const created = yield* runChild(["invites", "create", "--email", "shell@example.com", "--json"], env)
      assert.strictEqual(created.stderr, "")
      assert.strictEqual(created.code, 0)
      assert.strictEqual(jsonOf(created.stdout).target_email, "shell@example.com")
      const bad = yield* runChild(["invites", "delete", "not-a-uuid"], env)
      assert.strictEqual(bad.code, 1)
      assert.deepStrictEqual(lines(bad.stderr), ["error: Not found."])
    }))
})
