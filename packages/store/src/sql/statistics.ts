import { Clock, Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"

/**
 * PGlite runs no autovacuum, so nothing refreshes the planner's statistics on its own; without them
 * the planner misjudges selective lookups (an index lookup among thousands of rows becomes a scan).
 * This is autovacuum's analyze rule done in-process: a table changed by more than 50 rows plus 10% of
 * its size since its last ANALYZE is analyzed again.
 */
export const analyzeChangedTables = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Change counters reach pg_stat_user_tables lazily; this makes the next statement publish them.
  yield* sql`SELECT pg_stat_force_next_flush()`
  const changed = yield* sql<{ readonly relname: string }>`
    SELECT relname FROM pg_stat_user_tables
    WHERE schemaname = 'public' AND n_mod_since_analyze > 50 + 0.1 * n_live_tup
    ORDER BY relname`
  for (const { relname } of changed) {
    yield* sql.unsafe(`ANALYZE "${relname.replaceAll("\"", "\"\"")}"`)
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
