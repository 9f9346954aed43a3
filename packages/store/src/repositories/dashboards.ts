import { type Dashboard, type DashboardId, DashboardRepository, type ProjectId, type UserId } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { json, serialIds, ts } from "./rows.ts"

interface DashboardRow {
  readonly id: number
  readonly project_id: number
  readonly name: string
  readonly description: string
  readonly creation_mode: string
  readonly tiles: unknown
  readonly created_by_id: number | null
  readonly created_at: Date | string
  readonly deleted: boolean
}

const toDashboard = (row: DashboardRow): Dashboard => ({
  id: row.id as DashboardId,
  project_id: row.project_id as ProjectId,
  name: row.name,
  description: row.description,
  creation_mode: row.creation_mode as Dashboard["creation_mode"],
  tiles: row.tiles,
  created_by_id: row.created_by_id as UserId | null,
  created_at: ts(row.created_at),
  deleted: row.deleted
})

export const DashboardRepositoryLive = Layer.effect(
  DashboardRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return DashboardRepository.of({
      insert: (input) =>
        sql<DashboardRow>`
          INSERT INTO dashboards (project_id, name, description, creation_mode, tiles, created_by_id)
          VALUES (${input.project_id}, ${input.name}, ${input.description}, ${input.creation_mode},
            ${json(input.tiles)}::jsonb, ${input.created_by_id})
          RETURNING *`.pipe(Effect.orDie, Effect.map((rows) => toDashboard(rows[0]!))),
      find: (project, id) =>
        sql<DashboardRow>`SELECT * FROM dashboards WHERE id = ${id} AND project_id = ${project}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toDashboard)))
        ),
      existing: (project, ids) =>
        sql<{ id: number }>`
          SELECT id FROM dashboards
          WHERE project_id = ${project} AND NOT deleted AND id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((row) => row.id as DashboardId))
        ),
      setTiles: (id, tiles) =>
        sql`UPDATE dashboards SET tiles = ${json(tiles)}::jsonb WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
