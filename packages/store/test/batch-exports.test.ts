import { assert, layer } from "@effect/vitest"
import {
  type BatchExportId,
  BatchExportService,
  Bootstrap,
  bodyOf,
  type OrganizationId,
  OrganizationService,
  systemActor
} from "@hedgerow/core"
import { BatchExportRepository } from "@hedgerow/core/ports"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

// One bootstrap per store (each backend's layer has its own), made on first use.
const booted = new WeakMap<object, { readonly organization_id: OrganizationId; readonly project_id: number }>()

/** A new export in the store's bootstrapped organization. */
const setUp = Effect.gen(function*() {
  const bootstrap = yield* Bootstrap
  const boot = booted.get(bootstrap) ?? (yield* bootstrap.run({ email: "exports@example.com" }))
  booted.set(bootstrap, boot)
  const made = yield* (yield* BatchExportService).create(systemActor, boot.organization_id, { project_id: boot.project_id, name: "Nightly" })
  return { organization: boot.organization_id, id: made.id }
})

const stateOf = (organization: OrganizationId, id: BatchExportId) =>
  Effect.flatMap(Effect.service(BatchExportRepository), (repository) => repository.find(organization, id).pipe(Effect.map(Option.getOrThrow)))

const notFoundNaming = (id: string) => (error: { readonly _tag: string; readonly detail: string }) =>
  assert.deepStrictEqual([error._tag, error.detail], ["NotFound", `BatchExport ID '${id}' not found.`])

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(`batch export pause switch on ${backend.name}`, (it) => {
  it.effect("pause stamps last_paused_at once; repeats change nothing; unpause keeps the stamp", () =>
    Effect.gen(function*() {
      const { organization, id } = yield* setUp
      const exports = yield* BatchExportService
      const fresh = yield* stateOf(organization, id)
      assert.deepStrictEqual([fresh.paused, fresh.last_paused_at], [false, null])

      yield* exports.pause(systemActor, organization, id, bodyOf({}))
      const paused = yield* stateOf(organization, id)
      assert.isTrue(paused.paused)
      assert.match(paused.last_paused_at ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)

      yield* Effect.sleep(5)
      yield* exports.pause(systemActor, organization, id, bodyOf({ paused: false }))
      assert.deepStrictEqual(yield* stateOf(organization, id), paused)

      yield* exports.unpause(systemActor, organization, id, bodyOf({ last_paused_at: null }))
      yield* exports.unpause(systemActor, organization, id, bodyOf({}))
      const resumed = yield* stateOf(organization, id)
      assert.deepStrictEqual([resumed.paused, resumed.last_paused_at], [false, paused.last_paused_at])

      yield* Effect.sleep(5)
      yield* exports.pause(systemActor, organization, id, bodyOf({}))
      const again = yield* stateOf(organization, id)
      assert.isTrue(again.paused)
      assert.isAbove(Date.parse(again.last_paused_at!), Date.parse(paused.last_paused_at!))
    }))

  it.effect("concurrent pauses of a running export all succeed and leave it paused", () =>
    Effect.gen(function*() {
      const { organization, id } = yield* setUp
      const exports = yield* BatchExportService
      yield* Effect.all(Array.from({ length: 5 }, () => exports.pause(systemActor, organization, id, bodyOf({}))), { concurrency: "unbounded" })
      const state = yield* stateOf(organization, id)
      assert.isTrue(state.paused)
      assert.isNotNull(state.last_paused_at)
    }))

  it.effect("a deleted export, or another organization's, is 404 naming the id", () =>
    Effect.gen(function*() {
      const { organization, id } = yield* setUp
      const exports = yield* BatchExportService
      const other = yield* (yield* OrganizationService).create(systemActor, { name: "Elsewhere" })
      for (const action of [exports.pause, exports.unpause]) {
        notFoundNaming(id)(yield* action(systemActor, other.id, id, bodyOf({})).pipe(Effect.flip))
      }
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE batch_exports SET deleted = true WHERE id = ${id}`
      for (const action of [exports.pause, exports.unpause]) {
        notFoundNaming(id)(yield* action(systemActor, organization, id.toUpperCase(), bodyOf({})).pipe(Effect.flip))
      }
      const kept = yield* sql<{ paused: boolean }>`SELECT paused FROM batch_exports WHERE id = ${id}`
      assert.isFalse(kept[0]!.paused)
      // Reads leave it out too: retrieve answers the same 404, and the list does not hold it.
      notFoundNaming(id)(yield* exports.retrieve(systemActor, organization, id).pipe(Effect.flip))
      const listed = yield* exports.list(systemActor, organization, { limit: "1000" })
      assert.isFalse(listed.results.some((item) => item.id === id))
      assert.strictEqual(listed.count, listed.results.length)
    }))

  it.effect("the list is newest first, each export in PostHog's shape with its project as team_id", () =>
    Effect.gen(function*() {
      const first = yield* setUp
      const second = yield* setUp
      const exports = yield* BatchExportService
      const { results } = yield* exports.list(systemActor, first.organization, { limit: "1000" })
      const ids = results.map((item) => item.id)
      assert.isBelow(ids.indexOf(second.id), ids.indexOf(first.id))
      const sorted = [...results].sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at))
      assert.deepStrictEqual(results.map((item) => item.created_at), sorted.map((item) => item.created_at))
      const shown = yield* exports.retrieve(systemActor, first.organization, first.id)
      assert.deepStrictEqual(results[ids.indexOf(first.id)], shown)
      assert.strictEqual(shown.team_id, (booted.get(yield* Bootstrap))!.project_id)
      assert.deepStrictEqual(Object.keys(shown), [
        "id", "team_id", "name", "model", "destination", "interval", "paused", "created_at", "last_paused_at", "start_at", "end_at", "hogql_query"
      ])
    }))
}))
