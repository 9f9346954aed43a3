import { FeatureFlagRecord, StoredFeatureFlag, UserSummary } from "@hedgerow/core"
import { ActivityInsert, DashboardInsert, FeatureFlagRepository, FlagInsert, FlagKeyTaken, FlagRef, FlagUpdate } from "@hedgerow/core/ports"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, objectOf, recordOf, valuesOf } from "./table.ts"

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
    const flagRecord = recordOf(sql, "feature_flags", FlagInsert)
    const dashboardColumns = sql.unsafe(columnsOf(DashboardInsert))
    const dashboardValues = valuesOf(sql, "dashboards", DashboardInsert)
    const entryColumns = sql.unsafe(columnsOf(ActivityInsert))
    const entryValues = sql.unsafe(columnsOf(ActivityInsert, "e"))
    const entryRecord = recordOf(sql, "activity_log", ActivityInsert)
    /** The entry's columns but its item, which a new flag's statement fills in with the flag's id. */
    const ItemlessEntry = Schema.Struct(Struct.omit(ActivityInsert.fields, ["item_id", "detail"]))
    const itemlessColumns = sql.unsafe(columnsOf(ItemlessEntry))
    const itemlessValues = sql.unsafe(columnsOf(ItemlessEntry, "e"))

    return FeatureFlagRepository.of({
      // One statement, atomic by itself: a flag holding the key fails it whole, dashboard and entry included,
      // inside a transaction or not.
      create: (flag, usageDashboard, entry) =>
        sql`
          WITH d AS (
            INSERT INTO dashboards (${dashboardColumns})
            ${usageDashboard === null ? sql`SELECT ${dashboardColumns} FROM dashboards WHERE false` : dashboardValues(usageDashboard)}
            RETURNING id
          ), f AS (
            INSERT INTO feature_flags (${insertColumns}, usage_dashboard_id)
            SELECT ${insertColumns}, (SELECT id FROM d) FROM ${flagRecord(flag)}
            RETURNING *
          ), a AS (
            INSERT INTO activity_log (id, ${itemlessColumns}, item_id, detail)
            SELECT gen_random_uuid(), ${itemlessValues}, f.id::text, jsonb_set(e.detail, '{id}', to_jsonb(f.id::text))
            FROM f, ${entryRecord(entry)} e
          )
          SELECT ${select} FROM f ${joins}`.pipe(
          Effect.catchIf(isKeyConflict, () => Effect.fail(new FlagKeyTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.flatMap(decodeOnlyFlag)
        ),
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
      update: (id, input, entry) =>
        sql`
          WITH f AS (
            UPDATE feature_flags SET (${updateColumns}) = (${updateValues(input)}), updated_at = now()
            WHERE id = ${id}
            RETURNING *
          ), a AS (
            INSERT INTO activity_log (id, ${entryColumns})
            SELECT gen_random_uuid(), ${entryValues} FROM f, ${entryRecord(entry)} e
          )
          SELECT ${select} FROM f ${joins}`.pipe(
          Effect.catchIf(isKeyConflict, () => Effect.fail(new FlagKeyTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.flatMap(decodeOnlyFlag)
        ),
      updateUnchanged: (read, input, entry) =>
        sql`
          WITH f AS (
            UPDATE feature_flags SET (${updateColumns}) = (${updateValues(input)}), updated_at = now()
            WHERE id = ${read.id} AND version = ${read.version} AND key = ${read.key}
              AND usage_dashboard_id IS NOT DISTINCT FROM ${read.usage_dashboard_id}::integer
            RETURNING *
          ), a AS (
            INSERT INTO activity_log (id, ${entryColumns})
            SELECT gen_random_uuid(), ${entryValues} FROM f, ${entryRecord(entry)} e
          )
          SELECT ${select} FROM f ${joins}`.pipe(Effect.orDie, Effect.flatMap(decodeFlag)),
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
      live: (project) =>
        sql`
          SELECT ${select} FROM feature_flags f ${joins}
          WHERE f.project_id = ${project} AND NOT f.deleted
          ORDER BY f.created_at DESC, f.id DESC`.pipe(Effect.orDie, Effect.flatMap(decodeFlags)),
      among: (project, ids) =>
        sql`
          SELECT ${select} FROM feature_flags f ${joins}
          WHERE f.project_id = ${project} AND f.id = ANY(${serialIds(ids)}::integer[])`.pipe(Effect.orDie, Effect.flatMap(decodeFlags)),
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
