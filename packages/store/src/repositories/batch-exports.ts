import { type BatchExport, type BatchExportId, type BatchExportModel, BatchExportRepository, type OrganizationId, type ProjectId } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts, tsOrNull } from "./rows.ts"

interface BatchExportRow {
  readonly id: string
  readonly organization_id: string
  readonly project_id: number
  readonly name: string
  readonly model: string
  readonly destination: unknown
  readonly interval: string
  readonly paused: boolean
  readonly last_paused_at: Date | string | null
  readonly start_at: Date | string | null
  readonly end_at: Date | string | null
  readonly hogql_query: string
  readonly deleted: boolean
  readonly created_at: Date | string
}

export const toBatchExport = (row: BatchExportRow): BatchExport => ({
  id: row.id as BatchExportId,
  organization_id: row.organization_id as OrganizationId,
  project_id: row.project_id as ProjectId,
  name: row.name,
  model: row.model as BatchExportModel,
  destination: row.destination,
  interval: row.interval,
  paused: row.paused,
  last_paused_at: tsOrNull(row.last_paused_at),
  start_at: tsOrNull(row.start_at),
  end_at: tsOrNull(row.end_at),
  hogql_query: row.hogql_query,
  deleted: row.deleted,
  created_at: ts(row.created_at)
})

export const BatchExportRepositoryLive = Layer.effect(
  BatchExportRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return BatchExportRepository.of({
      insert: (input) =>
        sql<BatchExportRow>`
          INSERT INTO batch_exports (id, organization_id, project_id, name, model)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.project_id}, ${input.name}, ${input.model})
          RETURNING *`.pipe(Effect.orDie, Effect.map((rows) => toBatchExport(rows[0]!))),
      find: (organization, id) =>
        sql<BatchExportRow>`
          SELECT * FROM batch_exports WHERE id = ${id} AND organization_id = ${organization} AND NOT deleted`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toBatchExport)))
        ),
      // One statement, so concurrent pauses cannot both stamp last_paused_at.
      setPaused: (organization, id, paused) =>
        sql<{ id: string }>`
          UPDATE batch_exports
          SET paused = ${paused},
            last_paused_at = CASE WHEN ${paused}::boolean AND NOT paused THEN now() ELSE last_paused_at END
          WHERE id = ${id} AND organization_id = ${organization} AND NOT deleted
          RETURNING id`.pipe(Effect.orDie, Effect.map((rows) => rows.length > 0))
    })
  })
)
