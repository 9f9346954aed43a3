import {
  AlreadyMember,
  type MemberRecord,
  type Membership,
  type MembershipId,
  type MembershipLevel,
  MembershipRepository,
  type OrganizationId,
  type UserId
} from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"
import { toUser, USER_COLUMNS, type UserRow } from "./users.ts"

interface MembershipRow {
  readonly id: string
  readonly organization_id: string
  readonly user_id: number
  readonly level: number
  readonly joined_at: Date | string
  readonly updated_at: Date | string
}

export const toMembership = (row: MembershipRow): Membership => ({
  id: row.id as MembershipId,
  organization_id: row.organization_id as OrganizationId,
  user_id: row.user_id as UserId,
  level: row.level as MembershipLevel,
  joined_at: ts(row.joined_at),
  updated_at: ts(row.updated_at)
})

/** A membership and its user side by side: membership columns keep a `m_` prefix, user columns their names. */
type MemberRow = UserRow & {
  readonly m_id: string
  readonly m_organization_id: string
  readonly m_level: number
  readonly m_joined_at: Date | string
  readonly m_updated_at: Date | string
}

const toMemberRecord = (row: MemberRow): MemberRecord => ({
  membership: toMembership({
    id: row.m_id,
    organization_id: row.m_organization_id,
    user_id: row.id,
    level: row.m_level,
    joined_at: row.m_joined_at,
    updated_at: row.m_updated_at
  }),
  user: toUser(row)
})

const MEMBER_COLUMNS = `m.id AS m_id, m.organization_id AS m_organization_id, m.level AS m_level,
  m.joined_at AS m_joined_at, m.updated_at AS m_updated_at, ${USER_COLUMNS.split(",").map((column) => `u.${column.trim()}`).join(", ")}`

export const MembershipRepositoryLive = Layer.effect(
  MembershipRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const memberColumns = sql.unsafe(MEMBER_COLUMNS)

    return MembershipRepository.of({
      insert: (input) =>
        sql<MembershipRow>`
          INSERT INTO memberships (id, organization_id, user_id, level)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.user_id}, ${input.level})
          ON CONFLICT ON CONSTRAINT memberships_organization_user_key DO NOTHING RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new AlreadyMember()) : Effect.succeed(toMembership(rows[0]!)))
        ),
      find: (organization, user) =>
        sql<MembershipRow>`SELECT * FROM memberships WHERE organization_id = ${organization} AND user_id = ${user}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toMembership)))
        ),
      list: (filter, order, page) => {
        // `lower(email)` is what the unique index on users covers, so the filter is an index lookup.
        const where = filter.email === null
          ? sql`m.organization_id = ${filter.organization_id} AND u.is_active`
          : sql`m.organization_id = ${filter.organization_id} AND u.is_active AND lower(u.email) = lower(${filter.email})`
        // Both orders walk memberships_list_idx (organization_id, joined_at DESC, id DESC), one way or the other.
        const orderBy = order === "joined_at" ? sql.unsafe("m.joined_at, m.id") : sql.unsafe("m.joined_at DESC, m.id DESC")
        return pageAndTotal(
          page,
          sql<MemberRow>`
            SELECT ${memberColumns} FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE ${where} ORDER BY ${orderBy} LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`
            SELECT count(*)::integer AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE ${where}`
        ).pipe(Effect.map(({ rows, total }) => ({ count: total, results: rows.map(toMemberRecord), request: page })))
      },
      findMember: (organization, user) => {
        const who = "uuid" in user ? sql`u.uuid = ${user.uuid}` : sql`u.id = ${user.id}`
        return sql<MemberRow>`
          SELECT ${memberColumns} FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.organization_id = ${organization} AND u.is_active AND ${who}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toMemberRecord)))
        )
      },
      // NO KEY: member changes queue behind each other, while inserts that merely reference the
      // organization (their foreign-key checks take KEY SHARE) are not held up.
      lockOrganization: (organization) =>
        sql`SELECT id FROM organizations WHERE id = ${organization} FOR NO KEY UPDATE`.pipe(Effect.orDie, Effect.asVoid),
      countOwners: (organization) =>
        sql<{ n: number }>`SELECT count(*)::integer AS n FROM memberships WHERE organization_id = ${organization} AND level = 15`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.n ?? 0)
        ),
      setLevel: (id, level) =>
        sql<MembershipRow>`UPDATE memberships SET level = ${level}, updated_at = now() WHERE id = ${id} RETURNING *`.pipe(
          Effect.orDie,
          Effect.map((rows) => toMembership(rows[0]!))
        ),
      remove: (membership) =>
        Effect.all([
          sql`DELETE FROM role_memberships WHERE user_id = ${membership.user_id}
                AND role_id IN (SELECT id FROM roles WHERE organization_id = ${membership.organization_id})`,
          sql`DELETE FROM memberships WHERE id = ${membership.id}`
        ], { discard: true }).pipe(Effect.orDie),
      firstOrganizationOf: (user) =>
        sql<{ organization_id: string }>`
          SELECT organization_id FROM memberships WHERE user_id = ${user} ORDER BY joined_at, id LIMIT 1`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map((row) => row.organization_id as OrganizationId)))
        ),
      // Both sides are lowered here, by the same lower() as users_email_key: JavaScript's case mapping
      // differs from PostgreSQL's for some letters (final sigma, dotted I), and a mismatch let a member be invited.
      memberEmails: (organization, emails) =>
        emails.length === 0
          ? Effect.succeed(new Set<string>())
          : sql<{ email: string }>`
            SELECT given.email FROM unnest(${emails}::text[]) AS given (email)
            WHERE EXISTS (
              SELECT 1 FROM users u JOIN memberships m ON m.user_id = u.id
              WHERE m.organization_id = ${organization} AND lower(u.email) = lower(given.email))`.pipe(
            Effect.orDie,
            Effect.map((rows) => new Set(rows.map((row) => row.email)))
          )
    })
  })
)
