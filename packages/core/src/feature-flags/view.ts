import type { JsonRecord } from "../shared/fields.ts"
import type { FeatureFlagId } from "../shared/ids.ts"
import { millisOf, type Timestamp } from "../shared/time.ts"
import { accessLevelName } from "./access/edit-rights.ts"
import { type ConditionGroup, conditionsOf, type FlagConditions } from "./conditions.ts"
import { isSimpleFlag, rolloutPercentageOf } from "./derived.ts"
import type { FlagView, StoredFlag } from "./model.ts"
import { statusNameOf } from "./status.ts"

const hasCohort = (group: ConditionGroup) => group.properties.some((property) => property.type === "cohort")

/** PostHog adds `cohort_name` to every cohort property it returns; everything else is rendered as stored. */
const withCohortNames = (conditions: FlagConditions, names: ReadonlyMap<number, string | null>): JsonRecord => {
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

/** What an answer reads beside the stored flag: the caller's right to edit it, and the request's reads. */
export interface RenderContext {
  readonly canEdit: boolean
  readonly cohortNames: ReadonlyMap<number, string | null>
  readonly nowMillis: number
  /** When a flag was last called (FlagUsage), or null. */
  readonly lastCalled: (id: FeatureFlagId) => Timestamp | null
}

/**
 * The answer: the stored flag's fields as they are (cohort names added to its filters), with the values
 * computed for the caller; internal fields (project, user ids) are left out. Written in the answer's
 * order (FLAG_VIEW_FIELDS, which a test holds it to), so the value prints as its encoding does: one
 * object of one shape, as every flag of every list is rendered.
 *
 * The last answer made of each stored flag is kept and given again while what the caller sees of it
 * (`can_edit`, `status`, `last_called_at`) is the same, so a list read again makes no new answers and an
 * adapter may keep each answer's encoding with it. Answers are never changed once made.
 */
export const toFlagView = (
  flag: StoredFlag,
  context: RenderContext,
  conditions: FlagConditions = conditionsOf(flag.filters)
): FlagView => {
  const canEdit = context.canEdit
  const lastCalled = context.lastCalled(flag.id)
  const status = statusNameOf(flag, context.nowMillis, lastCalled === null ? null : millisOf(lastCalled), conditions)
  // Cohort names are read per request: a flag that names a cohort is rendered afresh.
  const kept = conditions.groups.some(hasCohort) ? undefined : answers.get(flag)
  if (kept !== undefined && kept.can_edit === canEdit && kept.status === status && kept.last_called_at === lastCalled) return kept
  const answer = render(flag, conditions, context.cohortNames, canEdit, status, lastCalled)
  answers.set(flag, answer)
  return answer
}

const answers = new WeakMap<StoredFlag, FlagView>()

const render = (
  flag: StoredFlag,
  conditions: FlagConditions,
  cohortNames: ReadonlyMap<number, string | null>,
  canEdit: boolean,
  status: FlagView["status"],
  lastCalled: Timestamp | null
): FlagView => ({
  id: flag.id,
  name: flag.name,
  key: flag.key,
  filters: withCohortNames(conditions, cohortNames),
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
  can_edit: canEdit,
  tags: flag.tags,
  usage_dashboard: flag.usage_dashboard_id,
  analytics_dashboards: flag.analytics_dashboards,
  has_enriched_analytics: flag.has_enriched_analytics,
  user_access_level: accessLevelName(canEdit),
  creation_context: flag.creation_context,
  is_remote_configuration: flag.is_remote_configuration,
  has_encrypted_payloads: flag.has_encrypted_payloads,
  evaluation_runtime: flag.evaluation_runtime,
  status,
  last_called_at: lastCalled
})
