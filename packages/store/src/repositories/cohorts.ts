import { Cohort, CohortBrief, FlagNode, StoredCohort, UserSummary } from "@hedgerow/core"
import { CohortInsert, CohortRepository, CohortUpdate } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { pageAndTotal } from "./paging.ts"
import { serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, objectOf, valuesOf } from "./table.ts"

/** A cohort row is core's stored cohort: its columns, and its creator as a JSON object. */
const decodeStored = decodeOne(StoredCohort)
const decodeFirstStored = decodeFirst(StoredCohort)
const decodeStoredRows = decodeRows(StoredCohort)
const COHORT_SELECT = `${columnsOf(Cohort, "c")}, ${objectOf(UserSummary, "u")} AS created_by`
const decodeBriefs = decodeRows(CohortBrief)
const decodeCohorts = decodeRows(Cohort)
const decodeFlagNodes = decodeRows(FlagNode)

/**
 * Members written per statement: each one a slice of the transaction, however long the list, and the
 * event loop is let go between two (the embedded store writes on the loop's own thread).
 */
const MEMBER_BATCH = 500

export const layerNoDeps = Layer.effect(
  CohortRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.unsafe(COHORT_SELECT)
    const insertColumns = sql.unsafe(columnsOf(CohortInsert))
    const insertValues = valuesOf(sql, "cohorts", CohortInsert)
    const updateColumns = sql.unsafe(columnsOf(CohortUpdate))
    const updateValues = valuesOf(sql, "cohorts", CohortUpdate)
    const briefColumns = sql.unsafe(columnsOf(CohortBrief))
    const cohortColumns = sql.unsafe(columnsOf(Cohort))
    const flagNodeColumns = sql.unsafe(columnsOf(FlagNode))
    const withCreator = (from: string) => sql.unsafe(`${from} c LEFT JOIN users u ON u.id = c.created_by_id`)

    /** `count` as the cohort's kind has it. */
    const recount = (cohort: number) =>
      sql`
        UPDATE cohorts SET count = CASE WHEN is_static
          THEN (SELECT count(*)::integer FROM cohort_members WHERE cohort_id = ${cohort}) ELSE NULL END
        WHERE id = ${cohort}`.pipe(Effect.orDie, Effect.asVoid)

    return CohortRepository.of({
      insert: (input) =>
        sql`
          WITH c AS (INSERT INTO cohorts (${insertColumns}) ${insertValues(input)} RETURNING *)
          SELECT ${select} FROM ${withCreator("c")}`.pipe(Effect.orDie, Effect.flatMap(decodeStored)),
      find: (project, id) =>
        sql`SELECT ${select} FROM ${withCreator("cohorts")} WHERE c.project_id = ${project} AND c.id = ${id}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeFirstStored)
        ),
      lock: (project, id) =>
        sql`
          WITH c AS (SELECT * FROM cohorts WHERE project_id = ${project} AND id = ${id} FOR UPDATE)
          SELECT ${select} FROM ${withCreator("c")}`.pipe(Effect.orDie, Effect.flatMap(decodeFirstStored)),
      update: (id, change) =>
        sql`
          WITH c AS (UPDATE cohorts SET (${updateColumns}) = (${updateValues(change)}) WHERE id = ${id} RETURNING *)
          SELECT ${select} FROM ${withCreator("c")}`.pipe(Effect.orDie, Effect.flatMap(decodeStored)),
      list: (project, filter, page) => {
        const conditions = [sql`c.project_id = ${project}`, sql`NOT c.deleted`]
        if (filter.is_static !== undefined) conditions.push(sql`c.is_static = ${filter.is_static}`)
        if (filter.created_by_id !== undefined) conditions.push(sql`c.created_by_id = ${filter.created_by_id}`)
        // A plain substring test: no pattern characters to escape.
        if (filter.search !== undefined) conditions.push(sql`strpos(lower(coalesce(c.name, '')), lower(${filter.search})) > 0`)
        if (filter.excluded !== undefined && filter.excluded.length > 0) {
          conditions.push(sql`NOT (c.id = ANY(${serialIds(filter.excluded)}::integer[]))`)
        }
        const where = sql.and(conditions)
        return pageAndTotal(
          page,
          sql`
            SELECT ${select} FROM ${withCreator("cohorts")} WHERE ${where}
            ORDER BY c.created_at DESC, c.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM cohorts c WHERE ${where}`
        ).pipe(Effect.flatMap(({ rows, total }) =>
          Effect.map(decodeStoredRows(rows), (results) => ({ count: total, results, request: page }))
        ))
      },
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
        ),
      everyBrief: (project) =>
        sql`SELECT ${briefColumns} FROM cohorts WHERE project_id = ${project} ORDER BY id`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeBriefs)
        ),
      flagsNamingCohorts: (project) =>
        // The text test only narrows: core reads each flag's conditions for the cohorts they name.
        sql`
          SELECT ${flagNodeColumns} FROM feature_flags
          WHERE project_id = ${project} AND strpos(filters::text, '"cohort"') > 0
          ORDER BY id`.pipe(Effect.orDie, Effect.flatMap(decodeFlagNodes)),
      addMembers: (cohort, distinctIds) =>
        Effect.gen(function*() {
          for (let start = 0; start < distinctIds.length; start += MEMBER_BATCH) {
            const batch = distinctIds.slice(start, start + MEMBER_BATCH)
            yield* sql`
              INSERT INTO cohort_members (cohort_id, distinct_id)
              SELECT ${cohort}, unnest(${batch}::text[])
              ON CONFLICT DO NOTHING`.pipe(Effect.orDie)
            yield* Effect.yieldNow
          }
          yield* recount(cohort)
        }),
      removeMember: (cohort, distinctId) =>
        sql`DELETE FROM cohort_members WHERE cohort_id = ${cohort} AND distinct_id = ${distinctId}`.pipe(
          Effect.orDie,
          Effect.andThen(recount(cohort))
        ),
      recount,
      members: (cohort, page) =>
        sql<{ distinct_id: string }>`
          SELECT distinct_id FROM cohort_members WHERE cohort_id = ${cohort}
          ORDER BY distinct_id COLLATE "C" LIMIT ${page.limit} OFFSET ${page.offset}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((row) => row.distinct_id))
        ),
      memberships: (distinctId, cohorts) =>
        cohorts.length === 0 ? Effect.succeed([]) : sql<{ cohort_id: number }>`
          SELECT cohort_id FROM cohort_members
          WHERE cohort_id = ANY(${serialIds(cohorts)}::integer[]) AND distinct_id = ${distinctId}`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map((row) => row.cohort_id))
        )
    })
  })
)
