import { GroupType } from "@hedgerow/core"
import { GroupTypeMetadata, GroupTypeRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst, decodeRows, valuesOf } from "./table.ts"

const decodeGroupTypes = decodeRows(GroupType)
const decodeGroupType = decodeFirst(GroupType)

export const layerNoDeps = Layer.effect(
  GroupTypeRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(GroupType))
    const metadataColumns = sql.unsafe(columnsOf(GroupTypeMetadata))
    const metadataValues = valuesOf(sql, "group_types", GroupTypeMetadata)
    return GroupTypeRepository.of({
      list: (project) =>
        sql`SELECT ${columns} FROM group_types WHERE project_id = ${project} ORDER BY group_type_index`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeGroupTypes)
        ),
      listForUpdate: (project) =>
        sql`SELECT ${columns} FROM group_types WHERE project_id = ${project} ORDER BY group_type_index FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeGroupTypes)
        ),
      // A free index read at the statement's start may be taken by a commit before the insert lands:
      // the primary key then refuses it quietly, and so does the name's unique index for a name taken so.
      insertAtFreeIndex: (project, name, limit) =>
        sql`
          INSERT INTO group_types (project_id, group_type_index, group_type)
          SELECT ${project}, i, ${name} FROM generate_series(0, ${limit - 1}::integer) AS i
          WHERE EXISTS (SELECT 1 FROM projects WHERE id = ${project})
            AND NOT EXISTS (SELECT 1 FROM group_types WHERE project_id = ${project} AND group_type_index = i)
          ORDER BY i LIMIT 1
          ON CONFLICT DO NOTHING
          RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeGroupType)
        ),
      update: (project, index, metadata) =>
        sql`
          UPDATE group_types SET (${metadataColumns}) = (${metadataValues(metadata)})
          WHERE project_id = ${project} AND group_type_index = ${index}
          RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeGroupType)
        ),
      delete: (project, index) =>
        sql`DELETE FROM group_types WHERE project_id = ${project} AND group_type_index = ${index} RETURNING group_type_index`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        )
    })
  })
)
