import { FeatureFlag, type StoredFeatureFlag } from "./model.ts"
import type { JsonRecord } from "../shared/fields.ts"
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
}

/** The answer's fields in the answer's order (the schema's), so the value prints as its encoding does. */
const ANSWER_FIELDS = Object.keys(FeatureFlag.fields) as ReadonlyArray<keyof FeatureFlag>
const inAnswerOrder = (answer: FeatureFlag): FeatureFlag => {
  // A plain loop: this runs for every flag of every answer, and building entry arrays showed in profiles.
  const ordered: Record<string, unknown> = {}
  for (const field of ANSWER_FIELDS) ordered[field] = answer[field]
  return ordered as FeatureFlag
}

/**
 * The answer: the stored flag's fields as they are (cohort names added to its filters), with the values
 * computed for the caller; internal fields (project, user ids) are left out by the answer's schema.
 */
export const toFeatureFlag = (
  flag: StoredFeatureFlag,
  context: RenderContext,
  conditions: FlagConditions = conditionsOf(flag.filters)
): FeatureFlag => {
  const answer: FeatureFlag = {
    ...flag,
    filters: withCohortNames(conditions, context.cohortNames),
    is_simple_flag: isSimpleFlag(conditions),
    rollout_percentage: rolloutPercentageOf(conditions),
    experiment_set: [],
    surveys: {},
    features: {},
    can_edit: context.canEdit,
    usage_dashboard: flag.usage_dashboard_id,
    user_access_level: accessLevelName(context.canEdit),
    status: statusNameOf(flag, context.nowMillis, conditions)
  }
  return inAnswerOrder(answer)
}
