import { ChangeFeedStatus, Listener } from "@hedgerow/store"
import { Freshness } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { family, sample } from "./prometheus-text.ts"

/** Connections held on a PostgreSQL server by every Hedgerow process using the database, by state. */
const connectionsByState = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ readonly state: string; readonly count: string }>`
    SELECT coalesce(state, 'unknown') AS state, count(*)::text AS count FROM pg_stat_activity
    WHERE application_name = 'hedgerow' AND datname = current_database()
    GROUP BY 1 ORDER BY 1`
})

/**
 * The read model and the database: whether the change feed listens and how long ago it heard anything,
 * whether memory is served and what it holds, one round trip's time, and on a PostgreSQL server the
 * connections held.
 */
export const storeMetrics = Effect.gen(function*() {
  const feed = yield* ChangeFeedStatus
  const freshness = yield* Freshness
  const listener = yield* Listener
  const sql = yield* SqlClient.SqlClient
  let text = family("hedgerow_change_feed_listening", "gauge", "1 while the change feed listens for the database's change notifications.") +
    sample("hedgerow_change_feed_listening", [], feed.listening() ? 1 : 0) +
    family("hedgerow_read_model_live", "gauge", "1 while what memory holds may be served; 0 sends every read to the database.") +
    sample("hedgerow_read_model_live", [], freshness.live() ? 1 : 0)
  text += family("hedgerow_read_model_entries", "gauge", "Entries each part of the read model holds in memory now.")
  for (const [part, entries] of freshness.entries()) text += sample("hedgerow_read_model_entries", [["part", part]], entries)
  const heard = feed.lastHeardAt()
  if (heard !== undefined) {
    text += family("hedgerow_change_feed_last_notification_age_seconds", "gauge", "Seconds since the change feed last heard a notification (a change, or its own heartbeat on a server).") +
      sample("hedgerow_change_feed_last_notification_age_seconds", [], Math.max(0, Date.now() - heard) / 1000)
  }
  const started = performance.now()
  const answered = yield* Effect.exit(sql`SELECT 1`)
  text += family("hedgerow_db_up", "gauge", "1 when the database answered this scrape's query.") +
    sample("hedgerow_db_up", [], answered._tag === "Success" ? 1 : 0) +
    family("hedgerow_db_round_trip_seconds", "gauge", "Time this scrape's `SELECT 1` took, waiting for a connection included.") +
    sample("hedgerow_db_round_trip_seconds", [], (performance.now() - started) / 1000)
  if (!listener.deliversAtCommit) {
    const rows = yield* Effect.orElseSucceed(connectionsByState, () => [])
    text += family("hedgerow_db_connections", "gauge", "Connections Hedgerow's processes hold on the database server, by state (pg_stat_activity).")
    for (const row of rows) text += sample("hedgerow_db_connections", [["state", row.state]], Number(row.count))
  }
  return text
})
