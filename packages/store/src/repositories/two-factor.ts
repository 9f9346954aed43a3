import { PendingLogin, TwoFactorDevice } from "@hedgerow/core"
import { TwoFactorRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Option, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst } from "./table.ts"

const decodeDevice = decodeFirst(TwoFactorDevice)
const decodePending = decodeFirst(PendingLogin)
const decodeSecret = decodeFirst(Schema.Struct({ secret: Schema.String }))
const decodeCount = decodeFirst(Schema.Struct({ count: Schema.Number }))

export const layerNoDeps = Layer.effect(
  TwoFactorRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const deviceColumns = sql.unsafe(columnsOf(TwoFactorDevice))
    const pendingColumns = sql.unsafe(columnsOf(PendingLogin, "l"))
    return TwoFactorRepository.of({
      device: (user, lock) =>
        (lock
          ? sql`SELECT ${deviceColumns} FROM two_factor_devices WHERE user_id = ${user} FOR UPDATE`
          : sql`SELECT ${deviceColumns} FROM two_factor_devices WHERE user_id = ${user}`).pipe(Effect.orDie, Effect.flatMap(decodeDevice)),
      enable: (user, secret, step) =>
        Effect.gen(function*() {
          yield* sql`
            INSERT INTO two_factor_devices (user_id, secret, last_step) VALUES (${user}, ${secret}, ${step})
            ON CONFLICT (user_id) DO UPDATE SET secret = EXCLUDED.secret, last_step = EXCLUDED.last_step,
              failure_count = 0, failed_at = NULL`
          // Browsers remembered for the old secret are not remembered for the new one.
          yield* sql`DELETE FROM two_factor_remembered WHERE user_id = ${user}`
        }).pipe(Effect.orDie),
      recordSuccess: (user, step) =>
        sql`
          UPDATE two_factor_devices SET last_step = COALESCE(${step}, last_step), failure_count = 0, failed_at = NULL
          WHERE user_id = ${user}`.pipe(Effect.orDie, Effect.asVoid),
      recordFailure: (user, at) =>
        sql`
          UPDATE two_factor_devices SET failure_count = failure_count + 1, failed_at = ${at}::timestamptz
          WHERE user_id = ${user}`.pipe(Effect.orDie, Effect.asVoid),
      replaceBackupCodes: (user, hashes) =>
        Effect.gen(function*() {
          yield* sql`DELETE FROM two_factor_backup_codes WHERE user_id = ${user}`
          for (const hash of hashes) yield* sql`INSERT INTO two_factor_backup_codes (user_id, code_hash) VALUES (${user}, ${hash})`
        }).pipe(Effect.orDie),
      useBackupCode: (user, hash) =>
        sql`DELETE FROM two_factor_backup_codes WHERE user_id = ${user} AND code_hash = ${hash} RETURNING code_hash`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      backupCodesLeft: (user) =>
        sql`SELECT count(*)::integer AS count FROM two_factor_backup_codes WHERE user_id = ${user}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCount),
          Effect.map(Option.match({ onNone: () => 0, onSome: (row) => row.count }))
        ),
      disable: (user) =>
        Effect.gen(function*() {
          // The backup codes go with the app.
          yield* sql`DELETE FROM two_factor_devices WHERE user_id = ${user}`
          yield* sql`DELETE FROM two_factor_logins WHERE user_id = ${user}`
        }).pipe(Effect.orDie),
      putSetup: (session, secret, expiresAt) =>
        sql`
          INSERT INTO two_factor_setups (session_id, secret, expires_at) VALUES (${session}, ${secret}, ${expiresAt}::timestamptz)
          ON CONFLICT (session_id) DO UPDATE SET secret = EXCLUDED.secret, expires_at = EXCLUDED.expires_at`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      findSetup: (session) =>
        sql`SELECT secret FROM two_factor_setups WHERE session_id = ${session} AND expires_at > now()`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeSecret),
          Effect.map(Option.map((row) => row.secret))
        ),
      removeSetup: (session) => sql`DELETE FROM two_factor_setups WHERE session_id = ${session}`.pipe(Effect.orDie, Effect.asVoid),
      insertPendingLogin: (input) =>
        sql`
          INSERT INTO two_factor_logins (id, user_id, secret_hash, expires_at)
          VALUES (gen_random_uuid(), ${input.user_id}, ${input.secret_hash}, ${input.expires_at}::timestamptz)`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      // A deactivated user's waiting log-in is as good as gone.
      findPendingLogin: (secretHash) =>
        sql`
          SELECT ${pendingColumns} FROM two_factor_logins l JOIN users u ON u.id = l.user_id
          WHERE l.secret_hash = ${secretHash} AND u.is_active`.pipe(Effect.orDie, Effect.flatMap(decodePending)),
      removePendingLogin: (id) => sql`DELETE FROM two_factor_logins WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      rememberDevice: (user, secretHash, expiresAt) =>
        sql`
          INSERT INTO two_factor_remembered (secret_hash, user_id, expires_at)
          VALUES (${secretHash}, ${user}, ${expiresAt}::timestamptz)`.pipe(Effect.orDie, Effect.asVoid),
      isRemembered: (user, secretHashes) =>
        Effect.gen(function*() {
          if (secretHashes.length === 0) return false
          // One round trip whatever number of cookies the browser sent.
          const rows = yield* sql`
            SELECT 1 FROM two_factor_remembered
            WHERE secret_hash = ANY(${secretHashes}::text[]) AND user_id = ${user} AND expires_at > now() LIMIT 1`
          return rows.length > 0
        }).pipe(Effect.orDie),
      removeExpired: Effect.gen(function*() {
        yield* sql`DELETE FROM two_factor_logins WHERE expires_at <= now()`
        yield* sql`DELETE FROM two_factor_setups WHERE expires_at <= now()`
        yield* sql`DELETE FROM two_factor_remembered WHERE expires_at <= now()`
      }).pipe(Effect.orDie)
    })
  })
)
