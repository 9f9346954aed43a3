import { InviteRecord, InviteWithCreator, NewInvite, UserSummary } from "@hedgerow/core"
import { InviteRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, objectOf, recordOf } from "./table.ts"

const decodeCreated = decodeOne(InviteRecord)
const decodeInvite = decodeFirst(InviteRecord)
const decodeInvites = decodeRows(InviteRecord)
const decodeWithCreators = decodeRows(InviteWithCreator)

/** Invite `i` and its creator `u`, each one JSON object (the creator null when there is none). */
const WITH_CREATOR = `${objectOf(InviteRecord, "i")} AS invite, ${objectOf(UserSummary, "u")} AS created_by`

export const layerNoDeps = Layer.effect(
  InviteRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(InviteRecord))
    const newColumns = sql.unsafe(columnsOf(NewInvite))
    const newRecord = recordOf(sql, "invites", NewInvite)
    const withCreator = sql.unsafe(WITH_CREATOR)

    return InviteRepository.of({
      // clock_timestamp(), not the transaction's now(): a bulk's invites are made in one transaction and
      // must still list newest first, in the order they were sent, as PostHog's one-by-one saves do. The
      // embedded store's clock only has milliseconds, so each invite is also made a microsecond after the
      // organization's newest one (invite writers of an organization take turns, so that one is settled).
      insert: (input) =>
        sql`
          INSERT INTO invites (id, ${newColumns}, created_at, updated_at)
          SELECT gen_random_uuid(), ${newColumns}, clock.at, clock.at
          FROM ${newRecord(input)}, (
            SELECT GREATEST(clock_timestamp(), max(created_at) + interval '1 microsecond') AS at
            FROM invites WHERE organization_id = ${input.organization_id}
          ) clock
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeCreated)),
      list: (organization, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${withCreator} FROM invites i LEFT JOIN users u ON u.id = i.created_by_id
            WHERE i.organization_id = ${organization}
            ORDER BY i.created_at DESC, i.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM invites WHERE organization_id = ${organization}`
        ).pipe(
          Effect.flatMap(({ rows, total }) =>
            Effect.map(decodeWithCreators(rows), (results) => ({ count: total, results, request: page })))
        ),
      findById: (id) => sql`SELECT ${columns} FROM invites WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(decodeInvite)),
      remove: (id) => sql`DELETE FROM invites WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      forEmail: (organization, email) =>
        sql`
          SELECT ${columns} FROM invites WHERE organization_id = ${organization} AND lower(target_email) = lower(${email})
          ORDER BY created_at DESC, id DESC`.pipe(Effect.orDie, Effect.flatMap(decodeInvites)),
      removeForEmail: (organization, email) =>
        sql`DELETE FROM invites WHERE organization_id = ${organization} AND lower(target_email) = lower(${email})`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
