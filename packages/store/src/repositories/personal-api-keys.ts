import {
  type MembershipLevel,
  type OrganizationId,
  type PersonalApiKey,
  type PersonalApiKeyId,
  type KeyHolder,
  PersonalApiKeyRepository,
  type ProjectId,
  type UserId
} from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts, tsOrNull } from "./rows.ts"
import { toUser } from "./users.ts"

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

/** A key row joined with its owner (user columns prefixed `u_`) and the owner's memberships. */
interface HolderRow extends KeyRow {
  readonly u_uuid: string
  readonly u_distinct_id: string
  readonly u_email: string
  readonly u_first_name: string
  readonly u_last_name: string
  readonly u_is_email_verified: boolean
  readonly u_hedgehog_config: Record<string, unknown> | null
  readonly u_role_at_organization: string | null
  readonly u_current_organization_id: string | null
  readonly u_current_project_id: number | null
  readonly u_is_active: boolean
  readonly u_last_login: Date | string | null
  readonly u_created_at: Date | string
  /** `<organization id>:<level>` pairs: one array keeps the query to one pass over memberships. */
  readonly memberships: ReadonlyArray<string>
}

const toHolder = (row: HolderRow): KeyHolder => ({
  key: toKey(row),
  user: toUser({
    id: row.user_id,
    uuid: row.u_uuid,
    distinct_id: row.u_distinct_id,
    email: row.u_email,
    first_name: row.u_first_name,
    last_name: row.u_last_name,
    is_email_verified: row.u_is_email_verified,
    hedgehog_config: row.u_hedgehog_config,
    role_at_organization: row.u_role_at_organization,
    current_organization_id: row.u_current_organization_id,
    current_project_id: row.u_current_project_id,
    is_active: row.u_is_active,
    last_login: row.u_last_login,
    created_at: row.u_created_at
  }),
  memberships: row.memberships.map((pair) => {
    const [organization_id, level] = pair.split(":")
    return { organization_id: organization_id as OrganizationId, level: Number(level) as MembershipLevel }
  })
})

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
      // Every request authenticates: key, owner and memberships come back in one round trip, as plain
      // columns (decoding JSON objects per request cost more than the query itself).
      findHolder: (secureValue) =>
        sql<HolderRow>`
          SELECT k.*, u.uuid AS u_uuid, u.distinct_id AS u_distinct_id, u.email AS u_email,
            u.first_name AS u_first_name, u.last_name AS u_last_name, u.is_email_verified AS u_is_email_verified,
            u.hedgehog_config AS u_hedgehog_config, u.role_at_organization AS u_role_at_organization,
            u.current_organization_id AS u_current_organization_id, u.current_project_id AS u_current_project_id,
            u.is_active AS u_is_active, u.last_login AS u_last_login, u.created_at AS u_created_at,
            ARRAY(SELECT m.organization_id::text || ':' || m.level FROM memberships m WHERE m.user_id = k.user_id) AS memberships
          FROM personal_api_keys k JOIN users u ON u.id = k.user_id
          WHERE k.secure_value = ${secureValue}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toHolder)))
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
