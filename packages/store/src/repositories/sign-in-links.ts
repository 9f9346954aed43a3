import { SignInLink } from "@hedgerow/core"
import { SignInLinkRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst } from "./table.ts"

const decodeLink = decodeFirst(SignInLink)

export const layerNoDeps = Layer.effect(
  SignInLinkRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(SignInLink))
    return SignInLinkRepository.of({
      replaceForUser: (user, secretHash, expiresAt) =>
        sql`
          INSERT INTO sign_in_links (secret_hash, user_id, expires_at)
          VALUES (${secretHash}, ${user}, ${expiresAt}::timestamptz)
          ON CONFLICT (user_id) DO UPDATE SET secret_hash = EXCLUDED.secret_hash, expires_at = EXCLUDED.expires_at`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      // One statement: the row is locked, removed and read at once, so a second taker waits and then finds none.
      take: (secretHash) =>
        sql`DELETE FROM sign_in_links WHERE secret_hash = ${secretHash} RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeLink)
        ),
      removeForUser: (user) => sql`DELETE FROM sign_in_links WHERE user_id = ${user}`.pipe(Effect.orDie, Effect.asVoid),
      removeExpired: (now) =>
        sql`DELETE FROM sign_in_links WHERE expires_at <= ${now}::timestamptz`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
