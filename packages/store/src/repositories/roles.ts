import { AlreadyRoleMember, type FeatureFlagsAccessLevel, type OrganizationId, type RoleId, RoleNameTaken, type RoleRecord, RoleRepository, type UserId } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts } from "./rows.ts"

interface RoleRow {
  readonly id: string
  readonly organization_id: string
  readonly name: string
  readonly feature_flags_access_level: number
  readonly created_by_id: number | null
  readonly created_at: Date | string
}

const toRole = (row: RoleRow): RoleRecord => ({
  id: row.id as RoleId,
  organization_id: row.organization_id as OrganizationId,
  name: row.name,
  feature_flags_access_level: row.feature_flags_access_level as FeatureFlagsAccessLevel,
  created_by_id: row.created_by_id as UserId | null,
  created_at: ts(row.created_at)
})

export const RoleRepositoryLive = Layer.effect(
  RoleRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RoleRepository.of({
      insert: (input) =>
        sql<RoleRow>`
          INSERT INTO roles (id, organization_id, name, feature_flags_access_level, created_by_id)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.name}, ${input.feature_flags_access_level}, ${input.created_by_id})
          ON CONFLICT DO NOTHING RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new RoleNameTaken()) : Effect.succeed(toRole(rows[0]!)))
        ),
      findById: (id) =>
        sql<RoleRow>`SELECT * FROM roles WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toRole)))
        ),
      addMember: (role, user) =>
        sql`INSERT INTO role_memberships (id, role_id, user_id) VALUES (gen_random_uuid(), ${role}, ${user})
            ON CONFLICT DO NOTHING RETURNING id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new AlreadyRoleMember()) : Effect.void)
        )
    })
  })
)
