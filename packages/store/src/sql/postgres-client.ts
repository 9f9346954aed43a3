import { PgClient } from "@effect/sql-pg"
import { Context, Data, Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import { SqlClient } from "effect/sql"
import { Listener, postgresListener } from "./listener.ts"
import { hedgerowPgTypes } from "./timestamps.ts"

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database`; `sslmode` and `connect_timeout` are read from it. */
  readonly url: string
  /** Connections this process may open (HEDGEROW_DB_POOL_SIZE, default 10). */
  readonly poolSize?: number | undefined
}

export const DEFAULT_POOL_SIZE = 10

/** One connection listens for changes for as long as the process runs; queries need another. */
export const MIN_POOL_SIZE = 2

/** The database could not be reached or refused us; says where without the password. */
export class DatabaseUnavailable extends Data.TaggedError("DatabaseUnavailable")<{
  readonly url: string
  readonly reason: string
}> {
  override get message() {
    return `cannot use the PostgreSQL database at ${this.url}: ${this.reason}`
  }
}

/** The URL as it may appear in a log line or an error: any password replaced. */
export const displayUrl = (url: string): string => {
  try {
    const parsed = new URL(url)
    if (parsed.password !== "") parsed.password = "***"
    // libpq-style URLs may carry the password as a parameter too.
    if (parsed.searchParams.has("password")) parsed.searchParams.set("password", "***")
    return parsed.toString().replaceAll("%2A%2A%2A", "***")
  } catch {
    return "(an unparseable URL)"
  }
}

/** What went wrong, in the server's or the socket's words, from an SqlError (or anything else). */
export const sqlErrorReason = (error: unknown): string => {
  const cause = (error as { reason?: { cause?: unknown; message?: unknown } })?.reason
  const inner = cause?.cause instanceof Error ? cause.cause.message : undefined
  const message = typeof cause?.message === "string" ? cause.message : error instanceof Error ? error.message : String(error)
  return inner !== undefined && !message.includes(inner) ? `${message} (${inner})` : message
}

/**
 * A pooled `SqlClient` on a PostgreSQL server. One connection is opened and used before the layer is
 * ready, so a wrong URL, a server that is down or a refused login stops a start with one clear line,
 * rather than failing the first request.
 */
export const layerPostgres = (options: PostgresOptions): Layer.Layer<SqlClient.SqlClient | Listener, DatabaseUnavailable> =>
  Layer.effectContext(
    Effect.gen(function*() {
      const poolSize = options.poolSize ?? DEFAULT_POOL_SIZE
      // With fewer, every query would wait for ever behind the listener.
      if (!Number.isSafeInteger(poolSize) || poolSize < MIN_POOL_SIZE) {
        return yield* Effect.fail(`the pool must hold at least ${MIN_POOL_SIZE} connections (one listens for changes), not ${poolSize}`)
      }
      const client = yield* PgClient.make({
        url: Redacted.make(options.url),
        maxConnections: poolSize,
        applicationName: "hedgerow",
        types: hedgerowPgTypes(),
        // Text timestamps (timestamps.ts) are read as UTC whatever the server's own zone.
        startupParameters: { timezone: "UTC" }
      })
      yield* client`SELECT 1`
      return Context.make(SqlClient.SqlClient, client).pipe(Context.add(Listener, postgresListener(client)))
    }).pipe(
      Effect.mapError((error) => new DatabaseUnavailable({ url: displayUrl(options.url), reason: sqlErrorReason(error) }))
    )
  ).pipe(Layer.provide(Reactivity.layer))
