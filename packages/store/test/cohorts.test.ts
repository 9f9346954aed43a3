import { assert, layer } from "@effect/vitest"
import {
  type Actor,
  Authentication,
  bodyOf,
  Bootstrap,
  CohortService,
  FlagEvaluationService,
  FlagService,
  FormBody
} from "@hedgerow/core"
import { Effect, Exit, Result } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { eventually } from "./support.ts"

/** Rows of the cohort tables and of their activity: what a refused or failed write must leave as it was. */
const traces = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const count = (rows: ReadonlyArray<{ n: number }>) => rows[0]!.n
  return {
    cohorts: count(yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM cohorts`),
    members: count(yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM cohort_members`),
    activity: count(yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM activity_log WHERE scope = 'Cohort'`)
  }
}).pipe(Effect.orDie)

const csvForm = (csv: string, fields: ReadonlyArray<readonly [string, string]> = [["name", "Uploaded"], ["is_static", "true"]]) =>
  bodyOf(new FormBody(fields, new Map([["csv", { name: "ids.csv", content: new TextEncoder().encode(csv) }]])))

const person = (key: string, value: unknown, operator = "exact") => ({ type: "person", key, value, operator })
const group = (type: "AND" | "OR", ...values: ReadonlyArray<object>) => ({ type, values })

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000 })(`cohorts on ${backend.name}`, (it) => {
  let owner: Actor
  let project = ""

  const cohorts = CohortService
  const flagOn = (key: string, distinct_id: string) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const token = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${Number(project)}`.pipe(Effect.orDie))[0]!.token
      const answer = yield* FlagEvaluationService.use((s) => s.flags({ token, distinct_id, flag_keys_to_evaluate: [key] }, {}))
      return answer.flags.find((flag) => flag.key === key)?.enabled
    })

  it.effect("a dynamic cohort is stored as PostHog's model dumps it, answers PostHog's fields, and its creation is logged", () =>
    Effect.gen(function*() {
      const boot = yield* (yield* Bootstrap).run({ email: "owner@cohorts.example" })
      owner = yield* Authentication.use((a) => a.authenticate(boot.personal_api_key))
      project = String(boot.project_id)
      const created = yield* cohorts.use((s) =>
        s.create(owner, project, bodyOf({ name: "  Pros ", filters: { properties: group("OR", group("AND", person("plan", ["pro"]), { ...person("email", "test", "icontains"), negation: "true", bytecode: [1] })) } })))
      assert.strictEqual(created.name, "Pros")
      assert.deepStrictEqual(created.filters, {
        properties: group("OR", group("AND", { ...person("plan", ["pro"]), negation: false }, { ...person("email", "test", "icontains"), negation: true }))
      })
      assert.deepStrictEqual([created.is_static, created.count, created.is_calculating, created.cohort_type], [false, null, false, null])
      const activity = yield* cohorts.use((s) => s.activity(owner, project, String(created.id), {}))
      assert.deepStrictEqual(activity.results.map((entry) => [entry.activity, entry.detail.name, entry.detail.changes]), [["created", "Pros", null]])
    }))

  it.effect("a static cohort takes distinct ids from its list and its CSV, counts them, lists them, and adds and removes them", () =>
    Effect.gen(function*() {
      const created = yield* cohorts.use((s) =>
        s.create(owner, project, csvForm("distinct_id,name\n  anna ,A\nbob,B\n\nanna,again\n", [["name", "Uploaded"], ["is_static", "true"], ["_create_static_person_ids", "carl"]])))
      assert.deepStrictEqual([created.is_static, created.count, created.cohort_type], [true, 3, "static"])
      const id = String(created.id)
      const page = yield* cohorts.use((s) => s.persons(owner, project, id, {}))
      assert.deepStrictEqual(page.distinctIds, ["anna", "bob", "carl"])
      yield* cohorts.use((s) => s.addPersons(owner, project, id, bodyOf({ person_ids: ["dora", "anna", 42, null, ""] })))
      yield* cohorts.use((s) => s.removePerson(owner, project, id, bodyOf({ person_id: "bob" })))
      const after = yield* cohorts.use((s) => s.retrieve(owner, project, id))
      assert.strictEqual(after.count, 4)
      assert.deepStrictEqual((yield* cohorts.use((s) => s.persons(owner, project, id, { limit: "2", offset: "1" }))).distinctIds, ["anna", "carl"])
      const activity = yield* cohorts.use((s) => s.activity(owner, project, id, {}))
      assert.deepStrictEqual(activity.results.map((entry) => entry.activity), ["person_removed_manually", "persons_added_manually", "created"])
      // A CSV on a PATCH adds to the list.
      const patched = yield* cohorts.use((s) => s.update(owner, project, id, csvForm("eve\nfred\n", [])))
      assert.strictEqual(patched.count, 6)
    }))

  it.effect("a refused write leaves nothing behind: a CSV refused after every field passed, a flag's cohort deleted, a loop drawn", () =>
    Effect.gen(function*() {
      const before = yield* traces
      const refused = yield* Effect.flip(cohorts.use((s) => s.create(owner, project, csvForm("person_id,name\nx,y\n"))))
      assert.strictEqual(refused._tag, "ValidationError")
      assert.deepStrictEqual(yield* traces, before)

      const inner = yield* cohorts.use((s) => s.create(owner, project, bodyOf({ name: "Inner", filters: { properties: group("AND", group("AND", person("age", 18, "gt"))) } })))
      const outer = yield* cohorts.use((s) =>
        s.create(owner, project, bodyOf({ name: "Outer", filters: { properties: group("AND", group("AND", { type: "cohort", key: "id", value: inner.id })) } })))
      const loop = yield* Effect.flip(cohorts.use((s) =>
        s.update(owner, project, String(inner.id), bodyOf({ filters: { properties: group("AND", group("AND", { type: "cohort", key: "id", value: outer.id })) } }))))
      assert.deepStrictEqual(fieldsOf(loop), refusal("Cohorts cannot reference other cohorts in a loop."))
      const flag = yield* FlagService.use((s) =>
        s.create(owner, project, bodyOf({ key: "outer-flag", filters: { groups: [{ properties: [{ type: "cohort", key: "id", value: outer.id }], rollout_percentage: 100 }] } })))
      const middle = yield* traces
      const blocked = yield* Effect.flip(cohorts.use((s) => s.update(owner, project, String(inner.id), bodyOf({ deleted: true }))))
      assert.deepStrictEqual(
        fieldsOf(blocked),
        refusal("This cohort is used in 1 active feature flag(s): outer-flag. Please remove the cohort from these feature flags before deleting it.")
      )
      assert.deepStrictEqual(yield* traces, middle)
      yield* FlagService.use((s) => s.update(owner, project, String(flag.id), bodyOf({ active: false })))
      const named = yield* Effect.flip(cohorts.use((s) => s.update(owner, project, String(inner.id), bodyOf({ deleted: true }))))
      assert.deepStrictEqual(
        fieldsOf(named),
        refusal("This cohort is used as criteria in 1 other cohort(s): Outer. Please remove this cohort from those cohort definitions before deleting it.")
      )
      yield* cohorts.use((s) => s.update(owner, project, String(outer.id), bodyOf({ deleted: true })))
      const deleted = yield* cohorts.use((s) => s.update(owner, project, String(inner.id), bodyOf({ deleted: true })))
      assert.isTrue(deleted.deleted)
      const activity = yield* cohorts.use((s) => s.activity(owner, project, String(inner.id), {}))
      assert.deepStrictEqual(activity.results[0]!.activity, "deleted")
      assert.deepStrictEqual(activity.results[0]!.detail.changes, [{ type: "Cohort", action: "changed", field: "deleted", before: false, after: true }])
    }))

  it.effect("a failure of the database half-way through a static cohort's members leaves no cohort, no member and no entry", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const before = yield* traces
      yield* sql.unsafe(`CREATE FUNCTION refuse_member() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN IF NEW.distinct_id = 'poison' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`)
      yield* sql.unsafe(`CREATE TRIGGER refuse_member BEFORE INSERT ON cohort_members FOR EACH ROW EXECUTE FUNCTION refuse_member()`)
      const ids = [...Array.from({ length: 1200 }, (_, i) => `member-${i}`), "poison"]
      const failed = yield* Effect.exit(cohorts.use((s) => s.create(owner, project, bodyOf({ name: "Doomed", is_static: true, _create_static_person_ids: ids }))))
      yield* sql.unsafe(`DROP TRIGGER refuse_member ON cohort_members`)
      yield* sql.unsafe(`DROP FUNCTION refuse_member()`)
      assert.isTrue(Exit.hasDies(failed))
      assert.deepStrictEqual(yield* traces, before)
    }))

  it.effect("two changes drawing the two halves of a loop at once: one is written, the other refused", () =>
    Effect.gen(function*() {
      const one = yield* cohorts.use((s) => s.create(owner, project, bodyOf({ name: "One", filters: { properties: group("AND", group("AND", person("a", 1))) } })))
      const two = yield* cohorts.use((s) => s.create(owner, project, bodyOf({ name: "Two", filters: { properties: group("AND", group("AND", person("b", 2))) } })))
      const naming = (id: number) => bodyOf({ filters: { properties: group("AND", group("AND", { type: "cohort", key: "id", value: id })) } })
      const outcomes = yield* Effect.all([
        Effect.result(cohorts.use((s) => s.update(owner, project, String(one.id), naming(two.id)))),
        Effect.result(cohorts.use((s) => s.update(owner, project, String(two.id), naming(one.id))))
      ], { concurrency: "unbounded" })
      const refusals = outcomes.flatMap((outcome) => Result.isFailure(outcome) ? [fieldsOf(outcome.failure)] : [])
      assert.deepStrictEqual(refusals, [refusal("Cohorts cannot reference other cohorts in a loop.")])
    }))

  it.effect("/flags reads a static cohort's list for the request's distinct id, directly and through a dynamic cohort", () =>
    Effect.gen(function*() {
      const listed = yield* cohorts.use((s) => s.create(owner, project, bodyOf({ name: "Listed", is_static: true, _create_static_person_ids: ["insider"] })))
      const either = yield* cohorts.use((s) =>
        s.create(owner, project, bodyOf({
          name: "Listed or pro",
          filters: { properties: group("OR", group("OR", { type: "cohort", key: "id", value: listed.id }, person("plan", "pro"))) }
        })))
      for (const [key, cohort] of [["on-listed", listed.id], ["on-either", either.id]] as const) {
        yield* FlagService.use((s) =>
          s.create(owner, project, bodyOf({ key, filters: { groups: [{ properties: [{ type: "cohort", key: "id", value: cohort }], rollout_percentage: 100 }] } })))
      }
      yield* eventually(Effect.map(flagOn("on-listed", "insider"), (on) => on === true))
      assert.isTrue(yield* flagOn("on-either", "insider"))
      assert.isFalse(yield* flagOn("on-listed", "outsider"))
      assert.isFalse(yield* flagOn("on-either", "outsider"))
      yield* cohorts.use((s) => s.addPersons(owner, project, String(listed.id), bodyOf({ person_ids: ["outsider"] })))
      assert.isTrue(yield* flagOn("on-either", "outsider"))
    }))
}))

const refusal = (detail: string) => ({ _tag: "ValidationError", code: "invalid", detail, attr: null })
/** An error's envelope fields, to compare with `refusal`. */
const fieldsOf = (error: { readonly _tag: string; readonly detail: string; readonly code?: string; readonly attr?: string | null }) =>
  ({ _tag: error._tag, code: error.code, detail: error.detail, attr: error.attr })
