import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { lines, runChild, runInProcess, serverSession } from "./cli-runner.ts"

// The server and its in-memory store live for the whole file; bootstrap happens once, on first use.
const connect = serverSession()
type Session = Effect.Success<typeof connect>

const hedgerow = (s: Session, ...args: ReadonlyArray<string>) => runInProcess([...args, "--url", s.url, "--key", s.key])
const flags = (s: Session, ...args: ReadonlyArray<string>) => hedgerow(s, "flags", ...args)

/** Runs a command that must succeed with nothing on stderr, and parses its one JSON document. */
const json = (s: Session, ...args: ReadonlyArray<string>) =>
  hedgerow(s, ...args, "--json").pipe(Effect.map((ran) => {
    assert.strictEqual(ran.stderr, "", `stderr of ${args.join(" ")}`)
    assert.strictEqual(ran.code, 0)
    return JSON.parse(ran.stdout) as Record<string, any>
  }))

/** Creates a flag with these filters (and other fields) in the project. */
const createFlag = (s: Session, key: string, filters: object, ...more: ReadonlyArray<string>) =>
  json(s, "flags", "create", key, "--filters", JSON.stringify(filters), "--no-usage-dashboard", ...more)

/** What the server itself answers, fetched without the CLI. */
const fetchJson = (url: string, init?: RequestInit) =>
  Effect.promise(async () => {
    const response = await fetch(url, init)
    return { status: response.status, body: await response.json() as Record<string, any> }
  })

const everyone = { properties: [], rollout_percentage: 100 }

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }), { excludeTestServices: true })("hedgerow flags evaluate and definitions", (it) => {
  it.effect("a boolean flag is on or off by a person property given with --prop", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* createFlag(s, "pro-only", {
        groups: [{ properties: [{ key: "plan", type: "person", operator: "exact", value: ["pro"] }], rollout_percentage: 100 }]
      })
      const on = yield* flags(s, "evaluate", "pro-only", "--distinct-id", "ann", "--prop", "plan=pro", "--prop", "country=FR")
      assert.strictEqual(on.stderr, "")
      assert.strictEqual(on.code, 0)
      assert.deepStrictEqual(lines(on.stdout), [
        "key              pro-only",
        "enabled          true",
        "variant          -",
        "reason           condition_match (Matched condition set 1)",
        "condition_index  0",
        "payload          -"
      ])
      const off = yield* flags(s, "evaluate", "pro-only", "--distinct-id", "ann", "--prop", "plan=free")
      assert.strictEqual(off.code, 0)
      assert.deepStrictEqual(lines(off.stdout).slice(1, 4), [
        "enabled          false",
        "variant          -",
        "reason           no_condition_match (No matching condition set)"
      ])
      // No property at all: the condition asks for a value, so it fails (a later --prop wins over an earlier one).
      const later = yield* json(s, "flags", "evaluate", "pro-only", "--distinct-id", "ann", "--prop", "plan=pro", "--prop", "plan=free")
      assert.strictEqual(later.enabled, false)
      assert.strictEqual((yield* json(s, "flags", "evaluate", "pro-only", "--distinct-id", "ann")).enabled, false)
    }))

  it.effect("--prop values go as text, which numeric operators read as numbers", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* createFlag(s, "adults", {
        groups: [{ properties: [{ key: "age", type: "person", operator: "gt", value: "17" }], rollout_percentage: 100 }]
      })
      assert.strictEqual((yield* json(s, "flags", "evaluate", "adults", "--distinct-id", "bo", "--prop", "age=30")).enabled, true)
      assert.strictEqual((yield* json(s, "flags", "evaluate", "adults", "--distinct-id", "bo", "--prop", "age=9")).enabled, false)
    }))

  it.effect("a multivariate flag shows its variant and payload; --json is the v2 entry exactly as /flags?v=2 answers it", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const flag = yield* createFlag(s, "checkout", {
        groups: [everyone],
        multivariate: { variants: [{ key: "control", rollout_percentage: 0 }, { key: "blue", rollout_percentage: 100 }] },
        payloads: { blue: JSON.stringify({ color: "blue" }) }
      })
      const text = yield* flags(s, "evaluate", "checkout", "--distinct-id", "cy")
      assert.deepStrictEqual(lines(text.stdout), [
        "key              checkout",
        "enabled          true",
        "variant          blue",
        "reason           condition_match (Matched condition set 1)",
        "condition_index  0",
        "payload          {\"color\":\"blue\"}"
      ])

      const ran = yield* flags(s, "evaluate", "checkout", "--distinct-id", "cy", "--json")
      assert.strictEqual(ran.code, 0)
      const project = yield* json(s, "projects", "get", "@current")
      const direct = yield* fetchJson(`${s.url}/flags/?v=2`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: project.api_token, distinct_id: "cy", flag_keys_to_evaluate: ["checkout"] })
      })
      assert.strictEqual(direct.status, 200)
      assert.strictEqual(ran.stdout, `${JSON.stringify(direct.body.flags.checkout, null, 2)}\n`)
      assert.deepStrictEqual(JSON.parse(ran.stdout), {
        key: "checkout",
        enabled: true,
        variant: "blue",
        reason: { code: "condition_match", condition_index: 0, description: "Matched condition set 1" },
        metadata: { id: flag.id, version: 1, description: null, payload: "{\"color\":\"blue\"}" }
      })
    }))

  it.effect("a group flag needs --group type=key, the type by its name; without it, or by its index, no group type", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const company = yield* json(s, "group-types", "create", "company")
      yield* createFlag(s, "org-beta", {
        aggregation_group_type_index: company.group_type_index,
        groups: [{ properties: [], rollout_percentage: 100 }]
      })
      const without = yield* json(s, "flags", "evaluate", "org-beta", "--distinct-id", "di")
      assert.deepStrictEqual([without.enabled, without.reason.code], [false, "no_group_type"])
      const within = yield* json(s, "flags", "evaluate", "org-beta", "--distinct-id", "di", "--group", "company=acme")
      assert.deepStrictEqual([within.enabled, within.reason.code], [true, "condition_match"])
      const byIndex = yield* json(s, "flags", "evaluate", "org-beta", "--distinct-id", "di", "--group", `${company.group_type_index}=acme`)
      assert.deepStrictEqual([byIndex.enabled, byIndex.reason.code], [false, "no_group_type"])
    }))

  it.effect("--runtime asks as an SDK of that runtime; by default every runtime's flags are evaluated", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* createFlag(s, "server-side", { groups: [everyone] }, "--data", JSON.stringify({ evaluation_runtime: "server" }))
      assert.strictEqual((yield* json(s, "flags", "evaluate", "server-side", "--distinct-id", "ed")).enabled, true)
      assert.strictEqual((yield* json(s, "flags", "evaluate", "server-side", "--distinct-id", "ed", "--runtime", "server")).enabled, true)
      const client = yield* flags(s, "evaluate", "server-side", "--distinct-id", "ed", "--runtime", "client")
      assert.strictEqual(client.code, 1)
      assert.deepStrictEqual(lines(client.stderr), [`error: project ${s.project} has no active flag with key server-side for the client runtime`])
    }))

  it.effect("an unknown or inactive flag key, a bad --prop or --group, and a bad key each fail with one line", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const unknown = yield* flags(s, "evaluate", "no-such-flag", "--distinct-id", "fay")
      assert.strictEqual(unknown.code, 1)
      assert.strictEqual(unknown.stdout, "")
      assert.deepStrictEqual(lines(unknown.stderr), [`error: project ${s.project} has no active flag with key no-such-flag`])
      yield* createFlag(s, "switched-off", { groups: [everyone] }, "--active", "false")
      const inactive = yield* flags(s, "evaluate", "switched-off", "--distinct-id", "fay", "--json")
      assert.deepStrictEqual([inactive.code, inactive.stdout], [1, ""])
      assert.deepStrictEqual(lines(inactive.stderr), [`error: project ${s.project} has no active flag with key switched-off`])
      // A key that names something on Object's prototype is still just an unknown flag.
      const prototype = yield* flags(s, "evaluate", "constructor", "--distinct-id", "fay")
      assert.deepStrictEqual(lines(prototype.stderr), [`error: project ${s.project} has no active flag with key constructor`])

      const noEquals = yield* flags(s, "evaluate", "pro-only", "--distinct-id", "fay", "--prop", "plan")
      assert.deepStrictEqual([noEquals.code, noEquals.stdout], [1, ""])
      assert.deepStrictEqual(lines(noEquals.stderr), ["error: --prop \"plan\": expected key=value with a non-empty key"])
      const noKey = yield* flags(s, "evaluate", "pro-only", "--distinct-id", "fay", "--group", "=acme")
      assert.deepStrictEqual(lines(noKey.stderr), ["error: --group \"=acme\": expected key=value with a non-empty key"])
      const noPerson = yield* flags(s, "evaluate", "pro-only")
      assert.strictEqual(noPerson.code, 1)
      assert.deepStrictEqual(lines(noPerson.stderr), ["error: Missing required flag: --distinct-id (see hedgerow flags evaluate --help)"])

      const badKey = yield* runInProcess(["flags", "evaluate", "pro-only", "--distinct-id", "fay", "--url", s.url, "--key", "phx_not_a_key"])
      assert.deepStrictEqual([badKey.code, badKey.stdout], [1, ""])
      assert.deepStrictEqual(lines(badKey.stderr), ["error: Personal API key found in request Authorization header is invalid."])
    }))

  it.effect("definitions: a table of the project's flags, or with --json the body exactly as the server sends it", () =>
    Effect.gen(function*() {
      const s = yield* connect
      const gated = yield* createFlag(s, "gated", {
        groups: [
          {
            properties: [
              { key: "plan", type: "person", operator: "exact", value: ["pro"] },
              { key: "age", type: "person", operator: "gt", value: "17" }
            ],
            rollout_percentage: 50
          },
          { properties: [], rollout_percentage: null }
        ]
      })
      const split = yield* createFlag(s, "split", {
        groups: [everyone],
        multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
      }, "--active", "false")
      const grouped = yield* createFlag(s, "grouped", { aggregation_group_type_index: 1, groups: [everyone] })

      const ran = yield* flags(s, "definitions", "--json")
      assert.strictEqual(ran.code, 0)
      const direct = yield* fetchJson(`${s.url}/api/projects/${s.project}/feature_flags/local_evaluation/`, {
        headers: { authorization: `Bearer ${s.key}` }
      })
      assert.strictEqual(direct.status, 200)
      assert.strictEqual(ran.stdout, `${JSON.stringify(direct.body, null, 2)}\n`)
      const keys = direct.body.flags.map((f: { key: string }) => f.key)

      // The other tests' flags are in the same project: the table has a row for each, in the body's order.
      const text = yield* flags(s, "definitions")
      assert.strictEqual(text.stderr, "")
      const rows = lines(text.stdout).map((line) => line.split(/ {2,}/))
      assert.deepStrictEqual(rows[0], ["ID", "KEY", "ACTIVE", "CONDITIONS", "ROLLOUT", "VARIANTS", "GROUP_TYPE"])
      assert.deepStrictEqual(rows.slice(1, -1).map((row) => row[1]), keys)
      assert.deepStrictEqual(rows.at(-1), [`${keys.length} flags`])
      const rowOf = (key: string) => rows.find((row) => row[1] === key)
      assert.deepStrictEqual(rowOf("gated"), [String(gated.id), "gated", "true", "2", "plan+age: 50%, 100%", "-", "-"])
      assert.deepStrictEqual(rowOf("split"), [String(split.id), "split", "false", "1", "100%", "control: 50%, test: 50%", "-"])
      assert.deepStrictEqual(rowOf("grouped"), [String(grouped.id), "grouped", "true", "1", "100%", "-", "1"])
    }))

  it.effect("definitions --send-cohorts adds the dynamic cohorts the flags name", () =>
    Effect.gen(function*() {
      const s = yield* connect
      // The API makes only static cohorts; a dynamic one is written to the store as PostHog's would be.
      const sql = yield* SqlClient.SqlClient
      const definition = { type: "OR", values: [{ type: "AND", values: [{ key: "plan", type: "person", operator: "exact", value: ["pro"] }] }] }
      const [cohort] = yield* sql<{ id: number }>`
        INSERT INTO cohorts (project_id, name, description, groups, filters, is_static, is_calculating, count, deleted)
        VALUES (${s.project}, 'Pro', '', '[]'::jsonb, ${JSON.stringify({ properties: definition })}::jsonb, false, false, null, false)
        RETURNING id`
      const flag = yield* createFlag(s, "for-pros", {
        groups: [{ properties: [{ key: "id", type: "cohort", value: cohort!.id }], rollout_percentage: 100 }]
      })

      // The cohort reaches the server's memory through the change feed, shortly after it is written.
      const withCohorts = yield* json(s, "flags", "definitions", "--send-cohorts").pipe(
        Effect.flatMap((body) => Object.keys(body.cohorts).length > 0 ? Effect.succeed(body) : Effect.fail("not yet")),
        Effect.retry(Schedule.spaced("50 millis")),
        Effect.timeout("10 seconds")
      )
      assert.deepStrictEqual(withCohorts.cohorts, { [String(cohort!.id)]: definition })
      assert.deepStrictEqual((yield* json(s, "flags", "definitions")).cohorts, {})
      const text = yield* flags(s, "definitions", "--send-cohorts")
      const rows = lines(text.stdout).map((line) => line.split(/ {2,}/))
      assert.deepStrictEqual(rows.find((row) => row[1] === "for-pros"), [String(flag.id), "for-pros", "true", "1", `cohort ${cohort!.id}: 100%`, "-", "-"])
      assert.deepStrictEqual(rows.at(-1), [`${withCohorts.flags.length} flags, 1 cohort`])
    }))

  it.effect("end to end (child process): evaluate prints one JSON object, or one error line and exit code 1", () =>
    Effect.gen(function*() {
      const s = yield* connect
      yield* createFlag(s, "shell", { groups: [everyone] })
      const env = { HEDGEROW_URL: s.url, HEDGEROW_API_KEY: s.key }
      const on = yield* runChild(["flags", "evaluate", "shell", "--distinct-id", "gil", "--json"], env)
      assert.deepStrictEqual([on.code, on.stderr], [0, ""])
      assert.strictEqual(JSON.parse(on.stdout).enabled, true)
      const missing = yield* runChild(["flags", "evaluate", "not-there", "--distinct-id", "gil", "--json"], env)
      assert.deepStrictEqual([missing.code, missing.stdout], [1, ""])
      assert.deepStrictEqual(lines(missing.stderr), [`error: project ${s.project} has no active flag with key not-there`])
    }))
})
