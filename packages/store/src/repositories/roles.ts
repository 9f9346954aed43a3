import { FeatureFlagId, MemberRecord, Role, RoleId, RoleMembership, RoleMembershipId, RoleRecord, toUserSummary, UserSummary } from "@hedgerow/core"
import { AlreadyRoleMember, RoleNameTaken, RoleRepository, toMember } from "@hedgerow/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient, SqlError, type Statement } from "effect/sql"
import { MEMBER_OBJECTS } from "./memberships.ts"
import { pageAndTotal } from "./paging.ts"
import { isUniqueViolation, serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeRows, objectOf } from "./table.ts"

const decodeRole = decodeFirst(RoleRecord)
const decodeRoles = decodeRows(RoleRecord)
/** A caller's role: its level, and the flags (of those asked about) that grant it access. */
const decodeCallerRoles = decodeRows(Schema.Struct({
  level: RoleRecord.fields.feature_flags_access_level,
  flags: Schema.Array(FeatureFlagId)
}))
/** Role `r` and its creator `c` as one JSON object, null when there is none. */
const WITH_CREATOR = `${columnsOf(RoleRecord, "r")}, ${objectOf(UserSummary, "c")} AS created_by`
const decodeWithCreators = decodeRows(Schema.Struct({ ...RoleRecord.fields, created_by: Role.fields.created_by }))
/** A membership of a role `rm` with its user's membership of the role's organization. */
const MembershipRow = Schema.Struct({
  id: RoleMembershipId,
  role_id: RoleId,
  joined_at: RoleMembership.fields.joined_at,
  ...MemberRecord.fields
})
const decodeMembershipRows = decodeRows(MembershipRow)

const toRoleMembership = (row: typeof MembershipRow.Type): RoleMembership => ({
  id: row.id,
  role_id: row.role_id,
  organization_member: toMember(row),
  user: toUserSummary(row.user),
  joined_at: row.joined_at,
  updated_at: row.joined_at
})


export const layerNoDeps = Layer.effect(
  RoleRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(RoleRecord))
    const withCreator = sql.unsafe(WITH_CREATOR)
    const memberObjects = sql.unsafe(MEMBER_OBJECTS)

    /** Memberships of roles, each with its user's organization membership (which every role member has). */
    const membershipRows = (where: Statement.Fragment, page?: { readonly limit: number; readonly offset: number }) =>
      sql`
        SELECT rm.id, rm.role_id, rm.joined_at, ${memberObjects} FROM role_memberships rm
        JOIN roles r ON r.id = rm.role_id
        JOIN users u ON u.id = rm.user_id
        JOIN memberships m ON m.user_id = rm.user_id AND m.organization_id = r.organization_id
        WHERE ${where}
        ORDER BY rm.joined_at, rm.id
        ${page === undefined ? sql.unsafe("") : sql`LIMIT ${page.limit} OFFSET ${page.offset}`}`

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
      list: (organization, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${columns} FROM roles WHERE organization_id = ${organization}
            ORDER BY created_at, id LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM roles WHERE organization_id = ${organization}`
        ).pipe(Effect.flatMap(({ rows, total }) =>
          Effect.map(decodeRoles(rows), (results) => ({ count: total, results, request: page }))
        )),
      // A name another role of the organization has (in any case) breaks roles_organization_name_key.
      update: (id, change) =>
        sql`
          UPDATE roles SET
            name = coalesce(${change.name ?? null}::text, name),
            feature_flags_access_level = coalesce(${change.feature_flags_access_level ?? null}::smallint, feature_flags_access_level)
          WHERE id = ${id} RETURNING ${columns}`.pipe(
          Effect.catchIf(isUniqueViolation, () => Effect.fail(new RoleNameTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.flatMap(decodeRole)
        ),
      // Its memberships and the flags' grants to it go with it (ON DELETE CASCADE), in this one statement.
      delete: (id) =>
        sql<{ id: string }>`DELETE FROM roles WHERE id = ${id} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      addMember: (role, user) =>
        sql<{ id: string }>`INSERT INTO role_memberships (id, role_id, user_id) VALUES (gen_random_uuid(), ${role}, ${user})
            ON CONFLICT DO NOTHING RETURNING id`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows.length === 0 ? Effect.fail(new AlreadyRoleMember()) : Effect.succeed(rows[0]!.id as RoleMembershipId)
          )
        ),
      memberships: (role, page) =>
        pageAndTotal(
          page,
          membershipRows(sql`rm.role_id = ${role}`, page),
          sql<{ n: number }>`
            SELECT count(*)::integer AS n FROM role_memberships rm
            JOIN roles r ON r.id = rm.role_id
            JOIN memberships m ON m.user_id = rm.user_id AND m.organization_id = r.organization_id
            WHERE rm.role_id = ${role}`
        ).pipe(Effect.flatMap(({ rows, total }) =>
          Effect.map(decodeMembershipRows(rows), (found) => ({ count: total, results: found.map(toRoleMembership), request: page }))
        )),
      membershipViews: (ids) =>
        membershipRows(sql`rm.id = ANY(${ids}::uuid[])`).pipe(
          Effect.orDie,
          Effect.flatMap(decodeMembershipRows),
          Effect.map((rows) => {
            const byId = new Map(rows.map((row) => [row.id as string, toRoleMembership(row)]))
            return ids.flatMap((id) => byId.get(id) ?? [])
          })
        ),
      removeMembership: (role, id) =>
        sql<{ id: string }>`DELETE FROM role_memberships WHERE id = ${id} AND role_id = ${role} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
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
        ids.length === 0 ? Effect.succeed([]) : Effect.all({
          roles: sql`
            SELECT ${withCreator} FROM roles r LEFT JOIN users c ON c.id = r.created_by_id
            WHERE r.id = ANY(${ids}::uuid[])`.pipe(Effect.flatMap(decodeWithCreators)),
          members: membershipRows(sql`rm.role_id = ANY(${ids}::uuid[])`).pipe(Effect.flatMap(decodeMembershipRows))
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
                members: members.filter((member) => member.role_id === id).map(toRoleMembership),
                is_default: false
              }]
            })
          })
        )
    })
  })
)
