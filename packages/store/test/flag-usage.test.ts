import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  Bootstrap,
  FlagEvaluationService,
  FlagService,
  FlagUsageInterval,
  type FlagView,
  type ProjectId
} from "@hedgerow/core"
import { FlagRepository, FlagUsageRepository } from "@hedgerow/core/ports"
import { Context, Deferred, type Duration, Effect, Exit, Layer, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { Hedgerow, type StoreOptions } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { create, freshKey, retrieve, setUp } from "./flag-owner.ts"
import { eventually, hedgerowWrapping, type Hold, makeHold, throughHold, untilLive } from "./support.ts"

/** Each usage write (one statement) with the flags it named, once it has ended, and the flag reads the read model made. */
const writes: Array<ReadonlyArray<number>> = []
let flagReads = 0
/** While set, the next usage write is held before it reaches the store. */
let held: Hold | undefined
const counted = Layer.merge(
  Layer.effect(
    FlagUsageRepository,
    Effect.map(Effect.service(FlagUsageRepository), (usage) => ({
      ...usage,
      write: (ids: Parameters<typeof usage.write>[0], at: Parameters<typeof usage.write>[1]) =>
        Effect.suspend(() => {
          const hold = held
          held = undefined
          // Counted once done, failed or not: a test that sees the count has seen the write's end.
          return throughHold(hold, usage.write(ids, at).pipe(Effect.ensuring(Effect.sync(() => writes.push([...ids].sort((a, b) => a - b))))))
        })
    }))
  ),
  Layer.effect(
    FlagRepository,
    Effect.map(Effect.service(FlagRepository), (flags) => ({
      ...flags,
      live: (project: ProjectId) => Effect.suspend(() => (flagReads++, flags.live(project))),
      among: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.suspend(() => (flagReads++, flags.among(project, ids)))
    }))
  )
)

/** The usage interval of the suites: short, so a test waits a few of them. */
const INTERVAL_MS = 300

const hedgerowCounted = hedgerowWrapping(counted, INTERVAL_MS)

const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] }

/** The project's public token, as SDKs send it to `/flags`. */
const tokenOf = (project: ProjectId) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${project}`, (rows) => rows[0]!.token))

/** `POST /flags` for one person, as posthog-node sends it. */
const remoteFlags = (token: string, only?: ReadonlyArray<string>) =>
  FlagEvaluationService.use((evaluation) =>
    evaluation.flags({ token, distinct_id: "someone", ...(only === undefined ? {} : { flag_keys_to_evaluate: only }) }, { "user-agent": "posthog-node/5.0.0" })
  )

/** What the row says of a flag, beside its mark. */
const rowOf = (id: number) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    Effect.map(
      sql<{ last_called_at: string | null; version: number; updated_at: string; entries: number }>`
        SELECT last_called_at::text, version, updated_at::text,
          (SELECT count(*)::integer FROM activity_log WHERE scope = 'FeatureFlag' AND item_id = ${String(id)}) AS entries
        FROM feature_flags WHERE id = ${id}`,
      (rows) => rows[0]
    ))

const millis = (flag: FlagView) => (flag.last_called_at === null ? null : Date.parse(flag.last_called_at))

forEachBackend((backend) =>
layer(backend.on(hedgerowCounted), { timeout: 60_000, excludeTestServices: true })(`last_called_at from evaluations on ${backend.name}`, (it) => {
  it.effect("an evaluation marks the flags it answers, shown at once and written for all of them in one statement after the interval; the flag's definition, version, updated_at, activity and definitions ETag stay as they were", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { actor, project, projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const evaluation = yield* FlagEvaluationService
      const on = yield* create({ key: freshKey("used"), filters: everyone })
      const other = yield* create({ key: freshKey("also-used"), filters: everyone })
      const off = yield* create({ key: freshKey("disabled"), filters: everyone, active: false })
      const definitions = () => evaluation.definitions(actor, { project, sendCohorts: false })
      yield* eventually(Effect.map(definitions(), (d) => d.body.flags.length === 3))
      const before = yield* Effect.forEach([on, other, off], (flag) => rowOf(flag.id))
      const etag = (yield* definitions()).etag
      const snapshot = yield* evaluation.snapshot(projectId)
      assert.isNull((yield* retrieve(on.id)).last_called_at)

      // Lined up just after a write, so that the next evaluations all fall in one interval.
      const written = writes.length
      yield* remoteFlags(token)
      yield* eventually(Effect.sync(() => writes.length > written))
      const reads = flagReads
      const lined = writes.length
      const first = Date.now()
      yield* remoteFlags(token)
      yield* remoteFlags(token, [other.key])
      const last = yield* remoteFlags(token, [on.key])
      // Before any write, the answer shows this process's mark.
      assert.strictEqual(millis(yield* retrieve(on.id)), last.evaluatedAt)
      assert.isAtLeast(millis(yield* retrieve(other.id))!, first)
      assert.isNull((yield* retrieve(off.id)).last_called_at)
      // The store still has the mark of the evaluation written before them.
      assert.isBelow(Date.parse((yield* rowOf(on.id))!.last_called_at!), last.evaluatedAt)

      yield* eventually(Effect.sync(() => writes.length > lined))
      yield* Effect.sleep(`${3 * INTERVAL_MS} millis`)
      assert.deepStrictEqual(writes.slice(lined), [[on.id, other.id]], "one write for every evaluation of the interval, none once nothing is new")
      const after = yield* Effect.forEach([on, other, off], (flag) => rowOf(flag.id))
      assert.strictEqual(Date.parse(after[0]!.last_called_at!), last.evaluatedAt)
      assert.isNull(after[2]!.last_called_at)
      for (const [i, row] of after.entries()) {
        assert.deepStrictEqual({ ...row, last_called_at: null }, { ...before[i]!, last_called_at: null }, "only last_called_at changed")
      }
      // Read back from the store once memory heard of the write: the same instant.
      const shown = yield* retrieve(on.id)
      assert.strictEqual(millis(shown), last.evaluatedAt)
      assert.strictEqual(shown.version, on.version)
      assert.strictEqual(shown.updated_at, on.updated_at)
      // The write changed no definition: no flag was read again, evaluation kept its snapshot, and the
      // definitions their ETag.
      assert.strictEqual(flagReads, reads)
      assert.strictEqual(yield* evaluation.snapshot(projectId), snapshot)
      assert.strictEqual((yield* definitions()).etag, etag)
    }))

  it.effect("a mark on its way to the store is shown meanwhile", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const flag = yield* create({ key: freshKey("midwrite"), filters: everyone })
      yield* eventually(Effect.map(FlagEvaluationService.use((e) => e.snapshot(projectId)), (s) => s.prepared.byId.has(flag.id)))
      const hold = yield* makeHold
      held = hold
      const evaluated = yield* remoteFlags(token, [flag.key])
      // The write has taken the mark from memory and not yet reached the store. Released whatever
      // happens: a write held for good would hold the layer's closing too.
      yield* Effect.gen(function*() {
        yield* Deferred.await(hold.begun)
        assert.isNull((yield* rowOf(flag.id))!.last_called_at)
        assert.strictEqual(millis(yield* retrieve(flag.id)), evaluated.evaluatedAt)
      }).pipe(Effect.ensuring(Deferred.succeed(hold.release, undefined)))
      yield* eventually(Effect.map(rowOf(flag.id), (row) => row!.last_called_at !== null))
      assert.strictEqual(millis(yield* retrieve(flag.id)), evaluated.evaluatedAt)
    }))

  it.effect("a flag's status follows its calls: in use when called today, stale once not called for 30 days, in the list's STALE filter too", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { actor, project, projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const partial = { groups: [{ properties: [], rollout_percentage: 40 }] }
      const called = yield* create({ key: freshKey("called-today"), filters: partial })
      const forgotten = yield* create({ key: freshKey("called-long-ago"), filters: partial })
      const status = (id: number) => FlagService.use((flags) => flags.status(actor, project, String(id)))
      assert.deepStrictEqual(yield* status(called.id), { status: "active", reason: "Flag has no usage data yet" })
      yield* eventually(Effect.map(remoteFlags(token, [called.key]), (answer) => answer.flags.length === 1))
      assert.deepStrictEqual(yield* status(called.id), { status: "active", reason: "Flag was called today" })
      // A call 40 days ago, as the store would hold it from an SDK that has not called since.
      const long_ago = new Date(Date.now() - 40 * 24 * 60 * 60 * 1000).toISOString()
      yield* FlagUsageRepository.use((usage) => usage.write([forgotten.id], [long_ago as never]))
      yield* eventually(Effect.map(status(forgotten.id), (found) => found.status === "stale"))
      assert.deepStrictEqual(yield* status(forgotten.id), { status: "stale", reason: "Flag has not been called in 40 days" })
      const list = (active: string) =>
        FlagService.use((flags) => flags.list(actor, project, { active, search: "called-" }))
      const stale = yield* list("STALE")
      assert.deepStrictEqual(stale.results.map((flag) => [flag.key, flag.status]), [[forgotten.key, "STALE"]])
      const active = yield* list("true")
      assert.deepStrictEqual(
        new Map(active.results.map((flag) => [flag.key, flag.status])),
        new Map([[called.key, "ACTIVE"], [forgotten.key, "STALE"]])
      )
    }))

  it.effect("the definitions for local evaluation mark nothing; in-process evaluation and remote configuration fetches do", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { actor, project, projectId } = yield* setUp
      const evaluation = yield* FlagEvaluationService
      const local = yield* create({ key: freshKey("local-only"), filters: everyone })
      yield* eventually(Effect.map(evaluation.snapshot(projectId), (s) => s.prepared.byId.has(local.id)))
      yield* evaluation.definitions(actor, { project, sendCohorts: true })
      yield* Effect.sleep(`${3 * INTERVAL_MS} millis`)
      assert.isNull((yield* retrieve(local.id)).last_called_at)
      assert.isNull((yield* rowOf(local.id))!.last_called_at)

      yield* evaluation.serverFlags(projectId, { distinct_id: "someone" })
      assert.isNotNull((yield* retrieve(local.id)).last_called_at)

      const config = yield* create({ key: freshKey("config"), is_remote_configuration: true, filters: { ...everyone, payloads: { true: "{\"a\":1}" } } })
      yield* eventually(Effect.map(evaluation.snapshot(projectId), (s) => s.prepared.byId.has(config.id)))
      const written = writes.length
      yield* evaluation.remoteConfig(actor, { project }, config.key)
      yield* eventually(Effect.sync(() => writes.slice(written).some((ids) => ids.includes(config.id))))
      assert.isNotNull((yield* rowOf(config.id))!.last_called_at)
    }))

  it.effect("a flag removed between its mark and the write does not fail the write of the others", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const evaluation = yield* FlagEvaluationService
      const sql = yield* SqlClient.SqlClient
      const kept = yield* create({ key: freshKey("kept"), filters: everyone })
      const gone = yield* create({ key: freshKey("gone"), filters: everyone })
      yield* eventually(Effect.map(evaluation.snapshot(projectId), (s) => s.prepared.byId.has(gone.id)))
      const written = writes.length
      yield* remoteFlags(token, [kept.key, gone.key])
      yield* sql`DELETE FROM feature_flags WHERE id = ${gone.id}`
      yield* eventually(Effect.sync(() => writes.slice(written).some((ids) => ids.includes(gone.id))))
      assert.isNotNull((yield* rowOf(kept.id))!.last_called_at)
      // Written, not kept for another try: nothing more is written once nothing is new.
      const settled = writes.length
      yield* Effect.sleep(`${3 * INTERVAL_MS} millis`)
      assert.strictEqual(writes.length, settled)
    }))

  it.effect("a write the store refuses is logged, and its marks are written by a later one", () =>
    Effect.gen(function*() {
      yield* untilLive
      const { projectId } = yield* setUp
      const token = yield* tokenOf(projectId)
      const sql = yield* SqlClient.SqlClient
      const flag = yield* create({ key: freshKey("retried"), filters: everyone })
      yield* eventually(Effect.map(FlagEvaluationService.use((e) => e.snapshot(projectId)), (s) => s.prepared.byId.has(flag.id)))
      // The column away, every write fails.
      yield* sql`ALTER TABLE feature_flags RENAME COLUMN last_called_at TO last_called_at_away`
      const tried = writes.length
      const { evaluatedAt } = yield* remoteFlags(token, [flag.key])
      yield* eventually(Effect.sync(() => writes.slice(tried).filter((ids) => ids.includes(flag.id)).length >= 2))
      yield* sql`ALTER TABLE feature_flags RENAME COLUMN last_called_at_away TO last_called_at`
      yield* eventually(Effect.map(rowOf(flag.id), (row) => row?.last_called_at != null))
      assert.strictEqual(Date.parse((yield* rowOf(flag.id))!.last_called_at!), evaluatedAt)
      assert.strictEqual(millis(yield* retrieve(flag.id)), evaluatedAt)
    }))
}))

/** The options of a new, empty store, for a test that opens several Hedgerows on it, one after the other or side by side. */
class EmptyStore extends Context.Service<EmptyStore, StoreOptions>()("test/EmptyStore") {}

/** A store that outlives the layers opened on it: PGlite in a data directory of its own. */
const lastingStore = (backend: { readonly name: string }, options: StoreOptions) => {
  if (backend.name !== "pglite") return Layer.succeed(EmptyStore, options)
  return Layer.effect(
    EmptyStore,
    Effect.acquireRelease(
      Effect.sync(() => ({ dataDir: mkdtempSync(path.join(tmpdir(), "hedgerow-usage-")) })),
      ({ dataDir }) => Effect.sync(() => rmSync(dataDir, { recursive: true, force: true }))
    )
  )
}

/** Hedgerow on the store, built in a scope the test closes as a server stops. */
const open = (options: StoreOptions, interval: Duration.Input) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(
      Hedgerow.layer(options).pipe(Layer.provide(Layer.succeed(FlagUsageInterval, interval))),
      scope
    )
    return { run: <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.provide(effect, context), close: Scope.close(scope, Exit.void) }
  })

forEachBackend((backend) =>
layer(backend.on((options) => lastingStore(backend, options)), { timeout: 60_000, excludeTestServices: true })(`last_called_at across stops on ${backend.name}`, (it) => {
  it.effect("stopping writes the marks not yet written", () =>
    Effect.gen(function*() {
      const options = yield* EmptyStore
      const first = yield* open(options, "1 hour")
      const { flag, evaluatedAt } = yield* first.run(Effect.gen(function*() {
        yield* untilLive
        const { projectId } = yield* setUp
        const flag = yield* create({ key: freshKey("until-stop"), filters: everyone })
        const token = yield* tokenOf(projectId)
        yield* eventually(Effect.map(FlagEvaluationService.use((e) => e.snapshot(projectId)), (s) => s.prepared.byId.has(flag.id)))
        const { evaluatedAt } = yield* remoteFlags(token)
        assert.strictEqual(millis(yield* retrieve(flag.id)), evaluatedAt)
        assert.isNull((yield* rowOf(flag.id))!.last_called_at)
        return { flag, evaluatedAt }
      }))
      yield* first.close
      const second = yield* open(options, "1 hour")
      const row = yield* second.run(rowOf(flag.id))
      yield* second.close
      assert.strictEqual(Date.parse(row!.last_called_at!), evaluatedAt)
    }))
}))

forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  layer(backend.on((options) => Layer.succeed(EmptyStore, options)), { timeout: 60_000, excludeTestServices: true })(`last_called_at across processes on ${backend.name}`, (it) => {
    it.effect("another process shows a mark once it is written", () =>
      Effect.gen(function*() {
        const options = yield* EmptyStore
        const [writer, reader] = yield* Effect.all([open({ ...options, poolSize: 2 }, "200 millis"), open({ ...options, poolSize: 2 }, "200 millis")])
        const { key, project, flag } = yield* writer.run(Effect.gen(function*() {
          yield* untilLive
          const boot = yield* Bootstrap.use((bootstrap) => bootstrap.run({ email: "across@example.com" }))
          const actor = yield* Authentication.use((auth) => auth.authenticate(boot.personal_api_key))
          const flag = yield* FlagService.use((flags) =>
            flags.create(actor, String(boot.project_id), Effect.succeed({ key: "across", filters: everyone })))
          return { key: boot.personal_api_key, project: boot.project_id, flag }
        }))
        const readerRetrieve = reader.run(Effect.gen(function*() {
          const actor = yield* Authentication.use((auth) => auth.authenticate(key))
          return yield* FlagService.use((flags) => flags.retrieve(actor, String(project), String(flag.id)))
        }))
        // The reader holds the flag in memory before the mark.
        yield* reader.run(untilLive)
        assert.isNull((yield* readerRetrieve).last_called_at)
        const { evaluatedAt } = yield* writer.run(Effect.gen(function*() {
          const token = yield* tokenOf(project)
          yield* eventually(Effect.map(FlagEvaluationService.use((e) => e.snapshot(project)), (s) => s.prepared.byId.has(flag.id)))
          return yield* remoteFlags(token)
        }))
        yield* eventually(Effect.map(readerRetrieve, (shown) => millis(shown) === evaluatedAt))
        yield* Effect.all([writer.close, reader.close])
      }))
  })
})
