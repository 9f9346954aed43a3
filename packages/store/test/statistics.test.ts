import { assert, describe, it, layer } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { layerPglite } from "../src/sql/pglite-client.ts"
import { ANALYZE_SAMPLE_BYTES, analyzeChangedTables, statisticsTarget } from "../src/sql/statistics.ts"

const ROWS = 6000

// `wide` rows of 1,500 bytes stored as they are (no compression), 9 MB in all; `narrow` rows of a few bytes.
const Tables = Layer.effectDiscard(Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE wide (id integer PRIMARY KEY, body text NOT NULL);
    ALTER TABLE wide ALTER COLUMN body SET STORAGE PLAIN;
    CREATE TABLE narrow (id integer PRIMARY KEY);
  `.unprepared
  yield* sql`INSERT INTO wide SELECT g, repeat(md5(g::text), 47) FROM generate_series(1, ${ROWS}) g`
  yield* sql`INSERT INTO narrow SELECT g FROM generate_series(1, ${ROWS}) g`
}))

/** Histogram bounds ANALYZE kept for a table's id: one more than the statistics target it sampled with. */
const histogramBounds = (table: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ readonly bounds: number }>`
      SELECT cardinality(histogram_bounds::text::int[]) AS bounds FROM pg_stats
      WHERE schemaname = 'public' AND tablename = ${table} AND attname = 'id'`
    return rows[0]?.bounds
  })

describe("statisticsTarget", () => {
  it("keeps the default target for a table that fits the sample's bytes whole", () => {
    assert.strictEqual(statisticsTarget(ANALYZE_SAMPLE_BYTES, 1_000_000), 100)
    assert.strictEqual(statisticsTarget(0, 0), 100)
  })

  it("samples as many rows as fit the bytes, within 10 and 100", () => {
    // 40,000 rows of 512 bytes: 2 MiB / (300 × 512 bytes) = 13.
    assert.strictEqual(statisticsTarget(40_000 * 512, 40_000), 13)
    assert.strictEqual(statisticsTarget(1e9, 10), 10)
    assert.strictEqual(statisticsTarget(ANALYZE_SAMPLE_BYTES + 1, 1_000_000), 100)
  })
})

describe("analyzeChangedTables", () => {
  layer(Tables.pipe(Layer.provideMerge(layerPglite())))("on PGlite", (it) => {
    it.effect("analyzes changed tables, a wide one with a sample kept within its bytes, for that ANALYZE only", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const analyzed = yield* analyzeChangedTables
        assert.deepStrictEqual(analyzed, ["narrow", "wide"])
        // 9 MB of 1,500-byte rows: the floor of 10, so 11 bounds; the narrow table gets the default's 101.
        assert.strictEqual(yield* histogramBounds("wide"), 11)
        assert.strictEqual(yield* histogramBounds("narrow"), 101)
        const [setting] = yield* sql<{ readonly target: string }>`SELECT current_setting('default_statistics_target') AS target`
        assert.strictEqual(setting?.target, "100")
        // Analyzed, they are not changed any more.
        assert.deepStrictEqual(yield* analyzeChangedTables, [])
      }))
  })
})
