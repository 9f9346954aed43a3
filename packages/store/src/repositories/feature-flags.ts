import { FeatureFlagRecord, StoredFeatureFlag, UserSummary } from "@hedgerow/core"
import { FeatureFlagRepository, FlagInsert, FlagKeyTaken, FlagRef, FlagUpdate } from "@hedgerow/core/ports"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { serialIds } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, objectOf, valuesOf } from "./table.ts"

/** A flag row is core's stored flag: its columns, and the creator and last modifier as JSON objects. */
const decodeFlags = decodeRows(StoredFeatureFlag)
const decodeFlag = decodeFirst(StoredFeatureFlag)
const decodeOnlyFlag = decodeOne(StoredFeatureFlag)
const FLAG_SELECT = `${columnsOf(FeatureFlagRecord, "f")},
  ${objectOf(UserSummary, "c")} AS created_by, ${objectOf(UserSummary, "m")} AS last_modified_by`
const FLAG_JOINS = "LEFT JOIN users c ON c.id = f.created_by_id LEFT JOIN users m ON m.id = f.last_modified_by_id"

const decodeRefs = decodeRows(FlagRef)
const KeyHolder = Schema.Struct(Struct.pick(FeatureFlagRecord.fields, ["id", "key", "deleted"]))
const decodeKeyHolder = decodeFirst(KeyHolder)
/** What dependency checks read of a flag. */
const DependencyNode = Schema.Struct(Struct.pick(FeatureFlagRecord.fields, ["id", "key", "active", "filters"]))
const decodeDependencyNodes = decodeRows(DependencyNode)

/** `%`, `_` and `\` are literal in a search: escaped for LIKE's default escape character. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const isKeyConflict = (error: unknown) => SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

export const layerNoDeps = Layer.effect(
  FeatureFlagRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.unsafe(FLAG_SELECT)
    const joins = sql.unsafe(FLAG_JOINS)
    const holderColumns = sql.unsafe(columnsOf(KeyHolder))
    const nodeColumns = sql.unsafe(columnsOf(DependencyNode))
    const refColumns = sql.unsafe(columnsOf(FlagRef))

    const insertColumns = sql.unsafe(columnsOf(FlagInsert))
    const insertValues = valuesOf(sql, "feature_flags", FlagInsert)
    const updateColumns = sql.unsafe(columnsOf(FlagUpdate))
    const updateValues = valuesOf(sql, "feature_flags", FlagUpdate)

    return FeatureFlagRepository.of({
      // A racing writer that took the key meanwhile makes the insert a no-op, reported as the taken key.
      insert: (input) =>
        sql`
          WITH f AS (
            INSERT INTO feature_flags (${insertColumns}) ${insertValues(input)}
            ON CONFLICT (project_id, key) DO NOTHING
            RETURNING *
          )
          SELECT ${select} FROM f ${joins}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeFlag),
          Effect.flatMap(Option.match({ onNone: () => Effect.fail(new FlagKeyTaken()), onSome: Effect.succeed }))
        ),
      update: (id, input) =>
        sql`
          WITH f AS (
            UPDATE feature_flags SET (${updateColumns}) = (${updateValues(input)}), updated_at = now()
            WHERE id = ${id}
            RETURNING *
          )
          SELECT ${select} FROM f ${joins}`.pipe(
          Effect.catchIf(isKeyConflict, () => Effect.fail(new FlagKeyTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.flatMap(decodeOnlyFlag)
        ),
      setUsageDashboard: (id, dashboard) =>
        sql`UPDATE feature_flags SET usage_dashboard_id = ${dashboard} WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      find: (project, id) =>
        sql`SELECT ${select} FROM feature_flags f ${joins} WHERE f.id = ${id} AND f.project_id = ${project}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeFlag)
        ),
      lock: (project, id) =>
        sql`
          SELECT ${select} FROM feature_flags f ${joins} WHERE f.id = ${id} AND f.project_id = ${project}
          FOR UPDATE OF f`.pipe(Effect.orDie, Effect.flatMap(decodeFlag)),
      holderOfKey: (project, key) =>
        sql`SELECT ${holderColumns} FROM feature_flags WHERE project_id = ${project} AND key = ${key}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeKeyHolder)
        ),
      // Only while still deleted: a flag restored by a concurrent transaction keeps its key, and the caller's
      // own write of that key then meets the unique constraint (FlagKeyTaken) instead of hiding a live flag.
      renameKey: (id, key) => sql`UPDATE feature_flags SET key = ${key} WHERE id = ${id} AND deleted`.pipe(Effect.orDie, Effect.asVoid),
      list: (filter, page) => {
        const clauses = [sql`f.project_id = ${filter.project_id}`, sql`NOT f.deleted`]
        if (filter.search !== null) {
          const pattern = containsPattern(filter.search)
          clauses.push(sql`(f.key || ' ' || f.name) ILIKE ${pattern} AND (f.key ILIKE ${pattern} OR f.name ILIKE ${pattern})`)
        }
        if (filter.multivariate !== null) clauses.push(sql`f.is_multivariate = ${filter.multivariate}`)
        if (filter.remoteConfiguration !== null) clauses.push(sql`f.is_remote_configuration = ${filter.remoteConfiguration}`)
        if (filter.evaluation_runtime !== null) clauses.push(sql`f.evaluation_runtime = ${filter.evaluation_runtime}`)
        if (filter.excludedKeys !== null) clauses.push(sql`f.key <> ALL(${filter.excludedKeys}::text[])`)
        if (filter.active !== null) clauses.push(sql`f.active = ${filter.active}`)
        if (filter.staleBefore !== null) {
          clauses.push(sql`f.active AND f.fully_rolled_out AND f.created_at < ${filter.staleBefore}::timestamptz`)
        }
        if (filter.created_by_id !== null) clauses.push(sql`f.created_by_id = ${filter.created_by_id}`)
        if (filter.tags !== null) clauses.push(sql`f.tags && ${filter.tags}::text[]`)
        const where = sql.and(clauses)
        // The field comes from core's fixed list, never from the request text itself.
        const direction = filter.order.descending ? "DESC" : "ASC"
        const order = sql.unsafe(`f.${filter.order.field} ${direction}, f.id ${direction}`)
        return pageAndTotal(
          page,
          sql`
            SELECT ${select} FROM feature_flags f ${joins} WHERE ${where}
            ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM feature_flags f WHERE ${where}`
        ).pipe(Effect.flatMap(({ rows, total }) =>
          decodeFlags(rows).pipe(Effect.map((results) => ({ count: total, results, request: page })))
        ))
      },
      dependencyNodes: (project, ids) =>
        sql`
          SELECT ${nodeColumns} FROM feature_flags
          WHERE project_id = ${project} AND NOT deleted AND id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDependencyNodes)
        ),
      dependents: (project, id) =>
        sql`
          SELECT ${refColumns} FROM feature_flags
          WHERE project_id = ${project} AND NOT deleted AND active AND id <> ${id} AND depends_on @> ARRAY[${id}]::integer[]
          ORDER BY key`.pipe(Effect.orDie, Effect.flatMap(decodeRefs)),
      disabledAmong: (project, ids) =>
        sql`
          SELECT ${refColumns} FROM feature_flags
          WHERE project_id = ${project} AND NOT deleted AND NOT active AND id = ANY(${serialIds(ids)}::integer[])
          ORDER BY key`.pipe(Effect.orDie, Effect.flatMap(decodeRefs))
    })
  })
)
