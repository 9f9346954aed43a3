import { User } from "@hedgerow/core"
import { EmailTaken, UserRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst, decodeRows, objectOf } from "./table.ts"

/** A user as the users table holds it: core's User schema is the row. */
const decodeUsers = decodeRows(User)
const decodeUser = decodeFirst(User)

/** A user as one JSON object, beside the password hash, which no other read returns. */
const Credentials = Schema.Struct({ user: User, password_hash: Schema.NullOr(Schema.String) })
const decodeCredentials = decodeFirst(Credentials)

export const layerNoDeps = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(User))
    const credentialObjects = sql.unsafe(`${objectOf(User, "u")} AS user, u.password_hash`)

    return UserRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO users (uuid, distinct_id, email, first_name, last_name, password_hash, is_email_verified)
          VALUES (gen_random_uuid(), gen_random_uuid()::text, ${input.email}, ${input.first_name}, ${input.last_name},
            ${input.password_hash ?? null}, ${input.email_verified ?? false})
          ON CONFLICT ((lower(email))) DO NOTHING
          RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeUser),
          Effect.flatMap(Effect.fromOption),
          Effect.catchTag("NoSuchElementError", () => Effect.fail(new EmailTaken()))
        ),
      findById: (id) =>
        sql`SELECT ${columns} FROM users WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeUser)
        ),
      findManyById: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`SELECT ${columns} FROM users WHERE id = ANY(${ids}::integer[])`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeUsers)
          ),
      findByEmail: (email) =>
        sql`SELECT ${columns} FROM users WHERE lower(email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeUser)
        ),
      findCredentials: (email) =>
        sql`SELECT ${credentialObjects} FROM users u WHERE lower(u.email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCredentials)
        ),
      passwordHashOf: (id) =>
        sql<{ password_hash: string | null }>`SELECT password_hash FROM users WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.password_hash ?? null)
        ),
      proveEmail: (id) =>
        sql`UPDATE users SET is_email_verified = true, password_hash = NULL WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      setPasswordHash: (id, hash) => sql`UPDATE users SET password_hash = ${hash} WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      replacePasswordHash: (id, from, to) =>
        sql`UPDATE users SET password_hash = ${to} WHERE id = ${id} AND password_hash = ${from}`.pipe(Effect.orDie, Effect.asVoid),
      recordLogin: (id, at) => sql`UPDATE users SET last_login = ${at}::timestamptz WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      lock: (id) => sql`SELECT id FROM users WHERE id = ${id} FOR UPDATE`.pipe(Effect.orDie, Effect.asVoid),
      setCurrent: (id, current) =>
        sql`UPDATE users SET current_organization_id = ${current.organization_id},
              current_project_id = ${current.project_id} WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
