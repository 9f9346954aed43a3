import {
  type CreationContext,
  type DashboardId,
  type EvaluationRuntime,
  type FeatureFlagId,
  FeatureFlagRepository,
  type FlagColumns,
  FlagKeyTaken,
  type FlagRef,
  type ProjectId,
  type StoredFeatureFlag,
  type UserId
} from "@hedgerow/core"
import { Effect, Layer, Option } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { json, serialIds, ts } from "./rows.ts"
import { pageAndTotal } from "./paging.ts"
import { summaryColumns, summaryOf } from "./user-summary.ts"

interface FlagRow {
  readonly id: number
  readonly project_id: number
  readonly key: string
  readonly name: string
  readonly filters: Record<string, unknown>
  readonly deleted: boolean
  readonly active: boolean
  readonly version: number
  readonly ensure_experience_continuity: boolean
  readonly rollback_conditions: unknown
  readonly performed_rollback: boolean
  readonly tags: ReadonlyArray<string>
  readonly usage_dashboard_id: number | null
  readonly analytics_dashboards: ReadonlyArray<number>
  readonly has_enriched_analytics: boolean
  readonly is_remote_configuration: boolean
  readonly has_encrypted_payloads: boolean
  readonly evaluation_runtime: string
  readonly creation_context: string
  readonly created_by_id: number | null
  readonly last_modified_by_id: number | null
  readonly created_at: Date | string
  readonly updated_at: Date | string
}

const toFlag = (row: FlagRow): StoredFeatureFlag => ({
  id: row.id as FeatureFlagId,
  project_id: row.project_id as ProjectId,
  key: row.key,
  name: row.name,
  filters: row.filters,
  deleted: row.deleted,
  active: row.active,
  version: row.version,
  ensure_experience_continuity: row.ensure_experience_continuity,
  rollback_conditions: row.rollback_conditions ?? null,
  performed_rollback: row.performed_rollback,
  tags: row.tags,
  usage_dashboard_id: row.usage_dashboard_id as DashboardId | null,
  analytics_dashboards: row.analytics_dashboards as ReadonlyArray<DashboardId>,
  has_enriched_analytics: row.has_enriched_analytics,
  is_remote_configuration: row.is_remote_configuration,
  has_encrypted_payloads: row.has_encrypted_payloads,
  evaluation_runtime: row.evaluation_runtime as EvaluationRuntime,
  creation_context: row.creation_context as CreationContext,
  created_by_id: row.created_by_id as UserId | null,
  last_modified_by_id: row.last_modified_by_id as UserId | null,
  created_at: ts(row.created_at),
  updated_at: ts(row.updated_at),
  created_by: summaryOf(row as unknown as Record<string, unknown>, "c_"),
  last_modified_by: summaryOf(row as unknown as Record<string, unknown>, "m_")
})

/** The flag with its creator and last modifier, in one statement. */
const FLAG_SELECT = `f.id, f.project_id, f.key, f.name, f.filters, f.deleted, f.active, f.version,
  f.ensure_experience_continuity, f.rollback_conditions, f.performed_rollback, f.tags, f.usage_dashboard_id,
  f.analytics_dashboards, f.has_enriched_analytics, f.is_remote_configuration, f.has_encrypted_payloads,
  f.evaluation_runtime, f.creation_context, f.created_by_id, f.last_modified_by_id, f.created_at, f.updated_at,
  ${summaryColumns("c", "c_")}, ${summaryColumns("m", "m_")}`
const FLAG_JOINS = "LEFT JOIN users c ON c.id = f.created_by_id LEFT JOIN users m ON m.id = f.last_modified_by_id"

/** `%`, `_` and `\` are literal in a search: escaped for LIKE's default escape character. */
const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

const isKeyConflict = (error: unknown) => SqlError.isSqlError(error) && error.reason._tag === "UniqueViolation"

export const FeatureFlagRepositoryLive = Layer.effect(
  FeatureFlagRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const select = sql.unsafe(FLAG_SELECT)
    const joins = sql.unsafe(FLAG_JOINS)

    const first = (rows: ReadonlyArray<FlagRow>) => Option.fromNullishOr(rows[0]).pipe(Option.map(toFlag))

    const columns = (input: FlagColumns) => ({
      key: input.key,
      name: input.name,
      filters: json(input.filters),
      deleted: input.deleted,
      active: input.active,
      ensure_experience_continuity: input.ensure_experience_continuity,
      rollback_conditions: json(input.rollback_conditions),
      performed_rollback: input.performed_rollback,
      tags: input.tags,
      analytics_dashboards: input.analytics_dashboards,
      has_enriched_analytics: input.has_enriched_analytics,
      is_remote_configuration: input.is_remote_configuration,
      has_encrypted_payloads: input.has_encrypted_payloads,
      evaluation_runtime: input.evaluation_runtime,
      last_modified_by_id: input.last_modified_by_id,
      is_multivariate: input.is_multivariate,
      fully_rolled_out: input.fully_rolled_out,
      depends_on: input.depends_on
    })

    const refs = (rows: ReadonlyArray<{ id: number; key: string }>): ReadonlyArray<FlagRef> =>
      rows.map((row) => ({ id: row.id as FeatureFlagId, key: row.key }))

    return FeatureFlagRepository.of({
      insert: (input) => {
        const c = columns(input)
        // A racing writer that took the key meanwhile makes the insert a no-op, reported as the taken key.
        return sql<FlagRow>`
          WITH f AS (
            INSERT INTO feature_flags (project_id, key, name, filters, deleted, active, version,
              ensure_experience_continuity, rollback_conditions, performed_rollback, tags, analytics_dashboards,
              has_enriched_analytics, is_remote_configuration, has_encrypted_payloads, evaluation_runtime,
              creation_context, created_by_id, last_modified_by_id, is_multivariate, fully_rolled_out, depends_on)
            VALUES (${input.project_id}, ${c.key}, ${c.name}, ${c.filters}::jsonb, ${c.deleted}, ${c.active}, 1,
              ${c.ensure_experience_continuity}, ${c.rollback_conditions}::jsonb, ${c.performed_rollback},
              ${c.tags}::text[], ${c.analytics_dashboards}::integer[], ${c.has_enriched_analytics},
              ${c.is_remote_configuration}, ${c.has_encrypted_payloads}, ${c.evaluation_runtime},
              ${input.creation_context}, ${input.created_by_id}, ${c.last_modified_by_id}, ${c.is_multivariate},
              ${c.fully_rolled_out}, ${c.depends_on}::integer[])
            ON CONFLICT (project_id, key) DO NOTHING
            RETURNING *
          )
          SELECT ${select} FROM f ${joins}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => Option.match(first(rows), { onNone: () => Effect.fail(new FlagKeyTaken()), onSome: Effect.succeed }))
        )
      },
      update: (id, input) => {
        const c = columns(input)
        return sql<FlagRow>`
          WITH f AS (
            UPDATE feature_flags SET key = ${c.key}, name = ${c.name}, filters = ${c.filters}::jsonb,
              deleted = ${c.deleted}, active = ${c.active}, version = ${input.version},
              ensure_experience_continuity = ${c.ensure_experience_continuity},
              rollback_conditions = ${c.rollback_conditions}::jsonb, performed_rollback = ${c.performed_rollback},
              tags = ${c.tags}::text[], analytics_dashboards = ${c.analytics_dashboards}::integer[],
              usage_dashboard_id = ${input.usage_dashboard_id}, has_enriched_analytics = ${c.has_enriched_analytics},
              is_remote_configuration = ${c.is_remote_configuration}, has_encrypted_payloads = ${c.has_encrypted_payloads},
              evaluation_runtime = ${c.evaluation_runtime}, last_modified_by_id = ${c.last_modified_by_id},
              is_multivariate = ${c.is_multivariate}, fully_rolled_out = ${c.fully_rolled_out},
              depends_on = ${c.depends_on}::integer[], updated_at = now()
            WHERE id = ${id}
            RETURNING *
          )
          SELECT ${select} FROM f ${joins}`.pipe(
          Effect.catchIf(isKeyConflict, () => Effect.fail(new FlagKeyTaken())),
          Effect.catchIf(SqlError.isSqlError, Effect.die),
          Effect.map((rows) => toFlag(rows[0]!))
        )
      },
      setUsageDashboard: (id, dashboard) =>
        sql`UPDATE feature_flags SET usage_dashboard_id = ${dashboard} WHERE id = ${id}`.pipe(Effect.orDie, Effect.asVoid),
      find: (project, id) =>
        sql<FlagRow>`SELECT ${select} FROM feature_flags f ${joins} WHERE f.id = ${id} AND f.project_id = ${project}`.pipe(
          Effect.orDie,
          Effect.map(first)
        ),
      lock: (project, id) =>
        sql<FlagRow>`
          SELECT ${select} FROM feature_flags f ${joins} WHERE f.id = ${id} AND f.project_id = ${project}
          FOR UPDATE OF f`.pipe(Effect.orDie, Effect.map(first)),
      holderOfKey: (project, key) =>
        sql<{ id: number; key: string; deleted: boolean }>`
          SELECT id, key, deleted FROM feature_flags WHERE project_id = ${project} AND key = ${key}`.pipe(
          Effect.orDie,
          Effect.map((rows) => Option.fromNullishOr(rows[0]).pipe(Option.map((row) => ({ ...refs([row])[0]!, deleted: row.deleted }))))
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
          sql<FlagRow>`
            SELECT ${select} FROM feature_flags f ${joins} WHERE ${where}
            ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM feature_flags f WHERE ${where}`
        ).pipe(Effect.map(({ rows, total }) => ({ count: total, results: rows.map(toFlag), request: page })))
      },
      dependencyNodes: (project, ids) =>
        sql<{ id: number; key: string; active: boolean; filters: Record<string, unknown> }>`
          SELECT id, key, active, filters FROM feature_flags
          WHERE project_id = ${project} AND NOT deleted AND id = ANY(${serialIds(ids)}::integer[])`.pipe(
          Effect.orDie
        ),
      dependents: (project, id) =>
        sql<{ id: number; key: string }>`
          SELECT id, key FROM feature_flags
          WHERE project_id = ${project} AND NOT deleted AND active AND id <> ${id} AND depends_on @> ARRAY[${id}]::integer[]
          ORDER BY key`.pipe(Effect.orDie, Effect.map(refs)),
      disabledAmong: (project, ids) =>
        sql<{ id: number; key: string }>`
          SELECT id, key FROM feature_flags
          WHERE project_id = ${project} AND NOT deleted AND NOT active AND id = ANY(${serialIds(ids)}::integer[])
          ORDER BY key`.pipe(Effect.orDie, Effect.map(refs))
    })
  })
)
