import type { FeatureFlag, StoredFeatureFlag } from "./model.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { effectiveFilters, isSimpleFlag, rolloutPercentageOf, statusNameOf } from "./computed.ts"
import { accessLevelName } from "./edit-rights.ts"

/** Cohort ids referenced by a flag's conditions, whose names the rendered filters carry. */
export const cohortReferences = (flag: StoredFeatureFlag): ReadonlyArray<number> =>
  cohortProperties(effectiveFilters(flag.filters)).flatMap((property) => {
    const id = Number(property["value"])
    return Number.isSafeInteger(id) ? [id] : []
  })

const cohortProperties = (filters: JsonRecord): ReadonlyArray<JsonRecord> =>
  (Array.isArray(filters["groups"]) ? filters["groups"] : []).filter(isRecord).flatMap((group) =>
    (Array.isArray(group["properties"]) ? group["properties"] : []).filter(
      (property): property is JsonRecord => isRecord(property) && property["type"] === "cohort"
    ))

/** PostHog adds `cohort_name` to every cohort property it returns. */
const withCohortNames = (filters: JsonRecord, names: ReadonlyMap<number, string>): JsonRecord => {
  if (cohortProperties(filters).length === 0) return filters
  return {
    ...filters,
    groups: (filters["groups"] as ReadonlyArray<unknown>).map((group) =>
      !isRecord(group) || !Array.isArray(group["properties"]) ? group : {
        ...group,
        properties: group["properties"].map((property: unknown) =>
          isRecord(property) && property["type"] === "cohort"
            ? { ...property, cohort_name: names.get(Number(property["value"])) ?? null }
            : property)
      })
  }
}

export interface RenderContext {
  readonly canEdit: boolean
  readonly cohortNames: ReadonlyMap<number, string>
  readonly nowMillis: number
}

export const toFeatureFlag = (flag: StoredFeatureFlag, context: RenderContext): FeatureFlag => ({
  id: flag.id,
  name: flag.name,
  key: flag.key,
  filters: withCohortNames(effectiveFilters(flag.filters), context.cohortNames),
  deleted: flag.deleted,
  active: flag.active,
  created_by: flag.created_by,
  created_at: flag.created_at,
  updated_at: flag.updated_at,
  version: flag.version,
  last_modified_by: flag.last_modified_by,
  is_simple_flag: isSimpleFlag(flag.filters),
  rollout_percentage: rolloutPercentageOf(flag.filters),
  ensure_experience_continuity: flag.ensure_experience_continuity,
  experiment_set: [],
  surveys: {},
  features: {},
  rollback_conditions: flag.rollback_conditions,
  performed_rollback: flag.performed_rollback,
  can_edit: context.canEdit,
  tags: flag.tags,
  usage_dashboard: flag.usage_dashboard_id,
  analytics_dashboards: flag.analytics_dashboards,
  has_enriched_analytics: flag.has_enriched_analytics,
  user_access_level: accessLevelName(context.canEdit),
  creation_context: flag.creation_context,
  is_remote_configuration: flag.is_remote_configuration,
  has_encrypted_payloads: flag.has_encrypted_payloads,
  evaluation_runtime: flag.evaluation_runtime,
  status: statusNameOf(flag, context.nowMillis)
})
