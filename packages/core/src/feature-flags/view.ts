import type { FeatureFlag, StoredFeatureFlag } from "./model.ts"
import type { JsonRecord } from "../shared/fields.ts"
import type { FeatureFlagId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import { isSimpleFlag, rolloutPercentageOf, statusNameOf } from "./computed.ts"
import { type ConditionGroup, conditionsOf, type FlagConditions } from "./conditions.ts"
import { accessLevelName } from "./edit-rights.ts"

const hasCohort = (group: ConditionGroup) => group.properties.some((property) => property.type === "cohort")

/** PostHog adds `cohort_name` to every cohort property it returns; everything else is rendered as stored. */
const withCohortNames = (conditions: FlagConditions, names: ReadonlyMap<number, string>): JsonRecord => {
  if (!conditions.groups.some(hasCohort)) return conditions.json
  return {
    ...conditions.json,
    groups: conditions.groups.map((group) => !hasCohort(group) ? group.json : {
      ...group.json,
      properties: group.properties.map((property) => property.type !== "cohort" ? property.json : {
        ...property.json,
        cohort_name: property.cohort_id === null ? null : names.get(property.cohort_id) ?? null
      })
    })
  }
}

export interface RenderContext {
  readonly canEdit: boolean
  readonly cohortNames: ReadonlyMap<number, string>
  readonly nowMillis: number
  /** When a flag was last called (FlagUsage), or null. */
  readonly lastCalled: (id: FeatureFlagId) => Timestamp | null
}

/**
 * The answer: the stored flag's fields as they are (cohort names added to its filters), with the values
 * computed for the caller; internal fields (project, user ids) are left out. Written in the answer's
 * order (FEATURE_FLAG_FIELDS, which a test holds it to), so the value prints as its encoding does: one
 * object of one shape, as every flag of every list is rendered.
 */
export const toFeatureFlag = (
  flag: StoredFeatureFlag,
  context: RenderContext,
  conditions: FlagConditions = conditionsOf(flag.filters)
): FeatureFlag => ({
  id: flag.id,
  name: flag.name,
  key: flag.key,
  filters: withCohortNames(conditions, context.cohortNames),
  deleted: flag.deleted,
  active: flag.active,
  created_by: flag.created_by,
  created_at: flag.created_at,
  updated_at: flag.updated_at,
  version: flag.version,
  last_modified_by: flag.last_modified_by,
  is_simple_flag: isSimpleFlag(conditions),
  rollout_percentage: rolloutPercentageOf(conditions),
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
  status: statusNameOf(flag, context.nowMillis, conditions),
  last_called_at: context.lastCalled(flag.id)
})
