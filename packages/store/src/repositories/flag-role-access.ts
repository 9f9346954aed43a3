import { type FeatureFlagId, FlagRoleAccessRepository, type RoleAccessId, type RoleAccessRecord, RoleAccessTaken } from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ts } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"

interface GrantRow {
  readonly id: number
  readonly feature_flag_id: number
  readonly role_id: string
  readonly added_at: Date | string
  readonly updated_at: Date | string
}

const toGrant = (row: GrantRow): RoleAccessRecord => ({
  id: row.id as RoleAccessId,
  feature_flag_id: row.feature_flag_id as FeatureFlagId,
  role_id: row.role_id,
  added_at: ts(row.added_at),
  updated_at: ts(row.updated_at)
})

export const FlagRoleAccessRepositoryLive = Layer.effect(
  FlagRoleAccessRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return FlagRoleAccessRepository.of({
      list: (flag, page) =>
        pageAndTotal(
          page,
          sql<GrantRow>`
            SELECT * FROM feature_flag_role_access WHERE feature_flag_id = ${flag}
            ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM feature_flag_role_access WHERE feature_flag_id = ${flag}`
        ).pipe(Effect.map(({ rows, total }) => ({ count: total, results: rows.map(toGrant), request: page }))),
      find: (flag, id) =>
        sql<GrantRow>`SELECT * FROM feature_flag_role_access WHERE id = ${id} AND feature_flag_id = ${flag}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map(toGrant)))
        ),
      insert: (flag, role) =>
        sql<GrantRow>`
          INSERT INTO feature_flag_role_access (feature_flag_id, role_id) VALUES (${flag}, ${role})
          ON CONFLICT (feature_flag_id, role_id) DO NOTHING RETURNING *`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => rows.length === 0 ? Effect.fail(new RoleAccessTaken()) : Effect.succeed(toGrant(rows[0]!)))
        ),
      remove: (id) => sql`DELETE FROM feature_flag_role_access WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
