import { Organization } from "@hedgerow/core"
import { OrganizationRepository, randomBase62 } from "@hedgerow/core/ports"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { columnsOf, decodeFirst, decodeRows } from "./table.ts"

const decodeOrganization = decodeFirst(Organization)
const decodeOrganizations = decodeRows(Organization)

export const layerNoDeps = Layer.effect(
  OrganizationRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(Organization))

    // ON CONFLICT keeps a surrounding transaction alive when the slug is taken; then a suffix is tried.
    const insertWithSlug = (name: string, slug: string): Effect.Effect<Organization> =>
      sql`
        INSERT INTO organizations (id, name, slug) VALUES (gen_random_uuid(), ${name}, ${slug})
        ON CONFLICT (slug) DO NOTHING RETURNING ${columns}`.pipe(
        Effect.orDie,
        Effect.flatMap(decodeOrganization),
        Effect.flatMap(Option.match({
          onNone: () => insertWithSlug(name, `${slug.slice(0, 40)}-${randomBase62(6).toLowerCase()}`),
          onSome: Effect.succeed
        }))
      )

    return OrganizationRepository.of({
      insert: (input) => insertWithSlug(input.name, input.slug),
      findById: (id) =>
        sql`SELECT ${columns} FROM organizations WHERE id = ${id}`.pipe(Effect.orDie, Effect.flatMap(decodeOrganization)),
      // Each setting is written only when the change names it; a named enforce_2fa may be null.
      update: (id, changes) =>
        sql`
          UPDATE organizations SET
            name = CASE WHEN ${changes.name !== undefined} THEN ${changes.name ?? null}::text ELSE name END,
            enforce_2fa = CASE WHEN ${"enforce_2fa" in changes} THEN ${changes.enforce_2fa ?? null}::boolean ELSE enforce_2fa END,
            updated_at = now()
          WHERE id = ${id} RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeOrganization)
        ),
      findManyById: (ids) =>
        ids.length === 0
          ? Effect.succeed([])
          : sql`SELECT ${columns} FROM organizations WHERE id = ANY(${ids}::uuid[])`.pipe(
            Effect.orDie,
            Effect.flatMap(decodeOrganizations)
          ),
      count: sql<{ n: number }>`SELECT count(*)::integer AS n FROM organizations`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    })
  })
)
