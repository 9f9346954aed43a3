import { type CohortId, CohortRepository, type ProjectId, type UserId } from "@hedgerow/core"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { serialIds, ts } from "./rows.ts"
import { summaryColumns, summaryOf } from "./user-summary.ts"

interface CohortRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly description: string
  readonly groups: unknown
  readonly filters: unknown
  readonly is_static: boolean
  readonly is_calculating: boolean
  readonly count: number | null
  readonly created_by_id: number | null
  readonly created_at: Date | string
  readonly deleted: boolean
}

export const CohortRepositoryLive = Layer.effect(
  CohortRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const creator = sql.unsafe(summaryColumns("u", "u_"))
    return CohortRepository.of({
      insert: (input) =>
        sql<CohortRow>`
          WITH c AS (
            INSERT INTO cohorts (project_id, name, description, is_static, is_calculating, count, created_by_id)
            VALUES (${input.project_id}, ${input.name}, ${input.description}, ${input.is_static}, ${input.is_calculating},
              ${input.count}, ${input.created_by_id})
            RETURNING *
          )
          SELECT c.*, ${creator} FROM c LEFT JOIN users u ON u.id = c.created_by_id`.pipe(
          Effect.orDie,
          Effect.map((rows) => {
            const row = rows[0]!
            return {
              id: row.id as CohortId,
              project_id: row.project_id as ProjectId,
              name: row.name,
              description: row.description,
              groups: row.groups,
              filters: row.filters ?? null,
              is_static: row.is_static,
              is_calculating: row.is_calculating,
              count: row.count,
              created_by_id: row.created_by_id as UserId | null,
              created_at: ts(row.created_at),
              deleted: row.deleted,
              created_by: summaryOf(row as unknown as Record<string, unknown>, "u_")
            }
          })
        ),
      briefs: (project, ids) =>
        sql<{ id: number; name: string; filters: unknown; groups: unknown; deleted: boolean }>`
          SELECT id, name, filters, groups, deleted FROM cohorts
          WHERE project_id = ${project} AND id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((row) => ({ ...row, id: row.id as CohortId })))
        )
    })
  })
)
