import { assert, layer } from "@effect/vitest"
import { EventCaptureService, FlagCallsService, FlagEvaluationService, type ProjectId } from "@hedgerow/core"
import { FlagCallRepository } from "@hedgerow/core/ports"
import { Deferred, Effect, Fiber, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { forEachBackend } from "../src/testing/index.ts"
import { create, freshKey, setUp } from "./flag-owner.ts"
import { eventually, hedgerowWrapping, type Hold, makeHold, throughHold, untilLive } from "./support.ts"

/** Each add (one statement) with the number of counts it carried, once it has ended. */
const adds: Array<number> = []
/** While set, the next add is held before it reaches the store. */
let held: Hold | undefined
const counted = Layer.effect(
  FlagCallRepository,
  Effect.map(Effect.service(FlagCallRepository), (calls) => ({
    ...calls,
    add: (increments: Parameters<typeof calls.add>[0]) =>
      Effect.suspend(() => {
        const hold = held
        held = undefined
        return throughHold(hold, calls.add(increments).pipe(Effect.ensuring(Effect.sync(() => adds.push(increments.length)))))
      })
  }))
)

const INTERVAL_MS = 300

const hedgerowCounted = hedgerowWrapping(counted, INTERVAL_MS)

const tokenOf = (project: ProjectId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${project}`, (rows) => rows[0]!.token))

const storedOf = (flag: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql<{ value: string; count: number }>`SELECT value, count::integer AS count FROM feature_flag_calls WHERE flag_id = ${flag} ORDER BY value`)

const call = (key: string, response: unknown) => ({ event: "$feature_flag_called", distinct_id: "d", properties: { $feature_flag: key, $feature_flag_response: response } })

forEachBackend((backend) =>
layer(backend.on(hedgerowCounted), { timeout: 60_000, excludeTestServices: true })(`flag calls from events on ${backend.name}`, (it) => {
  it.effect("a flood of events is counted in memory and added to the store in one statement per interval, shown at once", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { actor, project, projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const flag = yield* create({ key: freshKey("called"), filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      yield* eventually(Effect.map(FlagEvaluationService.use((e) => e.snapshot(projectId)), (s) => s.prepared.byId.has(flag.id)))
      const capture = (batch: ReadonlyArray<unknown>) => EventCaptureService.use((s) => s.capture({ api_key: token, batch }, { engage: false }))
      const before = adds.length
      for (let i = 0; i < 20; i++) yield* capture(Array.from({ length: 500 }, (_, j) => call(flag.key, (i + j) % 4 !== 0)))
      // Before any write, the report shows this process's counts.
      const report = yield* FlagCallsService.use((s) => s.usage(actor, project, String(flag.id), {}))
      assert.deepStrictEqual(report.results.map((series) => [series.breakdown_value, series.count]), [["true", 7_500], ["false", 2_500]])
      yield* eventually(Effect.map(storedOf(flag.id), (rows) => rows.reduce((sum, row) => sum + row.count, 0) === 10_000))
      assert.deepStrictEqual([...(yield* storedOf(flag.id))], [{ value: "false", count: 2_500 }, { value: "true", count: 7_500 }])
      // Ten thousand calls took a statement or two, each of the flag's two counts of the day.
      assert.isAtMost(adds.slice(before).filter((n) => n > 0).length, 3)
      assert.isTrue(adds.slice(before).every((n) => n <= 2))
      // Once written, the report reads them from the store, counted once.
      yield* Effect.sleep(`${2 * INTERVAL_MS} millis`)
      const after = yield* FlagCallsService.use((s) => s.usage(actor, project, String(flag.id), {}))
      assert.strictEqual(after.total, 10_000)
    }))

  it.effect("a report asked for while a write is under way counts each call once", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { actor, project, projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const flag = yield* create({ key: freshKey("midwrite"), filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      yield* eventually(Effect.map(FlagEvaluationService.use((e) => e.snapshot(projectId)), (s) => s.prepared.byId.has(flag.id)))
      const hold = yield* makeHold
      held = hold
      yield* EventCaptureService.use((s) => s.capture({ api_key: token, batch: Array.from({ length: 30 }, () => call(flag.key, true)) }, { engage: false }))
      // The write has taken the counts from memory and not yet reached the store when the report is asked for.
      yield* Deferred.await(hold.begun)
      const reading = yield* Effect.forkChild(FlagCallsService.use((s) => s.usage(actor, project, String(flag.id), {})))
      yield* Effect.sleep("100 millis")
      yield* Deferred.succeed(hold.release, undefined)
      const report = yield* Fiber.join(reading)
      assert.deepStrictEqual(report.results.map((series) => [series.breakdown_value, series.count]), [["true", 30]])
      assert.deepStrictEqual([...(yield* storedOf(flag.id))], [{ value: "true", count: 30 }])
    }))

  it.effect("a flag's calls go with it when its organization is deleted", () =>
    Effect.gen(function*() {
      yield* untilLive
      const sql = yield* SqlClient.SqlClient
      const { projectId } = yield* setUp
      const flag = yield* create({ key: freshKey("doomed"), filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      yield* (yield* FlagCallRepository).add([{ flag: flag.id, day: "2026-01-02", value: "true", count: 3 }])
      assert.strictEqual((yield* storedOf(flag.id)).length, 1)
      yield* sql`DELETE FROM feature_flags WHERE id = ${flag.id}`
      assert.strictEqual((yield* storedOf(flag.id)).length, 0)
      // An add naming a flag gone meanwhile passes it over.
      yield* (yield* FlagCallRepository).add([{ flag: flag.id, day: "2026-01-02", value: "true", count: 1 }])
      assert.strictEqual((yield* storedOf(flag.id)).length, 0)
      assert.isAbove(projectId, 0)
    }))
})
)
