import { NewProject, Project, type ProjectId } from "@hedgerow/core"
import { ProjectRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, recordOf } from "./table.ts"

const decodeCreated = decodeOne(Project)
const decodeProject = decodeFirst(Project)
const decodeProjects = decodeRows(Project)

export const layerNoDeps = Layer.effect(
  ProjectRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(Project))
    const newColumns = sql.unsafe(columnsOf(NewProject))
    const newRecord = recordOf(sql, "projects", NewProject)

    return ProjectRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO projects (uuid, ${newColumns}) SELECT gen_random_uuid(), ${newColumns} FROM ${newRecord(input)}
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeCreated)),
      findById: (id) =>
        sql`SELECT ${columns} FROM projects WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(decodeProject)),
      findByToken: (token) =>
        sql`SELECT ${columns} FROM projects WHERE api_token = ${token}`.pipe(Effect.orDie, Effect.flatMap(decodeProject)),
      first: sql`SELECT ${columns} FROM projects ORDER BY id LIMIT 1`.pipe(Effect.orDie, Effect.flatMap(decodeProject)),
      existing: (ids) =>
        sql<{ id: ProjectId }>`SELECT id FROM projects WHERE id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie,
          Effect.map((rows) => new Set(rows.map((row) => row.id)))
        ),
      list: (filter, page) => {
        const where = filter.ids === null
          ? sql`organization_id = ANY(${filter.organizations}::uuid[])`
          : sql`organization_id = ANY(${filter.organizations}::uuid[]) AND id = ANY(${filter.ids}::integer[])`
        return pageAndTotal(
          page,
          sql`SELECT ${columns} FROM projects WHERE ${where} ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM projects WHERE ${where}`
        ).pipe(
          Effect.flatMap(({ rows, total }) =>
            Effect.map(decodeProjects(rows), (results) => ({ count: total, results, request: page })))
        )
      }
    })
  })
)
