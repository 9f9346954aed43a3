import { isTruthy, type JsonRecord } from "../shared/fields.ts"
import { type ConditionGroup, conditionsOf, type FlagConditions, propertiesIn } from "./conditions.ts"

/**
 * What follows from a flag's conditions alone: the answer's read-only fields, what the list filters on,
 * the flags it depends on, and whether every evaluation gives the same answer (which staleness reads).
 */

/** One condition group without properties, aggregated by persons. */
export const isSimpleFlag = (conditions: FlagConditions): boolean =>
  conditions.groups.length === 1 &&
  conditions.groups.every((group) => group.properties.length === 0) &&
  conditions.aggregation_group_type_index === null

/** The one group's rollout, for a simple flag. */
export const rolloutPercentageOf = (conditions: FlagConditions): number | null =>
  isSimpleFlag(conditions) ? conditions.groups[0]?.rollout_percentage ?? null : null

/** The list's `type` filter: `multivariant` is a flag with at least one variant. */
export const isMultivariate = (conditions: FlagConditions): boolean => conditions.variants.length > 0

const groupFullyRolledOut = (group: ConditionGroup) => group.rollout_percentage === 100 && group.properties.length === 0

/**
 * PostHog's status checker, from configuration alone: whether every evaluation gives the same answer.
 * `active` is left out so the answer can be stored; the callers add it.
 */
export const fullRolloutOf = (conditions: FlagConditions): string | null => {
  const openGroups = conditions.groups.filter(groupFullyRolledOut)
  if (conditions.hasMultivariate) {
    const variantKey = conditions.variants.find((variant) => variant.rollout_percentage === 100)?.key
    const override = openGroups.map((group) => group.variant).find(isTruthy)
    const variant = override ?? variantKey
    if (openGroups.length === 0 || variant === undefined) return null
    return `This flag will always use the variant "${String(variant)}"`
  }
  // A flag created without filters is on for everyone (legacy data PostHog still counts); its open
  // group has no rollout percentage, which the groups' check alone would not count.
  if (conditions.withoutFilters || openGroups.length > 0) {
    return "This boolean flag will always evaluate to \"true\""
  }
  return null
}

/** Ids of the flags a flag's conditions depend on (`type: flag` properties whose key is a flag id). */
export const dependenciesOf = (conditions: FlagConditions): ReadonlyArray<number> => [
  ...new Set(propertiesIn(conditions).flatMap((property) => (property.flag_id === null ? [] : [property.flag_id])))
]

/** The columns the list filters on, computed here so that SQL never reads filters. */
export const derivedColumns = (filters: JsonRecord) => {
  const conditions = conditionsOf(filters)
  return {
    is_multivariate: isMultivariate(conditions),
    fully_rolled_out: fullRolloutOf(conditions) !== null,
    depends_on: dependenciesOf(conditions)
  }
}
