import { flagPrefix } from "../bucketing/hash-prefix.ts"
import { type ConditionGroup, conditionsOf, type FlagConditions, type JsonValue } from "../feature-flags/conditions.ts"
import type { StoredFlag } from "../feature-flags/model.ts"
import { isRecord } from "../shared/fields.ts"
import { cohortLeafFilters, leafOperator } from "./cohorts.ts"
import { dependencyGraph } from "./graph.ts"
import {
  type CohortDefinitions,
  type EvaluatedFlag,
  FLAG_AGGREGATION,
  type GroupTypeMapping,
  type Holdout,
  type PreparedCondition,
  type PreparedFlag,
  type PreparedFlags
} from "./model.ts"
import { operatorOf, regexPatterns } from "./operators.ts"
import { CompiledPatterns } from "./regex-patterns.ts"

/**
 * A project's flags prepared for evaluation: what evaluating them reads of their filters, besides the
 * typed conditions, read once. A flag is prepared once for as long as its stored record lives (records
 * are never changed in place), so preparing a project again after one flag changed reads only that flag.
 */

/** What evaluation reads of the project besides its flags. */
export interface ProjectData {
  readonly cohorts?: CohortDefinitions | undefined
  readonly groupTypes?: GroupTypeMapping | undefined
  /** The patterns compiled for the project's previous snapshot, which this one takes over where it uses them. */
  readonly patterns?: CompiledPatterns | undefined
}

const NO_GROUP_TYPES: GroupTypeMapping = {}

const holdoutOf = (given: unknown): Holdout | null => {
  if (!isRecord(given) || given["id"] === null || given["id"] === undefined) return null
  const percentage = given["exclusion_percentage"]
  if (percentage === null || percentage === undefined || !Number.isFinite(Number(percentage))) return null
  return { variant: `holdout-${String(given["id"])}`, percentage: Math.min(Math.max(Number(percentage), 0), 100) }
}

const superGroupOf = (given: unknown): ConditionGroup | null => {
  const first = Array.isArray(given) ? given[0] : undefined
  if (!isRecord(first)) return null
  const group = conditionsOf({ groups: [first] }).groups[0]
  return group !== undefined && group.properties.length > 0 ? group : null
}

/** The patterns of the properties an active flag's conditions (and early access's) compare. */
const flagPatterns = (flag: EvaluatedFlag, conditions: FlagConditions, superGroup: ConditionGroup | null): ReadonlyArray<string> => {
  if (!flag.active) return []
  const patterns = new Set<string>()
  for (const group of superGroup === null ? conditions.groups : [...conditions.groups, superGroup]) {
    for (const property of group.properties) {
      if (property.type === "cohort" || property.type === "flag") continue
      for (const pattern of regexPatterns(operatorOf(property), property.json["value"])) patterns.add(pattern)
    }
  }
  return [...patterns]
}

/** Each stored flag prepared, kept while its record lives. */
const prepared = new WeakMap<StoredFlag, PreparedFlag>()

export const prepareFlag = (flag: EvaluatedFlag): PreparedFlag => {
  const known = prepared.get(flag)
  if (known !== undefined) return known
  const conditions = conditionsOf(flag.filters)
  const filters = conditions.json
  const groups = conditions.groups.map((group, index): PreparedCondition => ({
    index,
    properties: group.properties,
    rollout_percentage: group.rollout_percentage,
    variant: typeof group.variant === "string" && conditions.variantKeys.has(group.variant) ? group.variant : null,
    aggregation: Object.prototype.hasOwnProperty.call(group.json, "aggregation_group_type_index")
      ? (group.json["aggregation_group_type_index"] as JsonValue | null) ?? null
      : FLAG_AGGREGATION
  }))
  const superGroup = superGroupOf(filters["super_groups"])
  const result: PreparedFlag = {
    flag,
    key: flag.key,
    hashPrefix: flagPrefix(flag.key),
    conditions,
    groups,
    aggregation: conditions.aggregation_group_type_index,
    deviceBucketing: flag.bucketing_identifier === "device_id",
    holdout: holdoutOf(filters["holdout"]),
    earlyExit: Boolean(filters["early_exit"]),
    featureEnrollment: filters["feature_enrollment"] === true,
    superGroup,
    dependencies: conditions.groups.flatMap((group) => group.properties.filter((property) => property.type === "flag")),
    regexPatterns: flagPatterns(flag, conditions, superGroup),
    results: new Map()
  }
  prepared.set(flag, result)
  return result
}

/** A project's flags (deleted ones are left out: they are off, as if they did not exist). */
export const prepareFlags = (flags: ReadonlyArray<EvaluatedFlag>, project: ProjectData = {}): PreparedFlags => {
  const live = flags.filter((flag) => !flag.deleted).map(prepareFlag)
  const byKey = new Map(live.map((flag) => [flag.key, flag]))
  const byId = new Map(live.map((flag) => [flag.flag.id as number, flag]))
  const onPersons = live.filter((flag) => flag.flag.active && flag.aggregation === null && !flag.deviceBucketing)
  const cohorts = project.cohorts ?? new Map()
  return {
    flags: live,
    byKey,
    byId,
    cohorts,
    groupTypes: project.groupTypes ?? NO_GROUP_TYPES,
    graph: dependencyGraph(live, byKey, byId),
    patterns: new CompiledPatterns(patternsInUse(live, cohorts), project.patterns),
    ahead: {
      rollouts: onPersons
        .filter((flag) => flag.groups.some((group) => group.rollout_percentage !== null && group.rollout_percentage !== 100))
        .map((flag) => flag.hashPrefix),
      variants: onPersons.filter((flag) => flag.conditions.variants.length > 0).map((flag) => flag.hashPrefix)
    }
  }
}

/** The patterns the flags' conditions and the cohorts' definitions search with. */
const patternsInUse = (flags: ReadonlyArray<PreparedFlag>, cohorts: CohortDefinitions): Iterable<string> => {
  const patterns = new Set<string>()
  for (const flag of flags) for (const pattern of flag.regexPatterns) patterns.add(pattern)
  for (const leaf of cohortLeafFilters(cohorts)) {
    for (const pattern of regexPatterns(leafOperator(leaf), leaf["value"])) patterns.add(pattern)
  }
  return patterns
}
