import { type ConditionGroup, conditionsOf, type FlagConditions, type JsonValue, type PropertyFilter } from "../feature-flags/conditions.ts"
import type { StoredFlag } from "../feature-flags/model.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { definitionFilters, leafOperator } from "./cohorts.ts"
import type { FlagResult, FlagValue } from "./evaluate.ts"
import { type DependencyGraph, dependencyGraph } from "./graph.ts"
import { flagPrefix, type HashPrefix } from "./hash.ts"
import { operatorOf, regexPatterns } from "./operators.ts"
import type { Reason } from "./reasons.ts"
import { CompiledPatterns } from "./regex-patterns.ts"

/**
 * A project's flags read once for evaluation: what evaluating them reads of their filters, besides the
 * typed conditions. Each flag is read once for as long as its stored record lives (records are never
 * changed in place), so preparing a project again after one flag changed reads only that flag.
 */

/** A flag as evaluation takes it: the stored flag, and PostHog's `bucketing_identifier` where known. */
export type EvaluatedFlag = StoredFlag & { readonly bucketing_identifier?: string | null | undefined }

/**
 * PostHog's `group_type_mapping`: group type index, as text, to the name of the project's group type
 * there. A flag on an index the mapping lacks has no group type to read. The definitions for local
 * evaluation send the same mapping, so that the SDK and Hedgerow read a group flag alike.
 */
export type GroupTypeMapping = Readonly<Record<string, string>>

const NO_GROUP_TYPES: GroupTypeMapping = {}

/** A condition that names no aggregation of its own follows the flag's. */
export const FLAG_AGGREGATION = Symbol("flag aggregation")

export interface PreparedCondition {
  readonly index: number
  readonly properties: ReadonlyArray<PropertyFilter>
  /** Null when not given: everyone who matches. */
  readonly rollout_percentage: number | null
  /** The override when it names a variant of the flag, else null (an unknown one is ignored). */
  readonly variant: string | null
  /** A group type index, null for persons, or the flag's when the condition names none. */
  readonly aggregation: JsonValue | null | typeof FLAG_AGGREGATION
}

export interface Holdout {
  /** The variant a held-out identifier gets, `holdout-<id>`. */
  readonly variant: string
  /** Clamped to 0–100. */
  readonly percentage: number
}

export interface PreparedFlag {
  readonly flag: EvaluatedFlag
  readonly key: string
  /** What the flag's rollout and variant hashes begin with. */
  readonly hashPrefix: HashPrefix
  readonly conditions: FlagConditions
  readonly groups: ReadonlyArray<PreparedCondition>
  /** The flag's group type index, or null for a flag on persons. */
  readonly aggregation: JsonValue | null
  readonly deviceBucketing: boolean
  readonly holdout: Holdout | null
  /** Stop at the first condition whose properties match but whose rollout excludes. */
  readonly earlyExit: boolean
  /** Early access: the person property `$feature_enrollment/<key>` decides before any condition. */
  readonly featureEnrollment: boolean
  /** The legacy form of early access: the first super group, when it has properties. */
  readonly superGroup: ConditionGroup | null
  /** Type `flag` properties, in condition order. */
  readonly dependencies: ReadonlyArray<PropertyFilter>
  /** The patterns its `regex` and `not_regex` conditions search with, when it is active (else it has none to evaluate). */
  readonly regexPatterns: ReadonlyArray<string>
  /**
   * The results this flag has given, by reason and value, which together decide the rest: people mostly
   * get the same few, so an evaluation makes none anew and an answer's text can be kept with each.
   */
  readonly results: Map<Reason, Map<FlagValue, FlagResult>>
}

/** Dynamic cohorts' definitions by id as text: the property group posthog-node receives for each. */
export type CohortDefinitions = ReadonlyMap<string, JsonRecord>

export interface PreparedFlags {
  /** The flags that are not deleted, in the order given. */
  readonly flags: ReadonlyArray<PreparedFlag>
  readonly byKey: ReadonlyMap<string, PreparedFlag>
  readonly byId: ReadonlyMap<number, PreparedFlag>
  readonly cohorts: CohortDefinitions
  readonly groupTypes: GroupTypeMapping
  readonly graph: DependencyGraph
  /** The patterns of the active flags' conditions and of the cohorts' definitions, compiled before evaluation. */
  readonly patterns: CompiledPatterns
  /**
   * What a person's hashes are drawn under ahead of evaluating (see `hashAhead`): the prefixes of the
   * active flags on persons, those with a partial rollout and those with variants.
   */
  readonly ahead: { readonly rollouts: ReadonlyArray<HashPrefix>; readonly variants: ReadonlyArray<HashPrefix> }
}

export interface ProjectData {
  readonly cohorts?: CohortDefinitions | undefined
  readonly groupTypes?: GroupTypeMapping | undefined
  /** The patterns compiled for the project's state before, which this one takes over where it uses them. */
  readonly patterns?: CompiledPatterns | undefined
}

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
  for (const leaf of definitionFilters(cohorts)) {
    for (const pattern of regexPatterns(leafOperator(leaf), leaf["value"])) patterns.add(pattern)
  }
  return patterns
}
