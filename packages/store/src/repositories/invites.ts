import {
  type InviteId,
  type InviteRecord,
  InviteRepository,
  type MembershipLevel,
  type OrganizationId,
  type PrivateProjectAccess,
  type UserId
} from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { json, ts } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"
import { summaryColumns, summaryOf } from "./user-summary.ts"

interface InviteRow {
  readonly id: string
  readonly organization_id: string
  readonly target_email: string
  readonly first_name: string
  readonly level: number
  readonly message: string | null
  readonly private_project_access: ReadonlyArray<PrivateProjectAccess> | null
  readonly emailing_attempt_made: boolean
  readonly created_by_id: number | null
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const toInvite = (row: InviteRow): InviteRecord => ({
  id: row.id as InviteId,
  organization_id: row.organization_id as OrganizationId,
  target_email: row.target_email,
  first_name: row.first_name,
  level: row.level as MembershipLevel,
  message: row.message,
  private_project_access: row.private_project_access ?? [],
  emailing_attempt_made: row.emailing_attempt_made,
  created_by_id: row.created_by_id as UserId | null,
  created_at: ts(row.created_at),
  updated_at: ts(row.updated_at)
})

/** The creator rides along on the invite's row, its columns prefixed `u_` (all null when there is none). */
const CREATOR_COLUMNS = summaryColumns("u", "u_")

export const InviteRepositoryLive = Layer.effect(
  InviteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const creatorColumns = sql.unsafe(CREATOR_COLUMNS)

    return InviteRepository.of({
      // clock_timestamp(), not the transaction's now(): a bulk's invites are made in one transaction and
      // must still list newest first, in the order they were sent, as PostHog's one-by-one saves do.
      insert: (input) =>
        sql<InviteRow>`
          WITH clock AS (SELECT clock_timestamp() AS at)
          INSERT INTO invites (id, organization_id, target_email, first_name, level, message, private_project_access,
            emailing_attempt_made, created_by_id, created_at, updated_at)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.target_email}, ${input.first_name}, ${input.level},
            ${input.message}, ${json(input.private_project_access)}::jsonb, ${input.emailing_attempt_made}, ${input.created_by_id},
            (SELECT at FROM clock), (SELECT at FROM clock))
          RETURNING *`.pipe(Effect.orDie, Effect.map((rows) => toInvite(rows[0]!))),
      list: (organization, page) =>
        pageAndTotal(
          page,
          sql<InviteRow & Record<string, unknown>>`
            SELECT i.*, ${creatorColumns} FROM invites i LEFT JOIN users u ON u.id = i.created_by_id
            WHERE i.organization_id = ${organization}
            ORDER BY i.created_at DESC, i.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM invites WHERE organization_id = ${organization}`
        ).pipe(
          Effect.map(({ rows, total }) => ({
            count: total,
            results: rows.map((row) => ({ invite: toInvite(row), created_by: summaryOf(row, "u_") })),
            request: page
          }))
        ),
      findById: (id) =>
        sql<InviteRow>`SELECT * FROM invites WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toInvite)))
        ),
      remove: (id) => sql`DELETE FROM invites WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      forEmail: (organization, email) =>
        sql<InviteRow>`
          SELECT * FROM invites WHERE organization_id = ${organization} AND lower(target_email) = lower(${email})
          ORDER BY created_at DESC, id DESC`.pipe(Effect.orDie, Effect.map((rows) => rows.map(toInvite))),
      removeForEmail: (organization, email) =>
        sql`DELETE FROM invites WHERE organization_id = ${organization} AND lower(target_email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
