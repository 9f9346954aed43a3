import { Freshness, Transactions } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { Listener } from "../sql/listener.ts"

/** One SQL transaction per use case; a failure of the database itself is a defect (500), not a domain error. */
export const layerNoDeps = Layer.effect(
  Transactions,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const freshness = yield* Freshness
    // What this process committed is forgotten by its read model at once. A feed that delivers at commit
    // has already named each table written; otherwise its notification comes a moment later, so
    // everything is forgotten now. Other processes hear of the commit through the feed.
    const committed = (yield* Listener).deliversAtCommit ? Effect.void : Effect.sync(() => freshness.changed(["*"]))
    return Transactions.of({
      run: (effect) =>
        sql.withTransaction(effect).pipe(
          Effect.tap(() => committed),
          Effect.catchIf(SqlError.isSqlError, (error) => Effect.die(error))
        ) as typeof effect,
      single: (statement) =>
        statement.pipe(
          Effect.tap(() => committed),
          Effect.catchIf(SqlError.isSqlError, (error) => Effect.die(error))
        ) as typeof statement,
      // A transaction-level advisory lock: PostgreSQL releases it at COMMIT or ROLLBACK, whatever happens.
      serialize: (name) => sql`SELECT pg_advisory_xact_lock(hashtext(${name}))`.pipe(Effect.asVoid, Effect.orDie)
    })
  })
)
