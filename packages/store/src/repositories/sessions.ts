import { Session, SessionHolder } from "@hedgerow/core"
import { SessionRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { holderObjects } from "./memberships.ts"
import { columnsOf, decodeFirst, decodeOne } from "./table.ts"

const decodeSession = decodeOne(Session)
const decodeHolder = decodeFirst(SessionHolder)

/**
 * Session `s`, its user `u`, the user's memberships and their two-factor standing, as SessionHolder decodes
 * them. The standing is two primary-key lookups in the same round trip: no request pays another query.
 */
const HOLDER_OBJECTS = `${holderObjects(Session, "s", "session")},
  json_build_object(
    'enforced', coalesce((SELECT o.enforce_2fa FROM organizations o WHERE o.id = u.current_organization_id), false),
    'enabled', EXISTS (SELECT 1 FROM two_factor_devices d WHERE d.user_id = u.id)) AS two_factor`

export const layerNoDeps = Layer.effect(
  SessionRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(Session))
    const holderObjects = sql.unsafe(HOLDER_OBJECTS)
    return SessionRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO sessions (id, user_id, secret_hash, expires_at, two_factor_verified)
          VALUES (gen_random_uuid(), ${input.user_id}, ${input.secret_hash}, ${input.expires_at}::timestamptz, ${input.two_factor_verified})
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeSession)),
      // Every session-authenticated request that memory cannot answer: session, user and memberships in one round trip.
      findHolder: (secretHash) =>
        sql`
          SELECT ${holderObjects} FROM sessions s JOIN users u ON u.id = s.user_id
          WHERE s.secret_hash = ${secretHash}`.pipe(Effect.orDie, Effect.flatMap(decodeHolder)),
      markTwoFactorVerified: (id) =>
        sql`UPDATE sessions SET two_factor_verified = true WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      forgetTwoFactorVerified: (user) =>
        sql`UPDATE sessions SET two_factor_verified = false WHERE user_id = ${user} AND two_factor_verified`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      remove: (id) => sql`DELETE FROM sessions WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      removeForUser: (user, keep) =>
        (keep === null
          ? sql`DELETE FROM sessions WHERE user_id = ${user}`
          : sql`DELETE FROM sessions WHERE user_id = ${user} AND id <> ${keep}`).pipe(Effect.orDie, Effect.asVoid),
      removeExpired: sql`DELETE FROM sessions WHERE expires_at <= now()`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
