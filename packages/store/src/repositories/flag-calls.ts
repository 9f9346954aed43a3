import { FlagCallCount, FlagCallRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeRows } from "./table.ts"

const decodeCounts = decodeRows(FlagCallCount)

export const layerNoDeps = Layer.effect(
  FlagCallRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return FlagCallRepository.of({
      // One statement for the whole batch; a flag gone meanwhile (its organization deleted) is passed over.
      add: (increments) =>
        increments.length === 0 ? Effect.void : sql`
          INSERT INTO feature_flag_calls (flag_id, day, value, count)
          SELECT c.flag_id, c.day, c.value, c.count
          FROM unnest(${increments.map((i) => i.flag)}::integer[], ${increments.map((i) => i.day)}::date[],
                      ${increments.map((i) => i.value)}::text[], ${increments.map((i) => i.count)}::bigint[]) AS c (flag_id, day, value, count)
          WHERE EXISTS (SELECT 1 FROM feature_flags f WHERE f.id = c.flag_id)
          ON CONFLICT (flag_id, day, value) DO UPDATE SET count = feature_flag_calls.count + EXCLUDED.count`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      read: (flag, from, to) =>
        sql`
          SELECT to_char(day, 'YYYY-MM-DD') AS day, value, count::float8 AS count
          FROM feature_flag_calls WHERE flag_id = ${flag} AND day BETWEEN ${from}::date AND ${to}::date
          ORDER BY day, value`.pipe(Effect.orDie, Effect.flatMap(decodeCounts))
    })
  })
)
