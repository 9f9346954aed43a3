import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { Freshness } from "../src/read-model/freshness.ts"

const fresh = () => Effect.runSync(Effect.service(Freshness))

describe("freshness", () => {
  it("hands a noticed name to its callbacks alone, and calls them all when the feed listens again", () => {
    const freshness = fresh()
    const heard: Array<string> = []
    const stop = freshness.onNotice("webhook_deliveries", () => heard.push("deliveries"))
    freshness.onNotice("webhook_changes", () => heard.push("changes"))
    const start = freshness.position()
    const version = freshness.version(["feature_flags"])
    freshness.changed(["webhook_deliveries", "feature_flags:1:2", "webhook_changes"])
    assert.deepStrictEqual(heard, ["deliveries", "changes"])
    assert.deepStrictEqual(freshness.rowsChangedSince("feature_flags", start), ["1:2"])
    assert.strictEqual(freshness.position(), start + 1)
    assert.strictEqual(freshness.version(["feature_flags"]), version + 1)
    freshness.resumed()
    assert.deepStrictEqual(heard, ["deliveries", "changes", "deliveries", "changes"])
    stop()
    freshness.changed(["webhook_deliveries"])
    assert.deepStrictEqual(heard.length, 4)
  })

  it("moves a table's version with its own changes and with changes to everything, not with other tables'", () => {
    const freshness = fresh()
    const flags = freshness.version(["feature_flags"])
    freshness.changed(["users", "memberships:1"])
    assert.strictEqual(freshness.version(["feature_flags"]), flags)
    freshness.changed(["feature_flags:1:2"])
    assert.strictEqual(freshness.version(["feature_flags"]), flags + 1)
    freshness.changed(["*"])
    assert.strictEqual(freshness.version(["feature_flags"]), flags + 2)
  })

  it("names the rows changed since a position, until a change is known only as a whole", () => {
    const freshness = fresh()
    const start = freshness.position()
    freshness.changed(["feature_flags:1:2", "users", "feature_flags:1:3", "feature_flags:1:2"])
    assert.deepStrictEqual(freshness.rowsChangedSince("feature_flags", start), ["1:2", "1:3", "1:2"])
    const later = freshness.position()
    assert.deepStrictEqual(freshness.rowsChangedSince("feature_flags", later), [])
    freshness.changed(["feature_flags"])
    assert.isUndefined(freshness.rowsChangedSince("feature_flags", later))
    const afterWhole = freshness.position()
    freshness.lost()
    assert.isUndefined(freshness.rowsChangedSince("feature_flags", afterWhole))
  })

  it("forgets what lies beyond its journal", () => {
    const freshness = fresh()
    const start = freshness.position()
    freshness.changed(Array.from({ length: 10_000 }, (_, i) => `feature_flags:1:${i}`))
    assert.isUndefined(freshness.rowsChangedSince("feature_flags", start))
    assert.strictEqual(freshness.rowsChangedSince("feature_flags", freshness.position() - 2)?.length, 2)
  })
})
