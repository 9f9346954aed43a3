import { type OrganizationId, type Project, type ProjectId, ProjectRepository, type ProjectSettings } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { json, ts } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"

interface ProjectRow {
  readonly id: number
  readonly uuid: string
  readonly organization_id: string
  readonly name: string
  readonly api_token: string
  readonly ingested_event: boolean
  readonly settings: ProjectSettings
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const toProject = (row: ProjectRow): Project => ({
  id: row.id as ProjectId,
  uuid: row.uuid,
  organization_id: row.organization_id as OrganizationId,
  name: row.name,
  api_token: row.api_token,
  ingested_event: row.ingested_event,
  settings: row.settings,
  created_at: ts(row.created_at),
  updated_at: ts(row.updated_at)
})

export const ProjectRepositoryLive = Layer.effect(
  ProjectRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return ProjectRepository.of({
      insert: (input) =>
        sql<ProjectRow>`
          INSERT INTO projects (uuid, organization_id, name, api_token, settings)
          VALUES (gen_random_uuid(), ${input.organization_id}, ${input.name}, ${input.api_token}, ${json(input.settings)}::jsonb)
          RETURNING *`.pipe(Effect.orDie, Effect.map((rows) => toProject(rows[0]!))),
      findById: (id) =>
        sql<ProjectRow>`SELECT * FROM projects WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toProject)))
        ),
      list: (filter, page) => {
        const where = filter.ids === null
          ? sql`organization_id = ANY(${filter.organizations}::uuid[])`
          : sql`organization_id = ANY(${filter.organizations}::uuid[]) AND id = ANY(${filter.ids}::integer[])`
        return pageAndTotal(
          page,
          sql<ProjectRow>`SELECT * FROM projects WHERE ${where} ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM projects WHERE ${where}`
        ).pipe(Effect.map(({ rows, total }) => ({ count: total, results: rows.map(toProject), request: page })))
      }
    })
  })
)
