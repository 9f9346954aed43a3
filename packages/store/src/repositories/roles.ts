import { FeatureFlagId, MemberRecord, Role, RoleId, RoleRecord, UserSummary } from "@hedgerow/core"
import { AlreadyRoleMember, RoleNameTaken, RoleRepository, toMember } from "@hedgerow/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { MEMBER_OBJECTS } from "./memberships.ts"
import { serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeRows, objectOf } from "./table.ts"

const decodeRole = decodeFirst(RoleRecord)
/** A caller's role: its level, and the flags (of those asked about) that grant it access. */
const decodeCallerRoles = decodeRows(Schema.Struct({
  level: RoleRecord.fields.feature_flags_access_level,
  flags: Schema.Array(FeatureFlagId)
}))
/** Role `r` and its creator `c` as one JSON object, null when there is none. */
const WITH_CREATOR = `${columnsOf(RoleRecord, "r")}, ${objectOf(UserSummary, "c")} AS created_by`
const decodeWithCreators = decodeRows(Schema.Struct({ ...RoleRecord.fields, created_by: Role.fields.created_by }))
/** A member of one of the roles asked about. */
const decodeRoleMembers = decodeRows(Schema.Struct({ role_id: RoleId, ...MemberRecord.fields }))

export const layerNoDeps = Layer.effect(
  RoleRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(RoleRecord))
    const withCreator = sql.unsafe(WITH_CREATOR)
    const memberObjects = sql.unsafe(MEMBER_OBJECTS)
    return RoleRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO roles (id, organization_id, name, feature_flags_access_level, created_by_id)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.name}, ${input.feature_flags_access_level}, ${input.created_by_id})
          ON CONFLICT DO NOTHING RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeRole),
          Effect.flatMap(Effect.fromOption),
          Effect.catchTag("NoSuchElementError", () => Effect.fail(new RoleNameTaken()))
        ),
      findById: (id) =>
        sql`SELECT ${columns} FROM roles WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(decodeRole)),
      addMember: (role, user) =>
        sql`INSERT INTO role_memberships (id, role_id, user_id) VALUES (gen_random_uuid(), ${role}, ${user})
            ON CONFLICT DO NOTHING RETURNING id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new AlreadyRoleMember()) : Effect.void)
        ),
      callerRoles: (organization, user, flags) =>
        sql`
          SELECT r.feature_flags_access_level AS level,
            ARRAY(
              SELECT a.feature_flag_id FROM feature_flag_role_access a
              WHERE a.role_id = r.id AND a.feature_flag_id = ANY(${serialIds(flags)}::integer[])
            ) AS flags
          FROM role_memberships rm JOIN roles r ON r.id = rm.role_id
          WHERE rm.user_id = ${user} AND r.organization_id = ${organization}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCallerRoles)
        ),
      // Two statements for any number of roles: the roles with their creators, then all their members.
      views: (ids) =>
        Effect.all({
          roles: sql`
            SELECT ${withCreator} FROM roles r LEFT JOIN users c ON c.id = r.created_by_id
            WHERE r.id = ANY(${ids}::uuid[])`.pipe(Effect.flatMap(decodeWithCreators)),
          members: sql`
            SELECT rm.role_id, ${memberObjects} FROM role_memberships rm
            JOIN roles r ON r.id = rm.role_id
            JOIN users u ON u.id = rm.user_id
            JOIN memberships m ON m.user_id = rm.user_id AND m.organization_id = r.organization_id
            WHERE rm.role_id = ANY(${ids}::uuid[])
            ORDER BY rm.joined_at, rm.id`.pipe(Effect.flatMap(decodeRoleMembers))
        }).pipe(
          Effect.orDie,
          Effect.map(({ roles, members }) => {
            const byId = new Map(roles.map((role) => [role.id, role]))
            return ids.flatMap((id): ReadonlyArray<Role> => {
              const role = byId.get(id)
              if (role === undefined) return []
              return [{
                id: role.id,
                name: role.name,
                feature_flags_access_level: role.feature_flags_access_level,
                created_at: role.created_at,
                created_by: role.created_by,
                members: members.filter((member) => member.role_id === id).map(toMember)
              }]
            })
          })
        )
    })
  })
)
