import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect } from "effect"
import { lines, runInProcess, type ServerSession, serverSession } from "./cli-runner.ts"

const connect = serverSession()

const groupTypes = (s: ServerSession, ...args: ReadonlyArray<string>) => runInProcess(["group-types", ...args, "--url", s.url, "--key", s.key])

/** Runs a command that must succeed with nothing on stderr, and parses its one JSON document. */
const json = (s: ServerSession, ...args: ReadonlyArray<string>) =>
  groupTypes(s, ...args, "--json").pipe(Effect.map((ran) => {
    assert.strictEqual(ran.stderr, "", `stderr of ${args.join(" ")}`)
    assert.strictEqual(ran.code, 0)
    return JSON.parse(ran.stdout) as any
  }))

/** Runs a command that must fail with exactly this one line. */
const fails = (s: ServerSession, line: string, ...args: ReadonlyArray<string>) =>
  groupTypes(s, ...args).pipe(Effect.map((ran) => {
    assert.strictEqual(ran.code, 1, `exit code of ${args.join(" ")}`)
    assert.strictEqual(ran.stdout, "")
    assert.deepStrictEqual(lines(ran.stderr), [line])
  }))

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow group-types", (it) => {
  it.effect("create takes the lowest free index; list prints a table by index, or the API's list with --json", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const empty = yield* groupTypes(s, "list")
      assert.deepStrictEqual(lines(empty.stdout), ["INDEX  GROUP_TYPE  NAME_SINGULAR  NAME_PLURAL  DEFAULT_COLUMNS  CREATED_AT"])
      const company = yield* json(s, "create", "company")
      // --json prints the API's answer as it is.
      assert.deepStrictEqual([company.group_type, company.group_type_index, company.detail_dashboard, company.default_columns], ["company", 0, null, null])
      const team = yield* groupTypes(s, "create", "team", "--project", String(s.project))
      assert.strictEqual(team.code, 0)
      assert.deepStrictEqual(lines(team.stdout).slice(0, 2), ["index            1", "group_type       team"])
      const listed = yield* json(s, "list")
      assert.deepStrictEqual(listed.map((type: any) => [type.group_type_index, type.group_type]), [[0, "company"], [1, "team"]])
      const table = lines((yield* groupTypes(s, "list")).stdout).map((line) => line.split(/ {2,}/))
      assert.deepStrictEqual(table.slice(1).map((row) => row.slice(0, 5)), [["0", "company", "-", "-", "-"], ["1", "team", "-", "-", "-"]])
    }))

  it.effect("update sets display names and default columns; delete frees the index", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const named = yield* json(s, "update", "0", "--singular", "Company", "--plural", "Companies")
      assert.deepStrictEqual([named.group_type, named.name_singular, named.name_plural], ["company", "Company", "Companies"])
      const columns = yield* json(s, "update", "0", "--columns", "name, size")
      assert.deepStrictEqual([columns.name_plural, columns.default_columns], ["Companies", ["name", "size"]])
      const text = yield* groupTypes(s, "update", "0", "--plural", "Firms", "--columns", "")
      assert.strictEqual(text.code, 0)
      assert.include(text.stdout, "name_plural      Firms")
      assert.include(text.stdout, "default_columns  -")
      const deleted = yield* json(s, "delete", "1")
      assert.deepStrictEqual(deleted, { group_type_index: 1, deleted: true })
      const said = yield* groupTypes(s, "delete", "0")
      assert.deepStrictEqual(lines(said.stdout), ["Deleted group type 0; flags on that index evaluate off until a group type takes it again."])
      assert.deepStrictEqual(yield* json(s, "list"), [])
    }))

  it.effect("refusals are one line each: a name taken, a sixth, an unknown index, nothing to change, a bad name", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* fails(s, "error: Group type not found", "update", "3", "--singular", "D", "--project", String(s.project))
      for (const name of ["a", "b", "c", "d", "e"]) yield* json(s, "create", name)
      yield* fails(s, "error: There is already a group type with this name. (field group_type)", "create", "a")
      yield* fails(s, "error: A project can have at most 5 group types.", "create", "f")
      yield* fails(s, `error: Ensure this field has no more than 400 characters. (field group_type)`, "create", "x".repeat(401))
      yield* fails(s, "error: Group type not found", "delete", "7")
      yield* fails(s, "error: nothing to change: give --singular, --plural or --columns", "update", "0")
      yield* fails(s, "error: Not found.", "list", "--project", "999999")
    }))
})
