import { PendingOAuthLogin } from "@hedgerow/core"
import { OAuthLoginRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst, valuesOf } from "./table.ts"

const decodePending = decodeFirst(PendingOAuthLogin)

export const layerNoDeps = Layer.effect(
  OAuthLoginRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(PendingOAuthLogin))
    const values = valuesOf(sql, "oauth_pending_logins", PendingOAuthLogin)
    return OAuthLoginRepository.of({
      insert: (pending) =>
        sql`
          INSERT INTO oauth_pending_logins (${columns}) ${values(pending)}
          ON CONFLICT (browser_hash) DO UPDATE SET
            provider = excluded.provider, state_hash = excluded.state_hash, next = excluded.next, expires_at = excluded.expires_at`.pipe(Effect.orDie, Effect.asVoid),
      take: (browserHash) =>
        sql`DELETE FROM oauth_pending_logins WHERE browser_hash = ${browserHash} RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodePending)
        ),
      removeExpired: sql`DELETE FROM oauth_pending_logins WHERE expires_at <= now()`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
