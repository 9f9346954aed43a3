import { Clock, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"

/**
 * What one ANALYZE may copy into memory as its sample of a table's rows. ANALYZE samples 300 rows per
 * unit of the statistics target (30,000 at the default of 100) and holds them all at once, with about as
 * much again to sort each column's values; in the embedded store that memory is WebAssembly memory, which
 * never shrinks, so a table of long rows, such as the activity log, would keep the store's memory at its
 * largest sample for good. The figures are in docs/decisions.md ("The store").
 */
export const ANALYZE_SAMPLE_BYTES = 2 * 1024 * 1024

/** Rows ANALYZE samples per unit of the statistics target. */
const ROWS_PER_TARGET = 300
const DEFAULT_TARGET = 100
/** A floor: a sample much under 3,000 rows makes the estimates coarse for any table. */
const MIN_TARGET = 10

/**
 * The statistics target that keeps a table's sample within `ANALYZE_SAMPLE_BYTES`: the default when the
 * whole table fits (the sample is never more than the table), else as many rows as fit, down to a floor.
 */
export const statisticsTarget = (tableBytes: number, rows: number): number => {
  if (tableBytes <= ANALYZE_SAMPLE_BYTES || rows <= 0) return DEFAULT_TARGET
  const rowBytes = tableBytes / rows
  return Math.max(MIN_TARGET, Math.min(DEFAULT_TARGET, Math.floor(ANALYZE_SAMPLE_BYTES / (ROWS_PER_TARGET * rowBytes))))
}

/**
 * PGlite runs no autovacuum, so nothing refreshes the planner's statistics on its own; without them
 * the planner misjudges selective lookups (an index lookup among thousands of rows becomes a scan).
 * This is autovacuum's analyze rule done in-process: a table changed by more than 50 rows plus 10% of
 * its size since its last ANALYZE is analyzed again, with a sample kept within `ANALYZE_SAMPLE_BYTES`.
 */
export const analyzeChangedTables = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Change counters reach pg_stat_user_tables lazily; this makes the next statement publish them.
  yield* sql`SELECT pg_stat_force_next_flush()`
  const changed = yield* sql<{ readonly relname: string; readonly bytes: string; readonly rows: string }>`
    SELECT relname, pg_relation_size(relid)::text AS bytes, n_live_tup::text AS rows FROM pg_stat_user_tables
    WHERE schemaname = 'public' AND n_mod_since_analyze > 50 + 0.1 * n_live_tup
    ORDER BY relname`
  for (const { relname, bytes, rows } of changed) {
    const analyze = sql.unsafe(`ANALYZE "${relname.replaceAll("\"", "\"\"")}"`)
    const target = statisticsTarget(Number(bytes), Number(rows))
    // set_config(…, true) is SET LOCAL: the smaller sample lasts as long as this one transaction.
    yield* target === DEFAULT_TARGET
      ? analyze
      : sql.withTransaction(Effect.andThen(sql`SELECT set_config('default_statistics_target', ${String(target)}, true)`, analyze))
  }
  return changed.map(({ relname }) => relname)
}).pipe(Effect.withSpan("hedgerow.analyzeChangedTables"))

/** How often the embedded store looks for tables to analyze; a look that finds none costs one query. */
export const ANALYZE_INTERVAL = "15 seconds"

/** Keeps statistics fresh on an embedded store for as long as the layer lives, starting with a first pass. */
export const layerNoDeps = Layer.effectDiscard(
  analyzeChangedTables.pipe(
    // A failed pass (the database closing, say) must not stop the service; the next pass retries.
    Effect.catch((error) => Effect.logWarning("ANALYZE pass failed", error)),
    Effect.repeat(Schedule.spaced(ANALYZE_INTERVAL)),
    // Statistics upkeep follows wall time: a test that moves a TestClock years ahead must not replay
    // every pass in between.
    Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
    Effect.forkScoped
  )
)
