import { Cohort, StoredCohort, UserSummary } from "@hedgerow/core"
import { CohortBrief, CohortInsert, CohortRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { serialIds } from "./rows.ts"
import { columnsOf, decodeOne, decodeRows, objectOf, valuesOf } from "./table.ts"

/** A cohort row is core's stored cohort: its columns, and its creator as a JSON object. */
const decodeCreated = decodeOne(StoredCohort)
const COHORT_SELECT = `${columnsOf(Cohort, "c")}, ${objectOf(UserSummary, "u")} AS created_by`
const decodeBriefs = decodeRows(CohortBrief)
const decodeCohorts = decodeRows(Cohort)

export const layerNoDeps = Layer.effect(
  CohortRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.unsafe(COHORT_SELECT)
    const insertColumns = sql.unsafe(columnsOf(CohortInsert))
    const insertValues = valuesOf(sql, "cohorts", CohortInsert)
    const briefColumns = sql.unsafe(columnsOf(CohortBrief))
    const cohortColumns = sql.unsafe(columnsOf(Cohort))
    return CohortRepository.of({
      insert: (input) =>
        sql`
          WITH c AS (INSERT INTO cohorts (${insertColumns}) ${insertValues(input)} RETURNING *)
          SELECT ${select} FROM c LEFT JOIN users u ON u.id = c.created_by_id`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCreated)
        ),
      live: (project) =>
        sql`SELECT ${cohortColumns} FROM cohorts WHERE project_id = ${project} AND NOT deleted ORDER BY id`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeCohorts)
        ),
      briefs: (project, ids) =>
        sql`
          SELECT ${briefColumns} FROM cohorts
          WHERE project_id = ${project} AND id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeBriefs)
        )
    })
  })
)
