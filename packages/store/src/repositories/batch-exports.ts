import { BatchExport } from "@hedgerow/core"
import { BatchExportRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst, decodeOne } from "./table.ts"

const decodeCreated = decodeOne(BatchExport)
const decodeBatchExport = decodeFirst(BatchExport)

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
