import { type OrganizationId, type ProjectId, type User, type UserId, UserRepository, type UserUuid, EmailTaken } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts, tsOrNull } from "./rows.ts"

export const USER_COLUMNS = `id, uuid, distinct_id, email, first_name, last_name, is_email_verified, hedgehog_config,
  role_at_organization, current_organization_id, current_project_id, is_active, last_login, created_at`

export interface UserRow {
  readonly id: number
  readonly uuid: string
  readonly distinct_id: string
  readonly email: string
  readonly first_name: string
  readonly last_name: string
  readonly is_email_verified: boolean
  readonly hedgehog_config: Record<string, unknown> | null
  readonly role_at_organization: string | null
  readonly current_organization_id: string | null
  readonly current_project_id: number | null
  readonly is_active: boolean
  readonly last_login: Date | string | null
  readonly created_at: Date | string
}

export const toUser = (row: UserRow): User => ({
  id: row.id as UserId,
  uuid: row.uuid as UserUuid,
  distinct_id: row.distinct_id,
  email: row.email,
  first_name: row.first_name,
  last_name: row.last_name,
  is_email_verified: row.is_email_verified,
  hedgehog_config: row.hedgehog_config,
  role_at_organization: row.role_at_organization,
  current_organization_id: row.current_organization_id as OrganizationId | null,
  current_project_id: row.current_project_id as ProjectId | null,
  is_active: row.is_active,
  last_login: tsOrNull(row.last_login),
  created_at: ts(row.created_at)
})

export const UserRepositoryLive = Layer.effect(
  UserRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(USER_COLUMNS)

    return UserRepository.of({
      insert: (input) =>
        sql<UserRow>`
          INSERT INTO users (uuid, distinct_id, email, first_name, last_name)
          VALUES (gen_random_uuid(), gen_random_uuid()::text, ${input.email}, ${input.first_name}, ${input.last_name})
          ON CONFLICT ((lower(email))) DO NOTHING
          RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new EmailTaken()) : Effect.succeed(toUser(rows[0]!)))
        ),
      findById: (id) =>
        sql<UserRow>`SELECT ${columns} FROM users WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toUser)))
        ),
      findManyById: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<UserRow>`SELECT ${columns} FROM users WHERE id = ANY(${ids}::integer[])`.pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map(toUser))
          ),
      findByEmail: (email) =>
        sql<UserRow>`SELECT ${columns} FROM users WHERE lower(email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toUser)))
        ),
      lock: (id) => sql`SELECT id FROM users WHERE id = ${id} FOR UPDATE`.pipe(Effect.orDie, Effect.asVoid),
      setCurrent: (id, current) =>
        sql`UPDATE users SET current_organization_id = ${current.organization_id},
              current_project_id = ${current.project_id} WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
