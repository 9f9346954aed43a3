import { assert, describe, it, layer } from "@effect/vitest"
import { FLAG_USAGE_CHANGES, READS, WATCHED_TABLES, type WatchedTable } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Store } from "../src/index.ts"
import { CHANGES_CHANNEL } from "../src/sql/change-feed.ts"
import { forEachBackend } from "../src/testing/index.ts"

/**
 * The read model serves a table from memory only while every write to it is heard: a table it reads
 * without a trigger on the change feed would keep serving a revoked key or a removed membership. These
 * tests hold core's list of watched names against what its caches read and against the database's
 * triggers, as the migrations leave them.
 */

/** Watched names that no trigger sends, each with the write that sends it instead. */
const NOTICE_ONLY: ReadonlyMap<WatchedTable, string> = new Map([[
  FLAG_USAGE_CHANGES,
  "flags' row trigger stays silent when only last_called_at changes; the usage write " +
    "(repositories/flag-usage.ts) names each project whose flags it marked"
]])

/**
 * Tables with a notify trigger that no cache reads: migration 0003 puts them on the feed, and a migration
 * a database has run is never edited. Their notifications move versions nobody asks for.
 */
const NOTIFIED_UNREAD: ReadonlySet<string> = new Set([
  "roles", "role_memberships", "feature_flag_role_access",
  // The webhook queues: their notices wake the delivery workers, and move no cache's version.
  "webhook_changes", "webhook_deliveries"
])

/** The writes a trigger can answer, by their bits in `pg_trigger.tgtype`. */
const WRITES = { INSERT: 4, DELETE: 8, UPDATE: 16, TRUNCATE: 32 } as const

const served: ReadonlySet<WatchedTable> = new Set(Object.values(READS).flat())

/**
 * Each table of the current schema with an enabled trigger whose function notifies the change feed, and
 * the writes those triggers answer together.
 */
const notified = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly table: string; readonly type: number }>`
    SELECT c.relname AS table, t.tgtype::integer AS type
    FROM pg_trigger t
    JOIN pg_class c ON c.oid = t.tgrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_proc p ON p.oid = t.tgfoid
    WHERE NOT t.tgisinternal AND t.tgenabled <> 'D' AND n.nspname = current_schema()
      AND strpos(p.prosrc, quote_literal(${CHANGES_CHANNEL})) > 0`
  const writes = new Map<string, number>()
  for (const { table, type } of rows) writes.set(table, (writes.get(table) ?? 0) | type)
  return writes
})

const unanswered = (type: number) =>
  Object.entries(WRITES).flatMap(([write, bit]) => ((type & bit) === 0 ? [write] : []))

describe("the names the read model watches", () => {
  it("are each read by some cache", () => {
    assert.deepStrictEqual(WATCHED_TABLES.filter((name) => !served.has(name)), [], "watched, read by no entry of READS")
  })
})

forEachBackend((backend) =>
layer(backend.on(Store.layer), { timeout: 60_000 })(`the change feed's triggers on ${backend.name}`, (it) => {
  it.effect("notify every write to each table a cache reads", () =>
    Effect.gen(function*() {
      const writes = yield* notified
      const unheard = [...served].flatMap((table) => {
        if (NOTICE_ONLY.has(table)) return []
        const missing = unanswered(writes.get(table) ?? 0)
        return missing.length === 0 ? [] : [`${table}: ${missing.join(", ")}`]
      })
      assert.deepStrictEqual(unheard, [], "read by a cache, and the writes no notify trigger answers")
    }))

  it.effect("notify only of tables that are watched, or known to be read by nothing", () =>
    Effect.gen(function*() {
      const writes = yield* notified
      const watched = new Set<string>(WATCHED_TABLES)
      assert.deepStrictEqual([...writes.keys()].filter((table) => !watched.has(table) && !NOTIFIED_UNREAD.has(table)), [], "notified, neither watched nor in NOTIFIED_UNREAD")
      // The exceptions hold: notice-only names come from no trigger, and the unread tables are notified.
      assert.deepStrictEqual([...NOTICE_ONLY.keys()].filter((name) => writes.has(name)), [], "notice-only, yet a trigger sends it")
      assert.deepStrictEqual([...NOTIFIED_UNREAD].filter((table) => watched.has(table) || !writes.has(table)), [], "in NOTIFIED_UNREAD, yet watched or not notified")
    }))
})
)
