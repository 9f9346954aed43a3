import { BatchExport } from "@hedgerow/core"
import { BatchExportRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows } from "./table.ts"

const decodeCreated = decodeOne(BatchExport)
const decodeBatchExport = decodeFirst(BatchExport)
const decodeBatchExports = decodeRows(BatchExport)

export const layerNoDeps = Layer.effect(
  BatchExportRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(BatchExport))
    return BatchExportRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO batch_exports (id, organization_id, project_id, name, model)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.project_id}, ${input.name}, ${input.model})
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeCreated)),
      find: (organization, id) =>
        sql`
          SELECT ${columns} FROM batch_exports WHERE id = ${id} AND organization_id = ${organization} AND NOT deleted`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeBatchExport)
        ),
      // Newest first, as PostHog lists them; the id breaks ties between exports made in one transaction.
      list: (organization, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${columns} FROM batch_exports WHERE organization_id = ${organization} AND NOT deleted
            ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`
            SELECT count(*)::integer AS n FROM batch_exports WHERE organization_id = ${organization} AND NOT deleted`
        ).pipe(
          Effect.flatMap(({ rows, total }) =>
            Effect.map(decodeBatchExports(rows), (results) => ({ count: total, results, request: page })))
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
