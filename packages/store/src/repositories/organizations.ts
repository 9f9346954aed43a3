import { type Organization, type OrganizationId, OrganizationRepository, randomBase62 } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts } from "./rows.ts"

interface OrganizationRow {
  readonly id: string
  readonly name: string
  readonly slug: string
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id as OrganizationId,
  name: row.name,
  slug: row.slug,
  created_at: ts(row.created_at),
  updated_at: ts(row.updated_at)
})

export const OrganizationRepositoryLive = Layer.effect(
  OrganizationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    // ON CONFLICT keeps a surrounding transaction alive when the slug is taken; then a suffix is tried.
    const insertWithSlug = (name: string, slug: string): Effect.Effect<Organization> =>
      sql<OrganizationRow>`
        INSERT INTO organizations (id, name, slug) VALUES (gen_random_uuid(), ${name}, ${slug})
        ON CONFLICT (slug) DO NOTHING RETURNING *`.pipe(
        Effect.orDie,
        Effect.flatMap((rows) =>
          rows.length === 0
            ? insertWithSlug(name, `${slug.slice(0, 40)}-${randomBase62(6).toLowerCase()}`)
            : Effect.succeed(toOrganization(rows[0]!))
        )
      )

    return OrganizationRepository.of({
      insert: (input) => insertWithSlug(input.name, input.slug),
      findById: (id) =>
        sql<OrganizationRow>`SELECT * FROM organizations WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toOrganization)))
        ),
      findManyById: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql<OrganizationRow>`SELECT * FROM organizations WHERE id = ANY(${ids}::uuid[])`.pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map(toOrganization))
          ),
      count: sql<{ n: number }>`SELECT count(*)::integer AS n FROM organizations`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    })
  })
)
