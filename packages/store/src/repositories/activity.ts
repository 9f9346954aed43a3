import { ActivityLogView, ActivityUser } from "@hedgerow/core"
import { ActivityInsert, ActivityRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { columnsOf, decodeRows, objectOf, recordOf } from "./table.ts"

/** An entry's own columns: the view's fields but `user`, and whether the system made the change. */
const EntryColumns = Schema.Struct({
  ...Struct.omit(ActivityLogView.fields, ["user"]),
  ...Struct.pick(ActivityInsert.fields, ["is_system"])
})
/** The user who made the change, as the view names them. */
const Author = Schema.Struct(Struct.pick(ActivityUser.fields, ["first_name", "email"]))
const EntryRow = Schema.Struct({ ...EntryColumns.fields, author: Schema.NullOr(Author) })
type EntryRow = typeof EntryRow.Type

const decodeEntries = decodeRows(EntryRow)
const ENTRY_SELECT = `${columnsOf(EntryColumns, "a")}, ${objectOf(Author, "u")} AS author`

/** PostHog names the user, or marks operator changes as the system's. */
const userOf = (row: EntryRow): ActivityLogView["user"] =>
  row.author !== null
    ? row.author
    : row.is_system
    ? { first_name: "System", email: null, is_system: true }
    : null

/** The entry's fields, with `user` second as the view declares it. */
const toView = (row: EntryRow): ActivityLogView => {
  const { id, ...entry } = Struct.omit(row, ["author", "is_system"])
  return { id, user: userOf(row), ...entry }
}

export const layerNoDeps = Layer.effect(
  ActivityRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.unsafe(ENTRY_SELECT)
    const columns = sql.unsafe(columnsOf(ActivityInsert))
    const record = recordOf(sql, "activity_log", ActivityInsert)
    return ActivityRepository.of({
      insert: (entry) =>
        sql`
          INSERT INTO activity_log (id, ${columns})
          SELECT gen_random_uuid(), ${columns} FROM ${record(entry)}`.pipe(Effect.orDie, Effect.asVoid),
      page: (filter, page) => {
        const where = filter.item === null
          ? sql`a.project_id = ${filter.project_id} AND a.scope = ${filter.scope}`
          : sql`a.project_id = ${filter.project_id} AND a.scope = ${filter.scope} AND a.item_id = ${filter.item}`
        const offset = (page.page - 1) * page.limit
        return pageAndTotal(
          { limit: page.limit, offset },
          sql`
            SELECT ${select}
            FROM activity_log a LEFT JOIN users u ON u.id = a.user_id
            WHERE ${where}
            ORDER BY a.created_at DESC, a.id DESC
            LIMIT ${page.limit} OFFSET ${offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM activity_log a WHERE ${where}`
        ).pipe(Effect.flatMap(({ rows, total }) =>
          decodeEntries(rows).pipe(Effect.map((entries) => ({ total_count: total, results: entries.map(toView), request: page })))
        ))
      },
      entries: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : sql`
          SELECT ${select}
          FROM activity_log a LEFT JOIN users u ON u.id = a.user_id
          WHERE a.id IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::uuid)`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeEntries),
          Effect.map((rows) => rows.map(toView))
        )
    })
  })
)
