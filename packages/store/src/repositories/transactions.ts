import { Freshness, Transactions } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient, SqlError } from "effect/sql"

/** One SQL transaction per use case; a failure of the database itself is a defect (500), not a domain error. */
export const layerNoDeps = Layer.effect(
  Transactions,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const freshness = yield* Freshness
    return Transactions.of({
      // What this process committed is forgotten by its read model at once; other processes hear of it
      // through the change feed a moment later.
      run: (effect) =>
        sql.withTransaction(effect).pipe(
          Effect.tap(() => Effect.sync(() => freshness.changed(["*"]))),
          Effect.catchIf(SqlError.isSqlError, (error) => Effect.die(error))
        ) as typeof effect,
      // A transaction-level advisory lock: PostgreSQL releases it at COMMIT or ROLLBACK, whatever happens.
      serialize: (name) => sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
