import { CliAuthRequest } from "@hedgerow/core"
import { CliAuthRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst } from "./table.ts"

const decodeRequest = decodeFirst(CliAuthRequest)

export const layerNoDeps = Layer.effect(
  CliAuthRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(CliAuthRequest))
    return CliAuthRepository.of({
      insert: (input) =>
        sql<{ id: string }>`
          INSERT INTO cli_auth_requests (id, device_code_hash, user_code_hash, expires_at)
          VALUES (gen_random_uuid(), ${input.device_code_hash}, ${input.user_code_hash}, ${input.expires_at}::timestamptz)
          ON CONFLICT DO NOTHING
          RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length === 1)),
      findByUserCode: (hash) =>
        sql`SELECT ${columns} FROM cli_auth_requests WHERE user_code_hash = ${hash} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeRequest)
        ),
      findByDeviceCode: (hash) =>
        sql`SELECT ${columns} FROM cli_auth_requests WHERE device_code_hash = ${hash} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeRequest)
        ),
      approve: (id, approval) =>
        sql`
          UPDATE cli_auth_requests SET approved_by = ${approval.user}, project_id = ${approval.project}, label = ${approval.label}
          WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      notePoll: (id, at) =>
        sql`UPDATE cli_auth_requests SET last_polled_at = ${at}::timestamptz WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      remove: (id) => sql`DELETE FROM cli_auth_requests WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      removeExpired: (now) =>
        sql`DELETE FROM cli_auth_requests WHERE expires_at <= ${now}::timestamptz`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
