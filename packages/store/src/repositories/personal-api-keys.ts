import {
  type MembershipLevel,
  type OrganizationId,
  type PersonalApiKey,
  type PersonalApiKeyId,
  PersonalApiKeyRepository,
  type ProjectId,
  type UserId
} from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts, tsOrNull } from "./rows.ts"
import { toUser, type UserRow } from "./users.ts"

interface KeyRow {
  readonly id: string
  readonly user_id: number
  readonly label: string
  readonly secure_value: string
  readonly mask_value: string
  readonly scopes: ReadonlyArray<string>
  readonly scoped_organizations: ReadonlyArray<string> | null
  readonly scoped_teams: ReadonlyArray<number> | null
  readonly created_at: Date | string
  readonly last_used_at: Date | string | null
}

const toKey = (row: KeyRow): PersonalApiKey => ({
  id: row.id as PersonalApiKeyId,
  user_id: row.user_id as UserId,
  label: row.label,
  secure_value: row.secure_value,
  mask_value: row.mask_value,
  scopes: row.scopes,
  scoped_organizations: row.scoped_organizations as ReadonlyArray<OrganizationId> | null,
  scoped_teams: row.scoped_teams as ReadonlyArray<ProjectId> | null,
  created_at: ts(row.created_at),
  last_used_at: tsOrNull(row.last_used_at)
})

interface HolderRow {
  readonly key: KeyRow
  readonly user: UserRow
  readonly memberships: ReadonlyArray<{ organization_id: string; level: number }>
}

export const PersonalApiKeyRepositoryLive = Layer.effect(
  PersonalApiKeyRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return PersonalApiKeyRepository.of({
      insert: (input) =>
        sql<KeyRow>`
          INSERT INTO personal_api_keys (id, user_id, label, secure_value, mask_value, scopes, scoped_organizations, scoped_teams)
          VALUES (gen_random_uuid(), ${input.user_id}, ${input.label}, ${input.secure_value}, ${input.mask_value},
            ${input.scopes}::text[], ${input.scoped_organizations}::uuid[], ${input.scoped_teams}::integer[])
          RETURNING *`.pipe(Effect.orDie, Effect.map((rows) => toKey(rows[0]!))),
      // Authentication runs on every request: key, owner and memberships come back in one round trip.
      findHolder: (secureValue) =>
        sql<HolderRow>`
          SELECT to_jsonb(k) AS key, to_jsonb(u) AS user,
            COALESCE((SELECT jsonb_agg(jsonb_build_object('organization_id', m.organization_id, 'level', m.level))
                      FROM memberships m WHERE m.user_id = u.id), '[]'::jsonb) AS memberships
          FROM personal_api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.secure_value = ${secureValue}`.pipe(
          Effect.orDie,
          Effect.map((rows) =>
            Option.fromNullishOr(rows[0]).pipe(Option.map((row) => ({
              key: toKey(row.key),
              user: toUser(row.user),
              memberships: row.memberships.map((m) => ({
                organization_id: m.organization_id as OrganizationId,
                level: m.level as MembershipLevel
              }))
            })))
          )
        ),
      countForUser: (user) =>
        sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${user}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.n ?? 0)
        ),
      touch: (id, at) =>
        sql`UPDATE personal_api_keys SET last_used_at = ${at}::timestamptz WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
