import {
  AlreadyRoleMember,
  type FeatureFlagId,
  type FeatureFlagsAccessLevel,
  type Member,
  type MembershipId,
  type MembershipLevel,
  type OrganizationId,
  type Role,
  type RoleId,
  RoleNameTaken,
  type RoleRecord,
  RoleRepository,
  toMember,
  type UserId
} from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { serialIds, ts } from "./rows.ts"
import { toUser, USER_COLUMNS, type UserRow } from "./users.ts"
import { summaryColumns, summaryOf } from "./user-summary.ts"

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

/** A role member: the membership (`m_` columns) and the user's own columns. */
type MemberRow = UserRow & {
  readonly role_id: string
  readonly m_id: string
  readonly m_organization_id: string
  readonly m_level: number
  readonly m_joined_at: Date | string
  readonly m_updated_at: Date | string
}

const MEMBER_COLUMNS = `rm.role_id, m.id AS m_id, m.organization_id AS m_organization_id, m.level AS m_level,
  m.joined_at AS m_joined_at, m.updated_at AS m_updated_at,
  ${USER_COLUMNS.split(",").map((column) => `u.${column.trim()}`).join(", ")}`

const toRoleMember = (row: MemberRow): Member => {
  const user = toUser(row)
  return toMember({
    membership: {
      id: row.m_id as MembershipId,
      organization_id: row.m_organization_id as OrganizationId,
      user_id: user.id,
      level: row.m_level as MembershipLevel,
      joined_at: ts(row.m_joined_at),
      updated_at: ts(row.m_updated_at)
    },
    user
  })
}

export const RoleRepositoryLive = Layer.effect(
  RoleRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const creatorColumns = sql.unsafe(summaryColumns("c", "c_"))
    const memberColumns = sql.unsafe(MEMBER_COLUMNS)
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
        ),
      callerRoles: (organization, user, flags) =>
        sql<{ level: number; flags: ReadonlyArray<number> }>`
          SELECT r.feature_flags_access_level AS level,
            ARRAY(
              SELECT a.feature_flag_id FROM feature_flag_role_access a
              WHERE a.role_id = r.id AND a.feature_flag_id = ANY(${serialIds(flags)}::integer[])
            ) AS flags
          FROM role_memberships rm JOIN roles r ON r.id = rm.role_id
          WHERE rm.user_id = ${user} AND r.organization_id = ${organization}`.pipe(
          Effect.orDie,
          Effect.map((rows) =>
            rows.map((row) => ({
              level: row.level as FeatureFlagsAccessLevel,
              flags: row.flags as ReadonlyArray<FeatureFlagId>
            })))
        ),
      // Two statements for any number of roles: the roles with their creators, then all their members.
      views: (ids) =>
        Effect.all({
          roles: sql<RoleRow>`
            SELECT r.*, ${creatorColumns} FROM roles r LEFT JOIN users c ON c.id = r.created_by_id
            WHERE r.id = ANY(${ids}::uuid[])`,
          members: sql<MemberRow>`
            SELECT ${memberColumns} FROM role_memberships rm
            JOIN roles r ON r.id = rm.role_id
            JOIN users u ON u.id = rm.user_id
            JOIN memberships m ON m.user_id = rm.user_id AND m.organization_id = r.organization_id
            WHERE rm.role_id = ANY(${ids}::uuid[])
            ORDER BY rm.joined_at, rm.id`
        }).pipe(
          Effect.orDie,
          Effect.map(({ roles, members }) => {
            const byId = new Map(roles.map((row) => [row.id, row]))
            return ids.flatMap((id): ReadonlyArray<Role> => {
              const row = byId.get(id)
              if (row === undefined) return []
              return [{
                id: row.id as RoleId,
                name: row.name,
                feature_flags_access_level: row.feature_flags_access_level as FeatureFlagsAccessLevel,
                created_at: ts(row.created_at),
                created_by: summaryOf(row as unknown as Record<string, unknown>, "c_"),
                members: members.filter((member) => member.role_id === id).map(toRoleMember)
              }]
            })
          })
        )
    })
  })
)
