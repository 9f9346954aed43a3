import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { lines, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; bootstrap happens once, on first use.
const connect = serverSession({ email: "owner@cohorts.example" })
type Session = Effect.Success<typeof connect>

const cohorts = (s: Session, ...args: ReadonlyArray<string>) => runInProcess(["cohorts", ...args, "--url", s.url, "--key", s.key])

/** Runs a command that must succeed with nothing on stderr, and parses its one JSON document. */
const json = (s: Session, ...args: ReadonlyArray<string>) =>
  cohorts(s, ...args, "--json").pipe(Effect.map((ran) => {
    assert.strictEqual(ran.stderr, "", `stderr of cohorts ${args.join(" ")}`)
    assert.strictEqual(ran.code, 0)
    return JSON.parse(ran.stdout) as Record<string, any>
  }))

const tempFile = (name: string, content: string) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-cohorts-")), name)
  fs.writeFileSync(file, content)
  return file
}

const filters = { properties: { type: "OR", values: [{ type: "AND", values: [{ type: "person", key: "plan", value: "pro", operator: "exact" }] }] } }

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow cohorts", (it) => {
  it.effect("create makes a dynamic cohort from --filters (inline or @file); get, list, update, delete and restore follow", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const made = yield* json(s, "create", "--name", "Pros", "--filters", JSON.stringify(filters), "--description", "paying")
      assert.deepStrictEqual([made.name, made.description, made.is_static, made.count], ["Pros", "paying", false, null])
      assert.deepStrictEqual(made.filters.properties.values[0].values[0].negation, false)
      const fromFile = yield* json(s, "create", "--name", "From file", "--filters", `@${tempFile("filters.json", JSON.stringify(filters))}`)
      assert.deepStrictEqual(fromFile.filters, made.filters)
      assert.deepStrictEqual(yield* json(s, "get", String(made.id)), made)

      const text = yield* cohorts(s, "get", String(made.id))
      assert.match(text.stdout, /^type\s+dynamic$/m)
      assert.match(text.stdout, new RegExp(`^created_by\\s+${s.owner.email}$`, "m"))
      const listed = yield* cohorts(s, "list", "--search", "pro", "--type", "dynamic")
      const [header, ...rows] = lines(listed.stdout)
      assert.match(header!, /^ID\s+NAME\s+TYPE\s+COUNT\s+CREATED_BY\s+CREATED_AT$/)
      assert.deepStrictEqual(rows.slice(0, 1).map((row) => row.split(/\s{2,}/).slice(0, 3)), [[String(made.id), "Pros", "dynamic"]])

      assert.strictEqual((yield* json(s, "update", String(made.id), "--name", "Pro people")).name, "Pro people")
      assert.strictEqual((yield* json(s, "delete", String(made.id))).deleted, true)
      assert.strictEqual((yield* json(s, "restore", String(made.id))).deleted, false)
      const activity = yield* cohorts(s, "activity", String(made.id))
      assert.deepStrictEqual(lines(activity.stdout).slice(1, 5).map((row) => row.split(/\s{2,}/)[1]), ["restored", "deleted", "updated", "created"])
    }))

  it.effect("a static cohort takes members from --distinct-ids and a CSV; upload adds a CSV, members add, list and remove follow", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const csv = tempFile("members.csv", "distinct_id,name\nanna,Anna\nbob,Bob\n")
      const made = yield* json(s, "create", "--name", "Listed", "--distinct-ids", "carl, dora", "--file", csv)
      assert.deepStrictEqual([made.is_static, made.count], [true, 4])
      const uploaded = yield* json(s, "upload", String(made.id), "--file", tempFile("more.csv", "eve\nfred\n"))
      assert.strictEqual(uploaded.count, 6)
      const added = yield* cohorts(s, "members", "add", String(made.id), "gus", "hal")
      assert.strictEqual(added.stdout, `Added 2 distinct id(s) to cohort ${made.id}.\n`)
      assert.deepStrictEqual(yield* json(s, "members", "remove", String(made.id), "anna"), { success: true })
      const listed = yield* cohorts(s, "members", "list", String(made.id), "--limit", "3", "--all")
      assert.deepStrictEqual(lines(listed.stdout), ["DISTINCT_ID", "bob", "carl", "dora", "eve", "fred", "gus", "hal", "7 shown"])
      const page = yield* json(s, "members", "list", String(made.id), "--limit", "2")
      assert.deepStrictEqual(page.results.map((member: { name: string }) => member.name), ["bob", "carl"])
    }))

  it.effect("a refusal is the API's words on one line: a CSV of person ids, a dynamic cohort's members, a missing file", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const persons = yield* cohorts(s, "create", "--name", "Persons", "--file", tempFile("persons.csv", "person_id\n1\n"))
      assert.strictEqual(persons.code, 1)
      assert.match(persons.stderr, /keeps no persons, so a static cohort holds distinct IDs/)
      const dynamic = yield* json(s, "create", "--name", "Dynamic", "--filters", JSON.stringify(filters))
      const added = yield* cohorts(s, "members", "add", String(dynamic.id), "anna")
      assert.strictEqual(added.code, 1)
      assert.match(added.stderr, /Can only add users to static cohorts/)
      const missing = yield* cohorts(s, "upload", String(dynamic.id), "--file", "/nonexistent/members.csv")
      assert.strictEqual(missing.code, 1)
      assert.match(missing.stderr, /--file: cannot read \/nonexistent\/members.csv/)
    }))
})
