import { OrganizationId, PersonalApiKeyId, ProjectId, UserId } from "@hedgerow/core"
import { OrganizationRemovalRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { serialIds } from "./rows.ts"
import { decodeRows } from "./table.ts"

const decodeKeys = decodeRows(Schema.Struct({
  id: PersonalApiKeyId,
  scoped_organizations: Schema.NullOr(Schema.Array(OrganizationId)),
  scoped_teams: Schema.NullOr(Schema.Array(ProjectId))
}))
const decodeProjects = decodeRows(Schema.Struct({ id: ProjectId }))
const decodeUsers = decodeRows(Schema.Struct({ id: UserId }))

export const layerNoDeps = Layer.effect(
  OrganizationRemovalRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OrganizationRemovalRepository.of({
      lock: (organization) =>
        sql`SELECT id FROM organizations WHERE id = ${organization} FOR UPDATE`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      projectsOf: (organization) =>
        sql`SELECT id FROM projects WHERE organization_id = ${organization} ORDER BY id`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeProjects),
          Effect.map((rows) => rows.map((row) => row.id))
        ),
      // Restrictions are arrays of ids, not references: nothing cascades into them.
      keysRestrictedTo: (organization, projects) =>
        sql`
          SELECT id, scoped_organizations, scoped_teams FROM personal_api_keys
          WHERE ${organization} = ANY(scoped_organizations) OR scoped_teams && ${serialIds(projects)}::integer[]
          ORDER BY id`.pipe(Effect.orDie, Effect.flatMap(decodeKeys)),
      restrictKey: (key) =>
        sql`
          UPDATE personal_api_keys
          SET scoped_organizations = ${key.scoped_organizations}::uuid[], scoped_teams = ${key.scoped_teams}::integer[]
          WHERE id = ${key.id}`.pipe(Effect.orDie, Effect.asVoid),
      revokeKeys: (ids) =>
        ids.length === 0
          ? Effect.void
          : sql`DELETE FROM personal_api_keys WHERE id = ANY(${ids}::uuid[])`.pipe(Effect.orDie, Effect.asVoid),
      // The outbox names invites by id as text, not by reference, so their messages are deleted first. The
      // organization's own rows cascade from it: members, projects (their flags, grants, dashboards,
      // cohorts, activity, batch exports), roles, invites, domains. Users' pointers to it or its
      // projects are set null by their foreign keys.
      remove: (organization) =>
        Effect.gen(function*() {
          const pointed = yield* sql`SELECT id FROM users WHERE current_organization_id = ${organization} ORDER BY id`.pipe(
            Effect.flatMap(decodeUsers)
          )
          yield* sql`
            DELETE FROM email_outbox WHERE kind = 'invite'
              AND related_id IN (SELECT id::text FROM invites WHERE organization_id = ${organization})`
          yield* sql`DELETE FROM organizations WHERE id = ${organization}`
          return pointed.map((row) => row.id)
        }).pipe(Effect.orDie)
    })
  })
)
