import { Transactions } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient, SqlError } from "effect/sql"

/** One SQL transaction per use case; a failure of the database itself is a defect (500), not a domain error. */
export const layerNoDeps = Layer.effect(
  Transactions,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return Transactions.of({
      run: (effect) =>
        sql.withTransaction(effect).pipe(
          Effect.catchIf(SqlError.isSqlError, (error) => Effect.die(error))
        ) as typeof effect,
      // A transaction-level advisory lock: PostgreSQL releases it at COMMIT or ROLLBACK, whatever happens.
      serialize: (name) => sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
