import { PGlite, type Results } from "@electric-sql/pglite"
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm"
import { PgClient, PgTypes } from "@effect/sql-pg"
import { Context, Effect, Layer, Scope, Semaphore, Stream } from "effect"
import { Reactivity } from "effect/reactivity"
import { existsSync } from "node:fs"
import * as path from "node:path"
import { emptyStore } from "./empty-store.ts"
import { Listener, pgliteListener } from "./listener.ts"
import { preparedStatements, runUnkept } from "./pglite-statements.ts"
import { pgliteTimestampParsers } from "./timestamps.ts"
import { SqlClient, SqlConnection, SqlError } from "effect/sql"

type Transform = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined

// Mirrors the SQLSTATE classes @effect/sql-pg uses for its own driver (its
// classifier is internal, not exported), so repositories can match on
// `error.reason._tag` the same way whichever backend they run on.
const classify = (db: PGlite, cause: unknown, operation: string): SqlError.SqlError => {
  const fields = (typeof cause === "object" && cause !== null ? cause : {}) as {
    code?: unknown
    constraint?: unknown
    message?: unknown
  }
  const code = typeof fields.code === "string" ? fields.code : undefined
  const message = typeof fields.message === "string" ? fields.message : "PGlite query failed"
  const props = { cause, message, operation }
  const constraint = typeof fields.constraint === "string" && fields.constraint.trim() !== ""
    ? fields.constraint.trim()
    : "unknown"
  const reason = code === undefined
    ? db.closed ? new SqlError.ConnectionError(props) : new SqlError.UnknownError(props)
    : code === "23505"
    ? new SqlError.UniqueViolation({ ...props, constraint })
    : code === "42501"
    ? new SqlError.AuthorizationError(props)
    : code === "40P01"
    ? new SqlError.DeadlockError(props)
    : code === "40001"
    ? new SqlError.SerializationError(props)
    : code === "55P03"
    ? new SqlError.LockTimeoutError(props)
    : code === "57014"
    ? new SqlError.StatementTimeoutError(props)
    : code.startsWith("08")
    ? new SqlError.ConnectionError(props)
    : code.startsWith("28")
    ? new SqlError.AuthenticationError(props)
    : code.startsWith("42")
    ? new SqlError.SqlSyntaxError(props)
    : code.startsWith("23")
    ? new SqlError.ConstraintError(props)
    : new SqlError.UnknownError(props)
  return new SqlError.SqlError({ reason })
}

// A hand-made `PgTypes.jsonb(...)` (or sql-pg's `sql.json`) arrives as a typed
// wrapper meant for sql-pg's wire encoder. PGlite wants the bare value plus the OID
// as a type hint; plain values keep OID 0 so the server infers their type.
const unwrap = (p: PgTypes.Parameter): unknown =>
  // PGlite passes strings to json columns verbatim, so a JSON string scalar would
  // arrive unquoted; encoding here keeps sql-pg's meaning of "this is a JSON value".
  (p.oid === PgTypes.OID.json || p.oid === PgTypes.OID.jsonb) && p.value !== null
    ? JSON.stringify(p.value)
    : p.value
const bindParams = (params: ReadonlyArray<unknown>): [values: ReadonlyArray<unknown>, types: ReadonlyArray<number>] =>
  params.some(PgTypes.isParameter)
    ? [params.map((p) => PgTypes.isParameter(p) ? unwrap(p) : p), params.map((p) => PgTypes.isParameter(p) ? p.oid : 0)]
    : [params, []]

const makeConnection = (db: PGlite): SqlConnection.Connection => {
  const statements = preparedStatements(db)
  const run = <A>(operation: string, f: () => Promise<A>) =>
    Effect.tryPromise({ try: f, catch: (cause) => classify(db, cause, operation) })
  const query = (sql: string, params: ReadonlyArray<unknown>, rowMode: "object" | "array") => {
    const [values, types] = bindParams(params)
    return run("execute", () => statements(sql, values, types, rowMode))
  }
  const rows = (sql: string, params: ReadonlyArray<unknown>, transform: Transform) =>
    Effect.map(query(sql, params, "object"), (r) => transform ? transform(r.rows) : r.rows)
  // The extended protocol behind `query` accepts one statement only; the simple
  // protocol behind `exec` is what lets a migration file hold several.
  // With parameters, a statement asked for unprepared is kept nowhere.
  const unprepared = (sql: string, params: ReadonlyArray<unknown>, rowMode: "object" | "array") => {
    if (params.length === 0) return Effect.map(run("exec", () => db.exec(sql, { rowMode })), (rs) => rs.at(-1)?.rows ?? [])
    const [values, types] = bindParams(params)
    return Effect.map(run("execute", () => runUnkept(db, sql, values, types, rowMode)), (r) => r.rows)
  }
  return {
    execute: rows,
    executeRaw: (sql, params) => query(sql, params, "object"),
    // PGlite hands back whole result sets (no cursor API), so a stream is just the buffered rows.
    executeStream: (sql, params, transform) => Stream.fromIterableEffect(rows(sql, params, transform)),
    executeValues: (sql, params) => Effect.map(query(sql, params, "array"), (r) => r.rows),
    executeValuesUnprepared: (sql, params) => unprepared(sql, params, "array"),
    executeUnprepared: (sql, params, transform) =>
      Effect.map(unprepared(sql, params, "object"), (r) => transform ? transform(r) : r)
  }
}

// Postgres answers COMMIT of an aborted transaction with a ROLLBACK tag instead of
// an error; without this check the caller would believe its writes were saved.
const commit = (conn: SqlConnection.Connection) =>
  Effect.flatMap(conn.executeRaw("COMMIT", []), (result) =>
    (result as Results).command === "ROLLBACK"
      ? Effect.fail(
        new SqlError.SqlError({
          reason: new SqlError.UnknownError({
            cause: new Error("COMMIT rolled back an aborted transaction"),
            message: "COMMIT rolled back an aborted transaction",
            operation: "commit"
          })
        })
      )
      : Effect.void)

/** Builds a `SqlClient` over an already open PGlite instance (which the caller owns). */
export const makePgliteClient = (db: PGlite): Effect.Effect<SqlClient.SqlClient, never, Reactivity.Reactivity> =>
  Effect.gen(function*() {
    // PGlite is one backend session. Each query is atomic on its own, but BEGIN
    // ... COMMIT spans many, so every lease holds this permit until its scope
    // closes; otherwise another fiber's statement would land inside (and be
    // rolled back with) a transaction it never joined.
    const semaphore = yield* Semaphore.make(1)
    const { acquirer, borrower, transactionAcquirer } = SqlClient.makeSqliteAcquirers({
      connection: Effect.succeed(makeConnection(db)),
      semaphore
    })
    // `onCommitFailure` is left out on purpose: unlike SQLite, a failed COMMIT in
    // Postgres always ends the transaction, so there is nothing to clean up.
    return yield* SqlClient.make({
      acquirer,
      borrower,
      transactionAcquirer,
      driver: "pglite",
      compiler: PgClient.makeCompiler(),
      commit,
      releaseSavepoint: (name) => `RELEASE SAVEPOINT ${name}`,
      spanAttributes: [["db.system.name", "postgresql"], ["db.namespace", db.dataDir ?? "memory://"]]
    })
  })

/**
 * PostgreSQL's settings for one embedded session. Its shared memory is WebAssembly memory here, resident
 * once used and never given back, so the buffer pool holds a large store's flags and their indexes with
 * the catalogs in use, and no more: a page beyond it is read from the OS cache, which costs a statement
 * next to nothing. The one backend needs no hundred connection slots, WAL senders or replication slots,
 * whose lock tables and process entries take memory too. Pages live in memory (or the OS cache), so a
 * random read costs about what a sequential one does: with the default random_page_cost of 4 the planner
 * would rather scan a table than use a selective index. The figures are in docs/decisions.md ("The
 * store").
 */
const POSTGRES_CONF = [
  "shared_buffers=8MB",
  "max_connections=5",
  "max_wal_senders=0",
  "max_replication_slots=0",
  "random_page_cost=1.1"
]

/** Whether `dataDir` holds no database yet (memory always starts without one). */
const isNew = (dataDir: string | undefined) => dataDir === undefined || !existsSync(path.join(dataDir, "PG_VERSION"))

/**
 * Opens PGlite (in memory when `dataDir` is undefined) for the lifetime of the current scope. `start`
 * says how a new database is made: of a data directory archive (a backup's, which PGlite refuses over a
 * database that exists), or, with "empty store", of the build's empty store (empty-store.ts) when the
 * directory holds no database yet and the build has one. Otherwise PGlite opens the database there, or
 * makes one with initdb.
 */
export const openPglite = (
  dataDir: string | undefined,
  start?: Blob | "empty store"
): Effect.Effect<PGlite, SqlError.SqlError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({
      // Migration 0002 creates the pg_trgm extension, and every database runs it.
      try: () => {
        const made = start === "empty store" ? (isNew(dataDir) ? emptyStore() : undefined) : start
        return PGlite.create({
          postgresqlconf: POSTGRES_CONF,
          extensions: { pg_trgm },
          parsers: pgliteTimestampParsers,
          ...(dataDir === undefined ? {} : { dataDir }),
          ...(made === undefined ? {} : { loadDataDir: made })
        })
      },
      catch: (cause) =>
        new SqlError.SqlError({
          reason: new SqlError.ConnectionError({
            cause,
            message: `Could not open PGlite${dataDir === undefined ? "" : ` at ${dataDir}`}: ${String(cause)}`,
            operation: "connect"
          })
        })
    }),
    (db) => Effect.ignore(Effect.tryPromise(() => db.close()), { log: "Warn" })
  )

/**
 * A `SqlClient` over a PGlite owned by the layer: opened when built, closed with the layer's scope. With
 * `fromEmptyStore`, a new database is Hedgerow's empty store rather than initdb's bare one.
 */
export const layerPglite = (options: { readonly dataDir?: string | undefined; readonly fromEmptyStore?: boolean } = {}): Layer.Layer<
  SqlClient.SqlClient | Listener,
  SqlError.SqlError
> =>
  Layer.effectContext(Effect.flatMap(openPglite(options.dataDir, options.fromEmptyStore === true ? "empty store" : undefined), pgliteContext))
    .pipe(Layer.provide(Reactivity.layer))

/** The SqlClient over an open PGlite, and its listener. */
export const pgliteContext = (db: PGlite) =>
  Effect.map(makePgliteClient(db), (client) =>
    Context.make(SqlClient.SqlClient, client).pipe(Context.add(Listener, pgliteListener(db))))
