import { KeyHolder, NewPersonalApiKey, PersonalApiKey, PersonalApiKeyChanges } from "@hedgerow/core"
import { PersonalApiKeyRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { holderObjects } from "./memberships.ts"
import { rowLock } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, recordOf, valuesOf } from "./table.ts"

const decodeKey = decodeOne(PersonalApiKey)
const decodeFound = decodeFirst(PersonalApiKey)
const decodeKeys = decodeRows(PersonalApiKey)
const decodeHolder = decodeFirst(KeyHolder)

/** Key `k`, owner `u` and the owner's memberships, as KeyHolder decodes them. */
const HOLDER_OBJECTS = holderObjects(PersonalApiKey, "k", "key")

export const layerNoDeps = Layer.effect(
  PersonalApiKeyRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(PersonalApiKey))
    const newColumns = sql.unsafe(columnsOf(NewPersonalApiKey))
    const newRecord = recordOf(sql, "personal_api_keys", NewPersonalApiKey)
    const holderObjects = sql.unsafe(HOLDER_OBJECTS)
    const changeColumns = sql.unsafe(columnsOf(PersonalApiKeyChanges))
    const changeValues = valuesOf(sql, "personal_api_keys", PersonalApiKeyChanges)
    return PersonalApiKeyRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO personal_api_keys (id, ${newColumns})
          SELECT gen_random_uuid(), ${newColumns} FROM ${newRecord(input)}
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeKey)),
      // Every request authenticates: key, owner and memberships come back in one round trip.
      findHolder: (secureValue) =>
        sql`
          SELECT ${holderObjects} FROM personal_api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.secure_value = ${secureValue}`.pipe(Effect.orDie, Effect.flatMap(decodeHolder)),
      countForUser: (user) =>
        sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${user}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.n ?? 0)
        ),
      // personal_api_keys_list_idx serves the order; ids break ties between keys made in one microsecond.
      listForUser: (user) =>
        sql`SELECT ${columns} FROM personal_api_keys WHERE user_id = ${user} ORDER BY created_at DESC, id DESC`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeKeys)
        ),
      findForUser: (user, id, options) =>
        sql`SELECT ${columns} FROM personal_api_keys WHERE id = ${id} AND user_id = ${user} ${rowLock(sql, options)}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeFound)
        ),
      update: (id, changes) =>
        sql`
          UPDATE personal_api_keys SET (${changeColumns}) = (${changeValues(changes)})
          WHERE id = ${id} RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeKey)),
      roll: (id, secret) =>
        sql`
          UPDATE personal_api_keys
          SET secure_value = ${secret.secure_value}, mask_value = ${secret.mask_value}, last_rolled_at = now()
          WHERE id = ${id} RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeKey)),
      delete: (user, id) =>
        sql<{ id: string }>`DELETE FROM personal_api_keys WHERE id = ${id} AND user_id = ${user} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      deleteAllForUser: (user) => sql`DELETE FROM personal_api_keys WHERE user_id = ${user}`.pipe(Effect.orDie, Effect.asVoid),
      touch: (id, at) =>
        sql`UPDATE personal_api_keys SET last_used_at = ${at}::timestamptz WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
