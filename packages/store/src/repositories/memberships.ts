import { MemberRecord, Membership, MembershipLevels, User } from "@hedgerow/core"
import { AlreadyMember, MembershipRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Option, type Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, objectOf } from "./table.ts"

const decodeMembership = decodeFirst(Membership)
const decodeUpdated = decodeOne(Membership)
const decodeMembers = decodeRows(MemberRecord)
const decodeMember = decodeFirst(MemberRecord)
const decodeOrganizationOf = decodeFirst(Membership.mapFields(Struct.pick(["organization_id"])))

/**
 * A credential's holder, as authentication reads it in one round trip: the credential row `alias` (a key
 * or a session, decoded by `credential`), its user `u` and the user's memberships (level by organization).
 */
export const holderObjects = (credential: { readonly fields: Schema.Struct.Fields }, alias: string, name: string) =>
  `${objectOf(credential, alias)} AS ${name}, ${objectOf(User, "u")} AS user,
  (SELECT coalesce(json_agg(${objectOf(MembershipLevels.value, "m")}), '[]')
    FROM memberships m WHERE m.user_id = ${alias}.user_id) AS memberships`

/** A membership `m` and its user `u`, each one JSON object, as MemberRecord decodes them. */
export const MEMBER_OBJECTS = `${objectOf(Membership, "m")} AS membership, ${objectOf(User, "u")} AS user`

export const layerNoDeps = Layer.effect(
  MembershipRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(Membership))
    const memberObjects = sql.unsafe(MEMBER_OBJECTS)

    return MembershipRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO memberships (id, organization_id, user_id, level)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.user_id}, ${input.level})
          ON CONFLICT ON CONSTRAINT memberships_organization_user_key DO NOTHING RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeMembership),
          Effect.flatMap(Effect.fromOption),
          Effect.catchTag("NoSuchElementError", () => Effect.fail(new AlreadyMember()))
        ),
      find: (organization, user) =>
        sql`SELECT ${columns} FROM memberships WHERE organization_id = ${organization} AND user_id = ${user}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeMembership)
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
          sql`
            SELECT ${memberObjects} FROM memberships m JOIN users u ON u.id = m.user_id
            WHERE ${where} ORDER BY ${orderBy} LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`
            SELECT count(*)::integer AS n FROM memberships m JOIN users u ON u.id = m.user_id WHERE ${where}`
        ).pipe(
          Effect.flatMap(({ rows, total }) =>
            Effect.map(decodeMembers(rows), (results) => ({ count: total, results, request: page })))
        )
      },
      findMember: (organization, user) => {
        const who = "uuid" in user ? sql`u.uuid = ${user.uuid}` : sql`u.id = ${user.id}`
        return sql`
          SELECT ${memberObjects} FROM memberships m JOIN users u ON u.id = m.user_id
          WHERE m.organization_id = ${organization} AND u.is_active AND ${who}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeMember)
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
        sql`UPDATE memberships SET level = ${level}, updated_at = now() WHERE id = ${id} RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeUpdated)
        ),
      remove: (membership) =>
        Effect.all([
          sql`DELETE FROM role_memberships WHERE user_id = ${membership.user_id}
                AND role_id IN (SELECT id FROM roles WHERE organization_id = ${membership.organization_id})`,
          sql`DELETE FROM memberships WHERE id = ${membership.id}`
        ], { discard: true }).pipe(Effect.orDie),
      firstOrganizationOf: (user) =>
        sql`SELECT organization_id FROM memberships WHERE user_id = ${user} ORDER BY joined_at, id LIMIT 1`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeOrganizationOf),
          Effect.map(Option.map((row) => row.organization_id))
        ),
      // Both sides are lowered here, by the same lower() as users_email_key: JavaScript's case mapping
      // differs from PostgreSQL's for some letters (final sigma, dotted I), and comparing one with the
      // other would let a member be invited again.
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
