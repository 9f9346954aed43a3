import { FLAG_USAGE_CHANGES, FlagUsageRepository, StoredFlagUsage } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CHANGES_CHANNEL } from "../sql/change-feed.ts"
import { decodeRows } from "./table.ts"

const decodeUsage = decodeRows(StoredFlagUsage)

export const layerNoDeps = Layer.effect(
  FlagUsageRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const prefix = `${FLAG_USAGE_CHANGES}:`
    return FlagUsageRepository.of({
      // The row trigger is silent for these rows (migration 0005), so the statement names each project it
      // wrote; a notification is delivered at commit, as the trigger's would be. Outside a transaction on
      // purpose: a transaction makes its process forget all of its memory at commit.
      write: (ids, at) =>
        sql`
          WITH marked AS (
            UPDATE feature_flags f SET last_called_at = m.at
            FROM unnest(${ids}::integer[], ${at}::timestamptz[]) AS m (id, at)
            WHERE f.id = m.id AND (f.last_called_at IS NULL OR f.last_called_at < m.at)
            RETURNING f.project_id
          )
          SELECT pg_notify(${CHANGES_CHANNEL}, ${prefix} || project_id) FROM (SELECT DISTINCT project_id FROM marked) p`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      called: (project) =>
        sql`SELECT id, last_called_at FROM feature_flags WHERE project_id = ${project} AND last_called_at IS NOT NULL`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeUsage)
        )
    })
  })
)
