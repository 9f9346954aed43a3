import { Transactions } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { OwnCommits } from "../sql/change-feed.ts"
import { inTransaction } from "./rows.ts"

/** One SQL transaction per use case; a failure of the database itself is a defect (500), not a domain error. */
export const layerNoDeps = Layer.effect(
  Transactions,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // What this process committed is in its read model before the writer goes on; other processes hear
    // of the commit through the feed. Inside another transaction nothing is committed yet: the outermost
    // one waits, once.
    const heard = (yield* OwnCommits).heard
    const committed = Effect.flatMap(inTransaction(sql), (inside) => inside ? Effect.void : heard)
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
