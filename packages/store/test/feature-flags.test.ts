import { assert, layer } from "@effect/vitest"
import { FlagService } from "@hedgerow/core"
import { activityEntry, FlagRepository, newFlagColumns } from "@hedgerow/core/ports"
import { Effect, Exit, Option, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { create, freshKey, patch, retrieve, setUp } from "./flag-owner.ts"

/**
 * Feature flags on the real store, through core's services: the guarantees that need a database to
 * prove (one winner among concurrent writers, whole-transaction rollback, indexes) and that the
 * conformance scenarios cannot observe from outside.
 */

const countWhere = (table: "feature_flags" | "activity_log" | "dashboards", column: string, value: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql.unsafe<{ n: number }>(`SELECT count(*)::integer AS n FROM ${table} WHERE ${column} = $1`, [value])
    return rows[0]!.n
  })

/** A database-side fault for one statement: a trigger that refuses rows matching `condition`. */
const failWhen = (table: string, condition: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // One statement per query: a PostgreSQL server takes no more in a prepared (extended-protocol) one.
    yield* sql.unsafe(`
      CREATE OR REPLACE FUNCTION hedgerow_test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'injected fault'; END $$`)
    yield* sql.unsafe(`
      CREATE TRIGGER hedgerow_test_fault BEFORE INSERT ON ${table}
        FOR EACH ROW WHEN (${condition}) EXECUTE FUNCTION hedgerow_test_fault()`)
    return sql.unsafe(`DROP TRIGGER hedgerow_test_fault ON ${table}`)
  })

/** A filter making a flag depend on the flag `id` being true. */
const dependingOn = (id: number) => ({
  groups: [{ properties: [{ key: String(id), type: "flag", operator: "flag_evaluates_to", value: true }], rollout_percentage: 100 }]
})

forEachBackend((backend) =>
layer(backend.on(Hedgerow.layer), { timeout: 120_000, excludeTestServices: true })(`feature flags on ${backend.name}`, (it) => {
  it.effect("concurrent PATCHes carrying the same version: exactly one succeeds, the others are 409", () =>
    Effect.gen(function*() {
      const flag = yield* create({ key: freshKey("race") })
      const outcomes = yield* Effect.forEach(
        Array.from({ length: 8 }, (_, i) => i),
        (i) => patch(flag.id, { version: flag.version, name: `writer ${i}` }).pipe(Effect.exit),
        { concurrency: "unbounded" }
      )
      const won = outcomes.filter(Exit.isSuccess)
      assert.strictEqual(won.length, 1)
      for (const lost of outcomes.filter(Exit.isFailure)) {
        const error = Exit.findErrorOption(lost)
        assert.deepStrictEqual(error._tag === "Some" && error.value._tag === "Conflict" ? [error.value._tag, error.value.detail] : [], [
          "Conflict",
          "The feature flag was updated by flags@example.com since you started editing it. Please refresh and try again."
        ])
      }
      const after = yield* retrieve(flag.id)
      assert.strictEqual(after.version, 2)
      assert.strictEqual(after.name, Exit.isSuccess(won[0]!) ? won[0]!.value.name : "")
      assert.strictEqual(yield* countWhere("activity_log", "item_id", String(flag.id)), 2)
    }))

  it.effect("concurrent PATCHes without a version all apply, in order: each answer is its own change, the log chains them", () =>
    Effect.gen(function*() {
      const flag = yield* create({ key: freshKey("chain") })
      const names = Array.from({ length: 8 }, (_, i) => `writer ${i}`)
      const answers = yield* Effect.forEach(names, (name) => patch(flag.id, { name }), { concurrency: "unbounded" })
      // Each request sees the flag as its own change left it, one version after the one before.
      const byVersion = [...answers].sort((a, b) => a.version - b.version)
      assert.deepStrictEqual(byVersion.map((answer) => answer.version), names.map((_, i) => i + 2))
      assert.deepStrictEqual(byVersion.map((answer) => answer.name).sort(), names)
      const after = yield* retrieve(flag.id)
      assert.deepStrictEqual([after.version, after.name], [byVersion.at(-1)!.version, byVersion.at(-1)!.name])
      const sql = yield* SqlClient.SqlClient
      const log = yield* sql<{ readonly before: string; readonly after: string }>`
        SELECT c->>'before' AS before, c->>'after' AS after FROM activity_log, jsonb_array_elements(detail->'changes') c
        WHERE item_id = ${String(flag.id)} AND activity = 'updated' AND c->>'field' = 'name'
        ORDER BY created_at, id`
      // Newest last, each change starting where the one before ended.
      assert.deepStrictEqual(log.map((entry) => entry.after), byVersion.map((answer) => answer.name))
      log.slice(1).forEach((entry, i) => assert.strictEqual(entry.before, log[i]!.after))
    }))

  it.effect("concurrent creates of different keys all succeed, each with its own dashboard and entry; a taken key fails only its own", () =>
    Effect.gen(function*() {
      const taken = (yield* create({ key: freshKey("taken") })).key
      const keys = [...Array.from({ length: 7 }, () => freshKey("many")), taken]
      const outcomes = yield* Effect.forEach(keys, (key) => create({ key }).pipe(Effect.exit), { concurrency: "unbounded" })
      assert.deepStrictEqual(outcomes.map(Exit.isSuccess), [...keys.slice(0, 7).map(() => true), false])
      const sql = yield* SqlClient.SqlClient
      for (const [i, outcome] of outcomes.slice(0, 7).entries()) {
        assert.isTrue(Exit.isSuccess(outcome))
        const made = Exit.isSuccess(outcome) ? outcome.value : undefined
        assert.strictEqual(made?.key, keys[i])
        const [row] = yield* sql<{ readonly dashboard: string; readonly entries: number }>`
          SELECT d.name AS dashboard, (SELECT count(*)::integer FROM activity_log a WHERE a.item_id = f.id::text AND a.activity = 'created') AS entries
          FROM feature_flags f JOIN dashboards d ON d.id = f.usage_dashboard_id WHERE f.id = ${made!.id}`
        assert.deepStrictEqual(row, { dashboard: `Generated Dashboard: ${keys[i]} Usage`, entries: 1 })
      }
      assert.strictEqual(yield* countWhere("feature_flags", "key", taken), 1)
    }))

  it.effect("concurrent creates with one key: exactly one succeeds, the others are 400 unique", () =>
    Effect.gen(function*() {
      const key = freshKey("same")
      const outcomes = yield* Effect.forEach(
        Array.from({ length: 8 }, () => key),
        (k) => create({ key: k }).pipe(Effect.exit),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(outcomes.filter(Exit.isSuccess).length, 1)
      for (const lost of outcomes.filter(Exit.isFailure)) {
        const error = Exit.findErrorOption(lost)
        assert.deepStrictEqual(
          error._tag === "Some" && error.value._tag === "ValidationError" ? [error.value.code, error.value.attr, error.value.detail] : [],
          ["unique", "key", "There is already a feature flag with this key."]
        )
      }
      assert.strictEqual(yield* countWhere("feature_flags", "key", key), 1)
    }))

  it.effect("the key constraint is a typed repository error, never a defect, on insert and on update", () =>
    Effect.gen(function*() {
      const { projectId, actor } = yield* setUp
      const flags = yield* FlagRepository
      const columns = (key: string) => newFlagColumns({ key }, actor.user.id)
      const insert = (key: string) =>
        flags.insert({ ...columns(key), project_id: projectId, creation_context: "feature_flags", created_by_id: actor.user.id })
      const taken = freshKey("taken")
      const first = yield* insert(taken)
      assert.strictEqual((yield* insert(taken).pipe(Effect.flip))._tag, "FlagKeyTaken")
      const other = yield* insert(freshKey("other"))
      const entry = activityEntry(actor, {
        organization_id: [...actor.memberships.keys()][0]!,
        project_id: projectId,
        activity: "updated",
        scope: "FeatureFlag",
        item_id: String(other.id),
        name: taken,
        changes: []
      })
      const clash = yield* flags.update(other.id, { ...columns(taken), version: 2, usage_dashboard_id: null }, entry).pipe(Effect.flip)
      assert.strictEqual(clash._tag, "FlagKeyTaken")
      assert.strictEqual(first.key, taken)
    }))

  it.effect("a create refused for a taken key leaves nothing behind, in a transaction or not", () =>
    Effect.gen(function*() {
      const { actor, projectId } = yield* setUp
      const flags = yield* FlagRepository
      const key = freshKey("taken-alone")
      yield* create({ key, _should_create_usage_dashboard: false })
      const refused = yield* flags.create(
        { ...newFlagColumns({ key }, actor.user.id), project_id: projectId, creation_context: "feature_flags", created_by_id: actor.user.id },
        { project_id: projectId, name: `Refused ${key}`, description: "", creation_mode: "template", tiles: [], created_by_id: actor.user.id },
        activityEntry(actor, {
          organization_id: [...actor.memberships.keys()][0]!,
          project_id: projectId,
          activity: "created",
          scope: "FeatureFlag",
          item_id: "",
          name: `refused ${key}`,
          changes: null
        })
      ).pipe(Effect.flip)
      assert.strictEqual(refused._tag, "FlagKeyTaken")
      const sql = yield* SqlClient.SqlClient
      const left = yield* sql<{ dashboards: number; entries: number }>`
        SELECT (SELECT count(*)::integer FROM dashboards WHERE name = ${`Refused ${key}`}) AS dashboards,
               (SELECT count(*)::integer FROM activity_log WHERE detail->>'name' = ${`refused ${key}`}) AS entries`
      assert.deepStrictEqual(left[0], { dashboards: 0, entries: 0 })
    }))

  it.effect("concurrent creates of a deleted flag's key, some depending on a flag: one lands with one dashboard and one entry, then refusals write nothing", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const totals = sql<{ flags: number; dashboards: number; entries: number }>`
        SELECT (SELECT count(*)::integer FROM feature_flags) AS flags, (SELECT count(*)::integer FROM dashboards) AS dashboards,
          (SELECT count(*)::integer FROM activity_log) AS entries`
      const other = yield* create({ key: freshKey("racing-target") })
      const key = freshKey("racing")
      const old = yield* create({ key })
      yield* patch(old.id, { deleted: true })
      const [before] = yield* totals
      // Alternately alone and beside a flag dependency (the insert then inside a transaction).
      const bodies = Array.from({ length: 8 }, (_, i) => i % 2 === 0 ? { key } : { key, filters: dependingOn(other.id) })
      const outcomes = yield* Effect.forEach(bodies, (body) => create(body).pipe(Effect.exit), { concurrency: "unbounded" })
      const won = outcomes.filter(Exit.isSuccess).map((outcome) => outcome.value)
      assert.strictEqual(won.length, 1)
      for (const lost of outcomes.filter(Exit.isFailure)) {
        const error = Exit.findErrorOption(lost)
        assert.deepStrictEqual(
          error._tag === "Some" && error.value._tag === "ValidationError" ? [error.value.code, error.value.attr] : [],
          ["unique", "key"]
        )
      }
      const winner = won[0]!
      assert.strictEqual((yield* retrieve(old.id)).key, `${key}:deleted:${old.id}`)
      const [after] = yield* totals
      assert.deepStrictEqual(after, { flags: before!.flags + 1, dashboards: before!.dashboards + 1, entries: before!.entries + 1 })
      const [own] = yield* sql<{ dashboard: string; entries: number }>`
        SELECT d.name AS dashboard, (SELECT count(*)::integer FROM activity_log a WHERE a.item_id = ${String(winner.id)}) AS entries
        FROM dashboards d WHERE d.id = ${winner.usage_dashboard}`
      assert.deepStrictEqual(own, { dashboard: `Generated Dashboard: ${key} Usage`, entries: 1 })

      // The live holder refuses every create of its key, writing nothing, whatever the body asks besides.
      for (const body of [...bodies.slice(0, 2), { key, _should_create_usage_dashboard: false }, { key, evaluation_runtime: "edge" }]) {
        const refused = yield* create(body).pipe(Effect.flip)
        assert.deepStrictEqual(refused._tag === "ValidationError" ? [refused.code, refused.attr] : [], ["unique", "key"])
      }
      assert.deepStrictEqual((yield* totals)[0], after)
    }))

  it.effect("a create refused for a held key draws no id: the next flag and its usage dashboard follow the last ones", () =>
    Effect.gen(function*() {
      const target = yield* create({ key: freshKey("drawn-target") })
      const first = yield* create({ key: freshKey("drawn") })
      // Refused by a live holder, alone and beside a flag dependency (inside a transaction).
      yield* create({ key: first.key }).pipe(Effect.flip)
      yield* create({ key: first.key, filters: dependingOn(target.id) }).pipe(Effect.flip)
      const second = yield* create({ key: freshKey("drawn") })
      assert.deepStrictEqual([second.id, second.usage_dashboard], [first.id + 1, first.usage_dashboard! + 1])
      // A deleted holder's key is taken with the ids of one insert.
      yield* patch(second.id, { deleted: true })
      const third = yield* create({ key: second.key })
      assert.deepStrictEqual([third.id, third.usage_dashboard], [second.id + 1, second.usage_dashboard! + 1])
    }))

  it.effect("a change written against the flag as read is refused once the row has moved on, and writes nothing", () =>
    Effect.gen(function*() {
      const { projectId, actor } = yield* setUp
      const flags = yield* FlagRepository
      const made = yield* create({ key: freshKey("as-read"), name: "first" })
      const read = (yield* flags.find(projectId, made.id)).pipe(Option.getOrThrow)
      const entry = (name: string) => activityEntry(actor, {
        organization_id: [...actor.memberships.keys()][0]!,
        project_id: projectId,
        activity: "updated",
        scope: "FeatureFlag",
        item_id: String(made.id),
        name: read.key,
        changes: [{ type: "FeatureFlag", field: "name", action: "changed", before: read.name, after: name }]
      })
      const columns = (name: string) => ({ ...newFlagColumns({ key: read.key, name }, actor.user.id), version: read.version + 1, usage_dashboard_id: read.usage_dashboard_id })
      const sql = yield* SqlClient.SqlClient
      const entries = sql<{ n: number }>`SELECT count(*)::integer AS n FROM activity_log WHERE item_id = ${String(made.id)}`
      const before = (yield* entries)[0]!.n
      // Another writer moved the row on: a new version; then, on a fresh read, the usage dashboard.
      yield* patch(made.id, { name: "second" })
      assert.isTrue(Option.isNone(yield* flags.updateUnchanged(read, columns("stale"), [entry("stale")])))
      const fresh = (yield* flags.find(projectId, made.id)).pipe(Option.getOrThrow)
      yield* sql`UPDATE feature_flags SET usage_dashboard_id = NULL WHERE id = ${made.id}`
      assert.isTrue(Option.isNone(yield* flags.updateUnchanged(fresh, { ...columns("stale"), version: fresh.version + 1 }, [entry("stale")])))
      assert.deepStrictEqual([(yield* retrieve(made.id)).name, (yield* entries)[0]!.n], ["second", before + 1])
      const current = (yield* flags.find(projectId, made.id)).pipe(Option.getOrThrow)
      const written = yield* flags.updateUnchanged(current, { ...columns("third"), version: current.version + 1, usage_dashboard_id: null }, [entry("third")])
      assert.deepStrictEqual([Option.getOrThrow(written).name, (yield* entries)[0]!.n], ["third", before + 2])
    }))

  it.effect("a create failing after the flag insert leaves no flag, no activity entry and no dashboard", () =>
    Effect.gen(function*() {
      const key = freshKey("doomed")
      // The usage dashboard is written in the flag's own statement.
      const heal = yield* failWhen("dashboards", `NEW.name LIKE '%${key}%'`)
      const outcome = yield* create({ key }).pipe(Effect.exit)
      yield* heal
      assert.isTrue(Exit.isFailure(outcome))
      assert.strictEqual(yield* countWhere("feature_flags", "key", key), 0)
      assert.strictEqual(yield* countWhere("dashboards", "name", `Generated Dashboard: ${key} Usage`), 0)
      const sql = yield* SqlClient.SqlClient
      const entries = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM activity_log WHERE detail->>'name' = ${key}`
      assert.strictEqual(entries[0]!.n, 0)
      // Nothing half-written holds the key.
      const made = yield* create({ key })
      assert.strictEqual(made.key, key)
    }))

  it.effect("a PATCH whose activity entry cannot be written changes nothing", () =>
    Effect.gen(function*() {
      const flag = yield* create({ key: freshKey("steady"), name: "before" })
      const heal = yield* failWhen("activity_log", `NEW.item_id = '${flag.id}'`)
      const outcome = yield* patch(flag.id, { name: "after", filters: { groups: [{ properties: [], rollout_percentage: 10 }] } }).pipe(Effect.exit)
      yield* heal
      assert.isTrue(Exit.isFailure(outcome))
      const after = yield* retrieve(flag.id)
      assert.deepStrictEqual([after.name, after.version, after.filters], [flag.name, flag.version, flag.filters])
    }))

  it.effect("a validation failure on a late field writes nothing", () =>
    Effect.gen(function*() {
      const key = freshKey("late")
      const refused = yield* create({ key, filters: { groups: [] }, evaluation_runtime: "nowhere" }).pipe(Effect.flip)
      assert.deepStrictEqual([refused._tag, refused._tag === "ValidationError" ? refused.attr : null], ["ValidationError", "evaluation_runtime"])
      assert.strictEqual(yield* countWhere("feature_flags", "key", key), 0)
    }))

  it.effect("activity entries are written with their change: created, updated with field changes, deleted, restored", () =>
    Effect.gen(function*() {
      const flag = yield* create({ key: freshKey("logged") })
      yield* patch(flag.id, { name: "renamed" })
      // A PATCH that changes nothing writes nothing and bumps nothing.
      const same = yield* patch(flag.id, { name: "renamed" })
      assert.strictEqual(same.version, 2)
      yield* patch(flag.id, { deleted: true })
      const restored = yield* patch(flag.id, { deleted: false })
      assert.strictEqual(restored.version, 4)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ activity: string; detail: { changes: ReadonlyArray<Record<string, unknown>> | null } }>`
        SELECT activity, detail FROM activity_log WHERE item_id = ${String(flag.id)} ORDER BY created_at, id`
      assert.deepStrictEqual(rows.map((row) => row.activity), ["created", "updated", "deleted", "restored"])
      assert.strictEqual(rows[0]!.detail.changes, null)
      assert.deepStrictEqual(rows[1]!.detail.changes, [
        { type: "FeatureFlag", field: "name", action: "created", before: null, after: "renamed" },
        { type: "FeatureFlag", field: "version", action: "changed", before: 1, after: 2 }
      ])
      assert.deepStrictEqual(rows[2]!.detail.changes?.[0], { type: "FeatureFlag", field: "deleted", action: "changed", before: false, after: true })
    }))

  it.effect("tombstones: a deleted flag gives its key up, gets it back on restore, or is refused while it is taken", () =>
    Effect.gen(function*() {
      const key = freshKey("tomb")
      const first = yield* create({ key })
      yield* patch(first.id, { deleted: true })
      const second = yield* create({ key })
      assert.strictEqual((yield* retrieve(first.id)).key, `${key}:deleted:${first.id}`)

      const refused = yield* patch(first.id, { deleted: false }).pipe(Effect.flip)
      assert.deepStrictEqual(
        refused._tag === "ValidationError" ? [refused.code, refused.attr, refused.detail] : [],
        ["unique", "key", "There is already a feature flag with this key."]
      )
      assert.isTrue((yield* retrieve(first.id)).deleted)

      yield* patch(second.id, { deleted: true })
      const back = yield* patch(first.id, { deleted: false })
      assert.deepStrictEqual([back.key, back.deleted], [key, false])
      assert.strictEqual((yield* retrieve(second.id)).key, `${key}:deleted:${second.id}`)
    }))

  it.effect("active=STALE lists active, fully rolled-out flags older than 30 days, and only those", () =>
    Effect.gen(function*() {
      const { actor, project } = yield* setUp
      const sql = yield* SqlClient.SqlClient
      const stem = freshKey("stale")
      const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] }
      const half = { groups: [{ properties: [], rollout_percentage: 50 }] }
      const old = yield* create({ key: `${stem}-old`, filters: everyone })
      const partial = yield* create({ key: `${stem}-partial`, filters: half })
      const disabled = yield* create({ key: `${stem}-disabled`, filters: everyone, active: false })
      const young = yield* create({ key: `${stem}-young`, filters: everyone })
      // An API client cannot make a flag 31 days old; the database can.
      yield* sql`UPDATE feature_flags SET created_at = now() - interval '31 days'
        WHERE id IN (${old.id}, ${partial.id}, ${disabled.id})`
      const page = yield* FlagService.use((flags) => flags.list(actor, project, { search: stem, active: "STALE" }))
      assert.deepStrictEqual(page.results.map((flag) => flag.key), [`${stem}-old`])
      assert.strictEqual(page.results[0]!.status, "STALE")
      assert.strictEqual((yield* retrieve(young.id)).status, "ACTIVE")
    }))

  it.effect("search over 20,000 flags in one project: case-insensitive, literal, newest first", () =>
    Effect.gen(function*() {
      const { actor, project, projectId } = yield* setUp
      const sql = yield* SqlClient.SqlClient
      yield* sql`
        INSERT INTO feature_flags (project_id, key, name, filters, created_by_id, last_modified_by_id, created_at)
        SELECT ${projectId}, 'bulk-' || i || '-', 'Bulk ' || i,
          '{"groups": [{"properties": [], "rollout_percentage": 50}]}'::jsonb, ${actor.user.id}, ${actor.user.id},
          now() - (i || ' seconds')::interval
        FROM generate_series(1, 20000) AS i`
      const list = (query: object) => FlagService.use((flags) => flags.list(actor, project, query))
      // A server hears of that import through its change feed a moment later, a batch of rows at a time:
      // the searches below wait for all of it.
      yield* list({ search: "bulk-" }).pipe(
        Effect.filterOrFail((found) => found.count === 20_000),
        Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 500 })
      )
      const needle = "bulk-17777-"
      const page = yield* list({ search: needle.toUpperCase() })
      assert.deepStrictEqual(page.results.map((flag) => flag.key), [needle])

      // `%` and `_` in a search are literal characters, not patterns.
      assert.strictEqual((yield* list({ search: "bulk_1%" })).count, 0)
      const tail = yield* list({ search: "bulk-1999", limit: "3", offset: "8" })
      assert.deepStrictEqual([tail.count, tail.results.map((flag) => flag.key)], [11, ["bulk-19997-", "bulk-19998-", "bulk-19999-"]])
    }), 120_000)
}))
