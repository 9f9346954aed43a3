import { type ActivityDetail, type ActivityLogId, type ActivityLogView, ActivityRepository } from "@hedgerow/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { json, ts } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"

interface EntryRow {
  readonly id: string
  readonly activity: string
  readonly scope: string
  readonly item_id: string
  readonly detail: ActivityDetail
  readonly is_system: boolean
  readonly created_at: Date | string
  readonly user_id: number | null
  readonly first_name: string | null
  readonly email: string | null
}

/** PostHog names the user, or marks operator changes as the system's. */
const userOf = (row: EntryRow): ActivityLogView["user"] =>
  row.user_id !== null
    ? { first_name: row.first_name ?? "", email: row.email }
    : row.is_system
    ? { first_name: "System", email: null, is_system: true }
    : null

const toView = (row: EntryRow): ActivityLogView => ({
  id: row.id as ActivityLogId,
  user: userOf(row),
  activity: row.activity,
  scope: row.scope,
  item_id: row.item_id,
  detail: row.detail,
  created_at: ts(row.created_at)
})

export const ActivityRepositoryLive = Layer.effect(
  ActivityRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return ActivityRepository.of({
      insert: (entry) =>
        sql`
          INSERT INTO activity_log (id, organization_id, project_id, user_id, is_system, activity, scope, item_id, detail)
          VALUES (gen_random_uuid(), ${entry.organization_id}, ${entry.project_id}, ${entry.user_id}, ${entry.is_system},
            ${entry.activity}, ${entry.scope}, ${entry.item_id}, ${json(entry.detail)}::jsonb)`.pipe(Effect.orDie, Effect.asVoid),
      page: (filter, page) => {
        const where = filter.item === null
          ? sql`a.project_id = ${filter.project_id} AND a.scope = ${filter.scope}`
          : sql`a.project_id = ${filter.project_id} AND a.scope = ${filter.scope} AND a.item_id = ${filter.item}`
        const offset = (page.page - 1) * page.limit
        return pageAndTotal(
          { limit: page.limit, offset },
          sql<EntryRow>`
            SELECT a.id, a.activity, a.scope, a.item_id, a.detail, a.is_system, a.created_at, a.user_id, u.first_name, u.email
            FROM activity_log a LEFT JOIN users u ON u.id = a.user_id
            WHERE ${where}
            ORDER BY a.created_at DESC, a.id DESC
            LIMIT ${page.limit} OFFSET ${offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM activity_log a WHERE ${where}`
        ).pipe(Effect.map(({ rows, total }) => ({ total_count: total, results: rows.map(toView), request: page })))
      }
    })
  })
)
