import { Dashboard } from "@hedgerow/core"
import { DashboardInsert, DashboardRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Schema, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { json, serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, valuesOf } from "./table.ts"

/** A dashboard as the table holds it: core's Dashboard schema is the row. */
const decodeDashboard = decodeFirst(Dashboard)
const decodeInserted = decodeOne(Dashboard)
const Id = Schema.Struct(Struct.pick(Dashboard.fields, ["id"]))
const decodeIds = decodeRows(Id)

export const layerNoDeps = Layer.effect(
  DashboardRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(Dashboard))
    const insertColumns = sql.unsafe(columnsOf(DashboardInsert))
    const insertValues = valuesOf(sql, "dashboards", DashboardInsert)
    return DashboardRepository.of({
      insert: (input) =>
        sql`INSERT INTO dashboards (${insertColumns}) ${insertValues(input)} RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeInserted)
        ),
      find: (project, id) =>
        sql`SELECT ${columns} FROM dashboards WHERE id = ${id} AND project_id = ${project}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDashboard)
        ),
      existing: (project, ids) =>
        sql`
          SELECT id FROM dashboards
          WHERE project_id = ${project} AND NOT deleted AND id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeIds),
          Effect.map((rows) => rows.map((row) => row.id))
        ),
      setTiles: (id, tiles) =>
        sql`UPDATE dashboards SET tiles = ${json(tiles)}::jsonb WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
