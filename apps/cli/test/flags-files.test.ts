import { assert, describe, it } from "@effect/vitest"
import { Bootstrap } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import type { StoreOptions } from "@hedgerow/store"
import { type Backend, forEachBackend } from "@hedgerow/store/testing"
import { Effect, Layer } from "effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { lines, runChild, runInProcess } from "./cli-runner.ts"

const serverOn = (store: StoreOptions) => HedgerowServer.layer({ port: 0, host: "127.0.0.1", store })
/** The embedded store in memory. */
const embedded: Backend["on"] = (build) => build({})

/** A server of its own, on a new store of the backend, bootstrapped: its URL, key and project. */
const deploymentOn = (on: Backend["on"]) => Effect.gen(function*() {
  // Fresh: each deployment is a server and a store of its own.
  const context = yield* Layer.build(Layer.fresh(on(serverOn)))
  return yield* Effect.gen(function*() {
    const url = yield* HedgerowServer.baseUrl
    const boot = yield* Effect.flatMap(Effect.service(Bootstrap), (b) => b.run({ email: "owner@example.com" }))
    return { url, key: boot.personal_api_key, project: boot.project_id as number }
  }).pipe(Effect.provide(context))
})
type Deployment = Effect.Success<ReturnType<typeof deploymentOn>>

/** One API call, its JSON answer (and status). */
const call = (at: Deployment, method: string, route: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${at.url}/api/projects/${at.project}/${route}`, {
      method,
      headers: { authorization: `Bearer ${at.key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: (await response.json()) as any }
  })

const made = (at: Deployment, route: string, body: unknown) =>
  Effect.map(call(at, "POST", route, body), (reply) => {
    assert.strictEqual(reply.status, 201, JSON.stringify(reply.body))
    return reply.body
  })

const cli = (at: Deployment, ...args: ReadonlyArray<string>) =>
  runInProcess(["flags", ...args, "--url", at.url, "--key", at.key, "--project", String(at.project)])

const tempFile = (name: string, text: string) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-flags-file-"))
  const file = path.join(dir, name)
  fs.writeFileSync(file, text)
  return file
}

const cohortFilter = (id: unknown) => ({ type: "cohort", key: "id", value: id })
const personFilter = (key: string, value: string) => ({ type: "person", key, value, operator: "exact" })
const properties = (...values: ReadonlyArray<unknown>) => ({ properties: { type: "OR", values: [{ type: "AND", values }] } })

/** A project with group types, dynamic and static cohorts naming each other, and flags naming cohorts, flags and group types. */
const populate = (at: Deployment) =>
  Effect.gen(function*() {
    yield* made(at, "groups_types/", { group_type: "company" })
    yield* made(at, "groups_types/", { group_type: "team" })
    const leaf = yield* made(at, "cohorts/", { name: "Pro plans", filters: properties(personFilter("plan", "pro")) })
    const head = yield* made(at, "cohorts/", { name: "Pro in Europe", description: "EU pros", filters: properties(cohortFilter(leaf.id), personFilter("region", "eu")) })
    const list = yield* made(at, "cohorts/", { name: "Beta testers", is_static: true })
    const base = yield* made(at, "feature_flags/", { key: "new-billing", name: "Billing", filters: { groups: [{ properties: [], rollout_percentage: 30 }] } })
    yield* made(at, "feature_flags/", {
      key: "billing-banner",
      tags: ["billing", "ui"],
      filters: {
        groups: [
          { properties: [{ type: "flag", key: String(base.id), value: true, operator: "flag_evaluates_to" }, cohortFilter(head.id)], rollout_percentage: 100 },
          { properties: [cohortFilter(list.id)], rollout_percentage: 100 }
        ],
        payloads: { true: "{\"text\": \"New billing\"}" }
      }
    })
    yield* made(at, "feature_flags/", {
      key: "team-dashboards",
      active: false,
      filters: {
        aggregation_group_type_index: 1,
        groups: [{ properties: [{ type: "group", group_type_index: 1, key: "size", value: "large", operator: "exact" }], rollout_percentage: 50 }]
      }
    })
  })

forEachBackend((backend) => describe(`hedgerow flags export and import (${backend.name})`, () => {
  const deployment = deploymentOn(backend.on)

  it.effect("copies a project to another deployment: the dry run says what would change, the import does it, and a second import changes nothing", () =>
    Effect.gen(function*() {
      // Two deployments on two kinds of store, when the backend is PostgreSQL.
      const source = yield* deploymentOn(embedded)
      const target = yield* deployment
      yield* populate(source)
      // The target numbers its group types otherwise: `team` is its index 0.
      yield* made(target, "groups_types/", { group_type: "team" })
      yield* made(target, "feature_flags/", { key: "legacy-switch" })

      const exported = yield* cli(source, "export")
      assert.strictEqual(exported.code, 0, exported.stderr)
      // The executable (its bundle) writes the same file.
      const viaBinary = yield* runChild(["flags", "export", "--url", source.url, "--key", source.key, "--project", String(source.project)])
      assert.strictEqual(viaBinary.stdout, exported.stdout, viaBinary.stderr)
      const file = JSON.parse(exported.stdout)
      assert.deepStrictEqual(file.group_types.map((type: any) => [type.group_type_index, type.group_type]), [[0, "company"], [1, "team"]])
      assert.deepStrictEqual(file.cohorts.map((cohort: any) => cohort.name), ["Beta testers", "Pro in Europe", "Pro plans"])
      const banner = file.flags.find((flag: any) => flag.key === "billing-banner")
      // References are names and keys, never ids.
      assert.deepStrictEqual(banner.filters.groups.map((group: any) => group.properties.map((p: any) => p.key === "id" ? p.value : p.key)), [["new-billing", "Pro in Europe"], ["Beta testers"]])
      assert.deepStrictEqual(file.cohorts[1].filters.properties.values[0].values[0].value, "Pro plans")
      const path = tempFile("flags.json", exported.stdout)

      const dry = yield* cli(target, "import", path, "--dry-run")
      assert.strictEqual(dry.code, 0, dry.stderr)
      assert.deepStrictEqual(lines(dry.stdout), [
        "create group type \"company\"",
        "unchanged group type \"team\"",
        "create cohort \"Beta testers\"",
        "create cohort \"Pro in Europe\"",
        "create cohort \"Pro plans\"",
        "create flag billing-banner",
        "create flag new-billing",
        "create flag team-dashboards",
        "left alone (not in the file): flag legacy-switch",
        "7 to create, 0 to update, 1 unchanged, 1 left alone (dry run: nothing written)"
      ])
      const untouched = yield* call(target, "GET", "feature_flags/")
      assert.deepStrictEqual(untouched.body.results.map((flag: any) => flag.key), ["legacy-switch"])

      const imported = yield* cli(target, "import", path)
      assert.strictEqual(imported.code, 0, imported.stderr)
      assert.strictEqual(lines(imported.stdout).at(-1), "7 created, 0 updated, 1 unchanged, 1 left alone")
      // The target's own ids and indexes: `team` stays 0 there, `company` takes 1.
      const teamFlag = (yield* call(target, "GET", "feature_flags/?search=team-dashboards")).body.results[0]
      assert.strictEqual(teamFlag.filters.aggregation_group_type_index, 0)
      assert.strictEqual(teamFlag.filters.groups[0].properties[0].group_type_index, 0)
      assert.strictEqual(teamFlag.active, false)

      // What the target now holds reads as the same file (its group types numbered its own way).
      const back = JSON.parse((yield* cli(target, "export")).stdout)
      assert.deepStrictEqual(back.cohorts, file.cohorts)
      assert.deepStrictEqual(back.flags.filter((flag: any) => flag.key !== "legacy-switch" && flag.key !== "team-dashboards"), file.flags.filter((flag: any) => flag.key !== "team-dashboards"))

      const again = yield* cli(target, "import", path, "--json")
      assert.strictEqual(again.code, 0, again.stderr)
      const plan = JSON.parse(again.stdout)
      assert.deepStrictEqual(plan.records.filter((record: any) => record.action !== "unchanged"), [])
      assert.deepStrictEqual(plan.left_alone, [{ kind: "flag", name: "legacy-switch" }])
    }))

  it.effect("the dry run names each field an update changes, and the import writes only those", () =>
    Effect.gen(function*() {
      const at = yield* deployment
      yield* populate(at)
      const file = JSON.parse((yield* cli(at, "export")).stdout)
      const banner = file.flags.find((flag: any) => flag.key === "billing-banner")
      banner.active = false
      banner.tags = ["billing"]
      file.cohorts.find((cohort: any) => cohort.name === "Pro plans").description = "Paying on the pro plan"
      file.flags.push({ ...banner, key: "billing-banner-v2", active: true })
      const path = tempFile("changed.json", JSON.stringify(file))
      const dry = yield* cli(at, "import", path, "--dry-run")
      assert.deepStrictEqual(lines(dry.stdout), [
        "unchanged group type \"company\"",
        "unchanged group type \"team\"",
        "unchanged cohort \"Beta testers\"",
        "unchanged cohort \"Pro in Europe\"",
        "update cohort \"Pro plans\": description",
        "update flag billing-banner: active, tags",
        "unchanged flag new-billing",
        "unchanged flag team-dashboards",
        "create flag billing-banner-v2",
        "1 to create, 2 to update, 6 unchanged, 0 left alone (dry run: nothing written)"
      ])
      const imported = yield* cli(at, "import", path)
      assert.strictEqual(imported.code, 0, imported.stderr)
      const after = JSON.parse((yield* cli(at, "export")).stdout)
      assert.deepStrictEqual(after, { ...file, flags: [...file.flags].sort((a: any, b: any) => (a.key < b.key ? -1 : 1)) })
      // The changed flag was PATCHed once: one version more.
      const written = (yield* call(at, "GET", "feature_flags/?search=billing-banner")).body.results.find((flag: any) => flag.key === "billing-banner")
      assert.strictEqual(written.version, 2)
    }))

  it.effect("a hostile or broken file is refused with one clear line, and nothing is written", () =>
    Effect.gen(function*() {
      const at = yield* deployment
      const good = { hedgerow_flags_file: 1, group_types: [], cohorts: [], flags: [] }
      const flag = { key: "f", name: "", active: true, filters: { groups: [] }, ensure_experience_continuity: false, tags: [], evaluation_runtime: "all", is_remote_configuration: false, has_encrypted_payloads: false }
      // Nested far past any stack's depth, written as text (JSON.stringify itself would overflow).
      const deep = `${"[".repeat(100_000)}"leaf"${"]".repeat(100_000)}`
      const cases: ReadonlyArray<readonly [string, string]> = [
        ["{ not json", "is not valid JSON"],
        [JSON.stringify([good]), ": Invalid data. Expected a dictionary, but got list."],
        [JSON.stringify({ ...good, hedgerow_flags_file: 2 }), ": hedgerow_flags_file: "],
        [JSON.stringify({ ...good, flags: "all of them" }), ": flags: Expected a list of items but got type \"str\"."],
        [JSON.stringify({ ...good, flags: [{ ...flag, key: "" }] }), ": flags__0__key: This field may not be blank."],
        [JSON.stringify({ ...good, flags: [flag, flag] }), ": flags__1: \"f\" appears twice in flags."],
        [JSON.stringify({ ...good, flags: [{ ...flag, filters: { groups: [{ properties: [], rollout_percentage: 250 }] } }] }), ": flags__0__filters: "],
        [JSON.stringify({ ...good, flags: [{ ...flag, filters: { groups: [{ properties: [cohortFilter("nobody")] }] } }] }), "The flag \"f\" names cohort \"nobody\", which the file does not hold."],
        [
          JSON.stringify({
            ...good,
            cohorts: [
              { name: "a", description: "", is_static: false, filters: properties(cohortFilter("b")) },
              { name: "b", description: "", is_static: false, filters: properties(cohortFilter("a")) }
            ]
          }),
          "names itself through other cohorts, in a loop."
        ],
        [
          JSON.stringify({ ...good, flags: [{ ...flag, filters: { groups: [{ properties: [], rollout_percentage: 10 }], nested: "DEEP" } }] }).replace("\"DEEP\"", deep),
          ": flags: Nested too deeply: at most 100 levels."
        ],
        [`${JSON.stringify(good).slice(0, -1)}, "padding": "${"x".repeat(17 * 1024 * 1024)}"}`, "is larger than 16 MiB: not a flags file"]
      ]
      for (const [text, message] of cases) {
        const path = tempFile("hostile.json", text)
        const started = Date.now()
        const ran = yield* cli(at, "import", path)
        assert.strictEqual(ran.code, 1, `${message}: ${ran.stdout}`)
        assert.strictEqual(ran.stdout, "")
        assert.include(ran.stderr, message)
        assert.strictEqual(lines(ran.stderr).length, 1, ran.stderr)
        assert.isBelow(Date.now() - started, 5_000)
      }
      const flags = yield* call(at, "GET", "feature_flags/")
      assert.deepStrictEqual(flags.body.results, [])
      const cohorts = yield* call(at, "GET", "cohorts/")
      assert.deepStrictEqual(cohorts.body.results, [])
    }))

  it.effect("flags copy copies a flag to other projects of the organization, one line per target", () =>
    Effect.gen(function*() {
      const at = yield* deployment
      yield* populate(at)
      const other = yield* Effect.promise(async () => {
        const response = await fetch(`${at.url}/api/organizations/@current/projects/`, {
          method: "POST",
          headers: { authorization: `Bearer ${at.key}`, "content-type": "application/json" },
          body: JSON.stringify({ name: "Staging" })
        })
        return ((await response.json()) as { id: number }).id
      })
      const copy = (key: string, to: string) =>
        runInProcess(["flags", "copy", key, "--to", to, "--from", String(at.project), "--url", at.url, "--key", at.key])
      // The banner depends on new-billing: without a flag of that key there, the target refuses it.
      const early = yield* copy("billing-banner", String(other))
      assert.deepStrictEqual(lines(early.stdout), [`not copied to project ${other}: Flag dependency references non-existent flag with ID ${(yield* call(at, "GET", "feature_flags/?search=new-billing")).body.results[0].id}`])
      assert.strictEqual((yield* copy("new-billing", String(other))).code, 0)
      const ran = yield* copy("billing-banner", `${other},999999`)
      assert.strictEqual(ran.code, 1)
      const [copied, refused] = lines(ran.stdout)
      assert.match(copied!, new RegExp(`^copied billing-banner to project ${other} \\(flag \\d+, version 1\\)$`))
      assert.strictEqual(refused, "not copied to project 999999: Project not found.")
      assert.deepStrictEqual(lines(ran.stderr), ["error: not copied to 1 of 2 projects"])
      // The flag arrived with the cohorts and the flag it names.
      const there = { ...at, project: other }
      const cohorts = (yield* call(there, "GET", "cohorts/")).body.results.map((cohort: any) => cohort.name).sort()
      assert.deepStrictEqual(cohorts, ["Beta testers", "Pro in Europe", "Pro plans"])
    }))
}))
