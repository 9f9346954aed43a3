import { FlagRecord, StoredFlag, UserSummary } from "@hedgerow/core"
import { ActivityInsert, DashboardInsert, FlagInsert, FlagKeyTaken, FlagRef, FlagRepository, FlagUpdate } from "@hedgerow/core/ports"
import { Effect, Layer, Option, Schema, Struct } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { writeBatcher } from "../sql/write-batcher.ts"
import { decodedPage, pageAndTotal } from "./paging.ts"
import { inTransaction, isUniqueViolation, json, serialIds } from "./rows.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows, objectOf, recordOf, valuesOf } from "./table.ts"

/** A flag row is core's stored flag: its columns, and the creator and last modifier as JSON objects. */
const decodeFlags = decodeRows(StoredFlag)
const decodeFlag = decodeFirst(StoredFlag)
const decodeOnlyFlag = decodeOne(StoredFlag)
const FLAG_SELECT = `${columnsOf(FlagRecord, "f")},
  ${objectOf(UserSummary, "c")} AS created_by, ${objectOf(UserSummary, "m")} AS last_modified_by`
const FLAG_JOINS = "LEFT JOIN users c ON c.id = f.created_by_id LEFT JOIN users m ON m.id = f.last_modified_by_id"

const decodeRefs = decodeRows(FlagRef)
const KeyHolder = Schema.Struct(Struct.pick(FlagRecord.fields, ["id", "key", "deleted"]))
const decodeKeyHolder = decodeFirst(KeyHolder)
/** What dependency checks read of a flag. */
const DependencyNode = Schema.Struct(Struct.pick(FlagRecord.fields, ["id", "key", "active", "filters"]))
const decodeDependencyNodes = decodeRows(DependencyNode)

interface NewFlag {
  readonly flag: FlagInsert
  readonly usageDashboard: DashboardInsert | null
  readonly entry: ActivityInsert
}
interface UnchangedUpdate {
  readonly read: StoredFlag
  readonly input: FlagUpdate
  readonly entries: ReadonlyArray<ActivityInsert>
}

/** A write's statement for any number of items, and the same write joining whoever else is waiting. */
interface Batched<I, O> {
  readonly write: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>>
  readonly batched: (item: I) => Effect.Effect<O>
}
/** The most writes one statement takes: past a few dozen, a longer statement saves nothing more per row. */
const MAX_BATCH = 64

const batched = <I, O>(write: Batched<I, O>["write"], keyOf?: (item: I) => unknown) =>
  Effect.map(writeBatcher({ maxItems: MAX_BATCH, write, ...(keyOf === undefined ? {} : { keyOf }) }), (batched): Batched<I, O> => ({ write, batched }))

/** Rows of a project's live flags read at a time. */
const LIVE_BATCH = 1000

export const layerNoDeps = Layer.effect(
  FlagRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.unsafe(FLAG_SELECT)
    const joins = sql.unsafe(FLAG_JOINS)
    const holderColumns = sql.unsafe(columnsOf(KeyHolder))
    const nodeColumns = sql.unsafe(columnsOf(DependencyNode))
    const refColumns = sql.unsafe(columnsOf(FlagRef))
    const fetchLive = sql`FETCH ${sql.unsafe(String(LIVE_BATCH))} FROM live_flags`

    const insertColumns = sql.unsafe(columnsOf(FlagInsert))
    const insertValues = valuesOf(sql, "feature_flags", FlagInsert)
    const updateColumns = sql.unsafe(columnsOf(FlagUpdate))
    const updateValues = valuesOf(sql, "feature_flags", FlagUpdate)
    const insertFields = sql.unsafe(columnsOf(FlagInsert, "r"))
    const dashboardColumns = sql.unsafe(columnsOf(DashboardInsert))
    const dashboardFields = sql.unsafe(columnsOf(DashboardInsert, "r"))
    const entryColumns = sql.unsafe(columnsOf(ActivityInsert))
    const entryValues = sql.unsafe(columnsOf(ActivityInsert, "e"))
    const entryRecord = recordOf(sql, "activity_log", ActivityInsert)
    /** The entry's columns but its item, which a new flag's statement fills in with the flag's id. */
    const ItemlessEntry = Schema.Struct(Struct.omit(ActivityInsert.fields, ["item_id", "detail"]))
    const itemlessColumns = sql.unsafe(columnsOf(ItemlessEntry))
    const itemlessValues = sql.unsafe(columnsOf(ItemlessEntry, "e"))

    const inside = inTransaction(sql)
    /**
     * A write made outside a transaction joins the others waiting for the database (write-batcher.ts);
     * inside one it runs on the transaction's connection, alone.
     */
    const written = <I, O>(kind: Batched<I, O>, item: I) =>
      Effect.flatMap(inside, (yes) => yes ? Effect.map(kind.write([item]), (answers) => answers[0]!) : kind.batched(item))

    const encodeFlag = Schema.encodeSync(FlagInsert)
    const encodeDashboard = Schema.encodeSync(DashboardInsert)
    const encodeEntry = Schema.encodeSync(ActivityInsert)
    const encodeUpdate = Schema.encodeSync(FlagUpdate)
    /** The flags a statement returned, in the order of its items (`n`, from 1); none where it wrote nothing. */
    const byItem = (count: number) => (rows: ReadonlyArray<{ readonly n: number | string }>) =>
      Effect.map(decodeFlags(rows), (flags) => {
        const answers = Array.from({ length: count }, () => Option.none<StoredFlag>())
        rows.forEach((row, i) => answers[Number(row.n) - 1] = Option.some(flags[i]!))
        return answers
      })

    // New flags with their dashboards and entries. The ids are drawn first, so that each item's rows find
    // one another; a key another flag holds leaves that item out, and it alone is answered none: a key held
    // before its ids are drawn (so that a refused create spends no id, as PostHog refuses a held key before
    // it inserts anything), one taken meanwhile or earlier in the statement by ON CONFLICT.
    const creates = yield* batched((items: ReadonlyArray<NewFlag>) =>
      sql<{ readonly n: number }>`
        WITH input AS (
          SELECT x.n, x.item, nextval(pg_get_serial_sequence('feature_flags', 'id')) AS flag_id,
            CASE WHEN x.item->'dashboard' = 'null'::jsonb THEN NULL ELSE nextval(pg_get_serial_sequence('dashboards', 'id')) END AS dashboard_id
          FROM jsonb_array_elements(${json(items.map((item) => ({
            flag: encodeFlag(item.flag),
            dashboard: item.usageDashboard === null ? null : encodeDashboard(item.usageDashboard),
            entry: encodeEntry(item.entry)
          })))}::jsonb) WITH ORDINALITY x(item, n)
          WHERE NOT EXISTS (
            SELECT FROM feature_flags h WHERE h.project_id = (x.item->'flag'->>'project_id')::integer AND h.key = x.item->'flag'->>'key'
          )
        ), f AS (
          INSERT INTO feature_flags (id, ${insertColumns}, usage_dashboard_id)
          SELECT i.flag_id, ${insertFields}, i.dashboard_id FROM input i, jsonb_populate_record(NULL::feature_flags, i.item->'flag') r
          ORDER BY i.n
          ON CONFLICT (project_id, key) DO NOTHING
          RETURNING *
        ), d AS (
          INSERT INTO dashboards (id, ${dashboardColumns})
          SELECT i.dashboard_id, ${dashboardFields} FROM f JOIN input i ON i.flag_id = f.id, jsonb_populate_record(NULL::dashboards, i.item->'dashboard') r
          WHERE i.dashboard_id IS NOT NULL
        ), a AS (
          INSERT INTO activity_log (id, ${itemlessColumns}, item_id, detail)
          SELECT gen_random_uuid(), ${itemlessValues}, f.id::text, jsonb_set(e.detail, '{id}', to_jsonb(f.id::text))
          FROM f JOIN input i ON i.flag_id = f.id, jsonb_populate_record(NULL::activity_log, i.item->'entry') e
        )
        SELECT ${select}, i.n FROM f JOIN input i ON i.flag_id = f.id ${joins}`.pipe(Effect.orDie, Effect.flatMap(byItem(items.length))))

    // Changes written against the flags as read, each only while its row still is (version, key, dashboard).
    const updates = yield* batched((items: ReadonlyArray<UnchangedUpdate>) =>
      sql<{ readonly n: number }>`
        WITH input AS (
          SELECT x.n, x.item FROM jsonb_array_elements(${json(items.map(({ entries, input, read }) => ({
            id: read.id,
            version: read.version,
            key: read.key,
            usage_dashboard_id: read.usage_dashboard_id,
            columns: encodeUpdate(input),
            entries: entries.map((entry) => encodeEntry(entry))
          })))}::jsonb) WITH ORDINALITY x(item, n)
        ), f AS (
          UPDATE feature_flags t
          SET (${updateColumns}) = (SELECT ${updateColumns} FROM jsonb_populate_record(NULL::feature_flags, i.item->'columns')), updated_at = now()
          FROM input i
          WHERE t.id = (i.item->>'id')::integer AND t.version = (i.item->>'version')::integer AND t.key = i.item->>'key'
            AND t.usage_dashboard_id IS NOT DISTINCT FROM (i.item->>'usage_dashboard_id')::integer
          RETURNING t.*, i.n, i.item->'entries' AS entries
        ), a AS (
          -- A microsecond apart, so that the log lists the changes in the order they were made.
          INSERT INTO activity_log (id, ${entryColumns}, created_at)
          SELECT gen_random_uuid(), ${entryValues}, now() + (x.k - 1) * interval '1 microsecond'
          FROM f, jsonb_array_elements(f.entries) WITH ORDINALITY x(entry, k), jsonb_populate_record(NULL::activity_log, x.entry) e
        )
        SELECT ${select}, f.n FROM f ${joins}`.pipe(Effect.orDie, Effect.flatMap(byItem(items.length))), (item) => item.read.id)

    return FlagRepository.of({
      create: (flag, usageDashboard, entry) =>
        Effect.flatMap(written(creates, { flag, usageDashboard, entry }), Option.match({
          onNone: () => Effect.fail(new FlagKeyTaken()),
          onSome: Effect.succeed
        })),
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
          Effect.catchIf(isUniqueViolation, () => Effect.fail(new FlagKeyTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.flatMap(decodeOnlyFlag)
        ),
      updateUnchanged: (read, input, entries) => written(updates, { read, input, entries }),
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
      // Through a cursor, a batch at a time, in one transaction (one snapshot): the driver's messages, its
      // rows and the decoded flags are held for one batch at once, never for the whole project, whose rows
      // would otherwise be in memory three and four times over, and the heap would keep that peak.
      deletedPage: (project, search, page) => {
        const conditions = [sql`f.project_id = ${project}`, sql`f.deleted`]
        // A plain substring test: no pattern characters to escape.
        if (search !== null) conditions.push(sql`(strpos(lower(f.key), lower(${search})) > 0 OR strpos(lower(f.name), lower(${search})) > 0)`)
        const where = sql.and(conditions)
        return pageAndTotal(
          page,
          sql`
            SELECT ${select} FROM feature_flags f ${joins} WHERE ${where}
            ORDER BY f.updated_at DESC, f.id DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM feature_flags f WHERE ${where}`
        ).pipe(Effect.flatMap(decodedPage(decodeFlags, page)))
      },
      live: (project) =>
        sql.withTransaction(Effect.gen(function*() {
          yield* sql`
            DECLARE live_flags NO SCROLL CURSOR FOR
            SELECT ${select} FROM feature_flags f ${joins}
            WHERE f.project_id = ${project} AND NOT f.deleted
            ORDER BY f.created_at DESC, f.id DESC`
          const live: Array<StoredFlag> = []
          for (;;) {
            const batch = yield* fetchLive
            for (const flag of yield* decodeFlags(batch)) live.push(flag)
            if (batch.length < LIVE_BATCH) break
          }
          yield* sql`CLOSE live_flags`
          return live
        })).pipe(Effect.orDie),
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
