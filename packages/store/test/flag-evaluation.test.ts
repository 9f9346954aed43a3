import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  Bootstrap,
  CoreServices,
  FlagEvaluationService,
  FlagService,
  type ProjectId
} from "@hedgerow/core"
import { CohortRepository, ProjectRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Store } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { eventually, untilLive } from "./support.ts"

/**
 * How many times evaluation asked the store for a project by token, for a project's cohorts, for a
 * distinct id in static cohorts' lists, and for a page of a list.
 */
let tokenLookups = 0
let cohortReads = 0
let membershipReads = 0
let listReads = 0
const counted = Layer.merge(
  Layer.effect(
    ProjectRepository,
    Effect.map(Effect.service(ProjectRepository), (projects) => ({
      ...projects,
      findByToken: (token: string) => Effect.suspend(() => {
        tokenLookups++
        return projects.findByToken(token)
      })
    }))
  ),
  Layer.effect(
    CohortRepository,
    Effect.map(Effect.service(CohortRepository), (cohorts) => ({
      ...cohorts,
      live: (project: ProjectId) => Effect.suspend(() => {
        cohortReads++
        return cohorts.live(project)
      }),
      memberships: (distinctId: string, ids: ReadonlyArray<number>) => Effect.suspend(() => {
        membershipReads++
        return cohorts.memberships(distinctId, ids)
      }),
      members: (...args: Parameters<typeof cohorts.members>) => Effect.suspend(() => {
        listReads++
        return cohorts.members(...args)
      })
    }))
  )
)

const hedgerowCounted = (options: Store.StoreOptions) => {
  const store = Store.layer(options)
  return CoreServices.layerNoDeps.pipe(Layer.provide(counted.pipe(Layer.provide(store))), Layer.provideMerge(store))
}

forEachBackend((backend) =>
layer(backend.on(hedgerowCounted), { timeout: 60_000, excludeTestServices: true })(`flag evaluation from memory on ${backend.name}`, (it) => {
  /** The bootstrapped project, which the tests after the first share, and its public token. */
  let project = 0 as ProjectId
  let token = ""
  let ownerKey = ""

  it.effect("a project's flags are prepared once per change: the same snapshot until a flag of the project changes", () =>
    Effect.gen(function*() {
      yield* untilLive
      const boot = yield* (yield* Bootstrap).run({ email: "evaluation@example.com" })
      const actor = yield* Authentication.use((auth) => auth.authenticate(boot.personal_api_key))
      project = boot.project_id
      ownerKey = boot.personal_api_key
      const sql = yield* SqlClient.SqlClient
      token = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${project}`)[0]!.token
      const flags = yield* FlagService
      const evaluation = yield* FlagEvaluationService
      const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] }
      const first = yield* flags.create(actor, String(project), Effect.succeed({ key: "snapshot-first", filters: everyone }))
      yield* flags.create(actor, String(project), Effect.succeed({ key: "snapshot-second", filters: everyone }))
      // Both writes have reached memory once a snapshot holds both flags.
      yield* eventually(Effect.map(evaluation.snapshot(project), (s) => s.prepared.flags.length === 2))
      const before = yield* evaluation.snapshot(project)
      assert.strictEqual(yield* evaluation.snapshot(project), before)
      assert.deepStrictEqual(before.prepared.flags.map((flag) => flag.key), ["snapshot-first", "snapshot-second"])

      yield* flags.update(actor, String(project), String(first.id), Effect.succeed({ active: false }))
      yield* eventually(Effect.map(evaluation.snapshot(project), (s) => s.prepared.byKey.get("snapshot-first")!.flag.active === false))
      const after = yield* evaluation.snapshot(project)
      assert.notStrictEqual(after, before)
      assert.strictEqual(yield* evaluation.snapshot(project), after)
      // The flag that did not change is prepared once, whichever snapshot holds it, when memory took the
      // change row by row: a server on PostgreSQL forgets everything at its own commits and reads afresh.
      if (backend.name === "pglite") {
        assert.strictEqual(after.prepared.byKey.get("snapshot-second"), before.prepared.byKey.get("snapshot-second"))
      }

      const evaluated = yield* evaluation.serverFlags(project, { distinct_id: "someone" })
      assert.deepStrictEqual(
        [...evaluated].map(([key, flag]) => [key, flag.value]),
        [["snapshot-first", false], ["snapshot-second", true]]
      )
    }))

  it.effect("a project's cohorts are read once per change of the cohorts; dynamic ones become definitions, static ones none", () =>
    Effect.gen(function*() {
      yield* untilLive
      const sql = yield* SqlClient.SqlClient
      const evaluation = yield* FlagEvaluationService
      yield* evaluation.snapshot(project)
      const reads = cohortReads
      const before = yield* evaluation.snapshot(project)
      assert.strictEqual(cohortReads, reads)
      assert.strictEqual(before.prepared.cohorts.size, 0)

      const properties = { type: "OR", values: [{ type: "AND", values: [{ key: "plan", type: "person", value: "pro" }] }] }
      const insert = (name: string, filters: object, isStatic: boolean) =>
        sql`
          INSERT INTO cohorts (project_id, name, description, groups, filters, is_static, is_calculating, count, deleted)
          VALUES (${project}, ${name}, '', '[]'::jsonb, ${JSON.stringify(filters)}::jsonb, ${isStatic}, false, null, false)`
      yield* insert("Pro", { properties }, false)
      yield* eventually(Effect.map(evaluation.snapshot(project), (s) => s.prepared.cohorts.size === 1))
      const after = yield* evaluation.snapshot(project)
      assert.notStrictEqual(after, before)
      assert.deepStrictEqual([...after.prepared.cohorts.values()], [properties])
      const settled = cohortReads
      assert.strictEqual(yield* evaluation.snapshot(project), after)
      assert.strictEqual(cohortReads, settled)

      // A static cohort is a list of distinct ids: the cohorts are read again, and it defines nothing.
      yield* insert("Static", {}, true)
      yield* eventually(Effect.map(evaluation.snapshot(project), (s) => s !== after))
      assert.strictEqual((yield* evaluation.snapshot(project)).prepared.cohorts.size, 1)
    }))

  it.effect("/flags reads static cohorts' lists only when an active flag reaches one: held in memory until a cohort changes, asked per request past the bound", () =>
    Effect.gen(function*() {
      yield* untilLive
      const sql = yield* SqlClient.SqlClient
      const evaluation = yield* FlagEvaluationService
      const actor = yield* Authentication.use((auth) => auth.authenticate(ownerKey))
      const ask = (distinct_id: string) => evaluation.flags({ token, distinct_id }, {})
      const onListed = (distinct_id: string) => Effect.map(ask(distinct_id), (answer) => answer.flags.find((result) => result.key === "on-listed")?.enabled)
      const reads = { memberships: membershipReads, lists: listReads }
      const readsSince = () => ({ memberships: membershipReads - reads.memberships, lists: listReads - reads.lists })
      yield* ask("nobody")
      assert.deepStrictEqual(readsSince(), { memberships: 0, lists: 0 })
      const [listed] = yield* sql<{ id: number }>`
        INSERT INTO cohorts (project_id, name, description, groups, filters, is_static, is_calculating, count, deleted)
        VALUES (${project}, 'Listed', '', '[]'::jsonb, NULL, true, false, 1, false) RETURNING id`.pipe(Effect.orDie)
      yield* sql`INSERT INTO cohort_members (cohort_id, distinct_id) VALUES (${listed!.id}, 'insider')`.pipe(Effect.orDie)
      const flag = yield* FlagService.use((s) =>
        s.create(actor, String(project), Effect.succeed({
          key: "on-listed",
          active: false,
          filters: { groups: [{ properties: [{ type: "cohort", key: "id", value: listed!.id }], rollout_percentage: 100 }] }
        })))
      // An inactive flag reaches nothing: its conditions are not read.
      yield* eventually(Effect.map(evaluation.snapshot(project), (s) => s.prepared.byKey.has("on-listed")))
      yield* ask("insider")
      assert.deepStrictEqual(readsSince(), { memberships: 0, lists: 0 })
      yield* FlagService.use((s) => s.update(actor, String(project), String(flag.id), Effect.succeed({ active: true })))
      yield* eventually(Effect.map(evaluation.snapshot(project), (s) => s.staticCohorts.length === 1))
      // The list is read once, then every person is looked up in memory.
      assert.isTrue(yield* onListed("insider"))
      assert.isFalse(yield* onListed("outsider"))
      assert.isFalse(yield* onListed("someone else"))
      assert.deepStrictEqual(readsSince(), { memberships: 0, lists: 1 })
      // A member added changes the cohort's count: the list is read again.
      yield* CohortRepository.use((cohorts) => cohorts.addMembers(listed!.id as never, ["outsider"]))
      yield* eventually(Effect.map(onListed("outsider"), (enabled) => enabled === true))
      assert.strictEqual(readsSince().lists, 2)
      assert.strictEqual(readsSince().memberships, 0)
      // Past the bound the lists stay in the store: one read per request, none of the list.
      yield* sql`UPDATE cohorts SET count = 20001 WHERE id = ${listed!.id}`.pipe(Effect.orDie)
      yield* eventually(Effect.map(onListed("insider"), () => readsSince().memberships > 0))
      const held = readsSince()
      assert.isFalse(yield* onListed("nobody at all"))
      assert.isTrue(yield* onListed("outsider"))
      assert.deepStrictEqual(readsSince(), { memberships: held.memberships + 2, lists: held.lists })
      yield* FlagService.use((s) => s.update(actor, String(project), String(flag.id), Effect.succeed({ deleted: true })))
    }))

  it.effect("a project is found by its public token, from memory after the first read; an unknown token is asked every time", () =>
    Effect.gen(function*() {
      yield* untilLive
      const evaluation = yield* FlagEvaluationService
      assert.strictEqual(Option.getOrThrow(yield* evaluation.projectByToken(token)).id, project)
      const reads = tokenLookups
      assert.strictEqual(Option.getOrThrow(yield* evaluation.projectByToken(token)).id, project)
      assert.strictEqual(tokenLookups, reads)
      assert.isTrue(Option.isNone(yield* evaluation.projectByToken("phc_unknown")))
      assert.isTrue(Option.isNone(yield* evaluation.projectByToken("phc_unknown")))
      assert.strictEqual(tokenLookups, reads + 2)
    }))

  it.effect("the definitions for local evaluation send the dynamic cohorts the flags name, through other cohorts too, only when asked; made once per snapshot", () =>
    Effect.gen(function*() {
      yield* untilLive
      const sql = yield* SqlClient.SqlClient
      const evaluation = yield* FlagEvaluationService
      const insert = (name: string, filters: object, isStatic = false) =>
        Effect.map(
          sql<{ id: number }>`
            INSERT INTO cohorts (project_id, name, description, groups, filters, is_static, is_calculating, count, deleted)
            VALUES (${project}, ${name}, '', '[]'::jsonb, ${JSON.stringify(filters)}::jsonb, ${isStatic}, false, null, false)
            RETURNING id`,
          (rows) => rows[0]!.id
        )
      const leaf = { type: "OR", values: [{ type: "AND", values: [{ key: "email", type: "person", operator: "icontains", value: "@a" }] }] }
      const inner = yield* insert("Inner", { properties: leaf })
      const outer = { type: "AND", values: [{ type: "AND", values: [{ key: "id", type: "cohort", value: inner }] }] }
      const outerId = yield* insert("Outer", { properties: outer })
      yield* insert("Unnamed", { properties: leaf })
      const staticId = yield* insert("Static", {}, true)
      const actor = yield* Authentication.use((auth) => auth.authenticate(ownerKey))
      const cohortProperty = (id: number) => ({ key: "id", type: "cohort", value: id })
      yield* FlagService.use((flags) =>
        flags.create(actor, String(project), Effect.succeed({
          key: "on-cohorts",
          filters: { groups: [{ properties: [cohortProperty(outerId)], rollout_percentage: 100 }, { properties: [cohortProperty(staticId)], rollout_percentage: 100 }] }
        })))
      const ask = (sendCohorts: boolean) => evaluation.definitions(actor, { project: String(project), sendCohorts })
      yield* eventually(Effect.map(ask(true), (found) => found.body.flags.some((flag) => flag.key === "on-cohorts")))
      const withCohorts = yield* ask(true)
      assert.deepStrictEqual(withCohorts.body.cohorts, { [String(inner)]: leaf, [String(outerId)]: outer })
      const without = yield* ask(false)
      assert.deepStrictEqual(without.body.cohorts, {})
      assert.notStrictEqual(without.etag, withCohorts.etag)
      assert.strictEqual(yield* ask(true), withCohorts)
      assert.strictEqual(JSON.parse(withCohorts.json).cohorts[String(inner)].type, "OR")
    }))
}))
