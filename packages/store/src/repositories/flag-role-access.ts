import { FlagRoleAccessRecord } from "@hedgerow/core"
import { FlagRoleAccessRepository, FlagRoleAccessTaken } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { columnsOf, decodeFirst, decodeRows } from "./table.ts"

/** A grant as the table holds it: core's FlagRoleAccessRecord is the row. */
const decodeGrants = decodeRows(FlagRoleAccessRecord)
const decodeGrant = decodeFirst(FlagRoleAccessRecord)

export const layerNoDeps = Layer.effect(
  FlagRoleAccessRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const columns = sql.unsafe(columnsOf(FlagRoleAccessRecord))
    return FlagRoleAccessRepository.of({
      list: (flag, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${columns} FROM feature_flag_role_access WHERE feature_flag_id = ${flag}
            ORDER BY id LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM feature_flag_role_access WHERE feature_flag_id = ${flag}`
        ).pipe(Effect.flatMap(({ rows, total }) =>
          decodeGrants(rows).pipe(Effect.map((results) => ({ count: total, results, request: page })))
        )),
      find: (flag, id) =>
        sql`SELECT ${columns} FROM feature_flag_role_access WHERE id = ${id} AND feature_flag_id = ${flag}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeGrant)
        ),
      insert: (flag, role) =>
        sql`
          INSERT INTO feature_flag_role_access (feature_flag_id, role_id) VALUES (${flag}, ${role})
          ON CONFLICT (feature_flag_id, role_id) DO NOTHING RETURNING ${columns}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeGrant),
          Effect.flatMap(Effect.fromOption),
          Effect.catchTag("NoSuchElementError", () => Effect.fail(new FlagRoleAccessTaken()))
        ),
      remove: (id) => sql`DELETE FROM feature_flag_role_access WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid)
    })
  })
)
