import type { HashPrefix } from "../bucketing/hash-prefix.ts"
import type { ConditionGroup, FlagConditions, JsonValue, PropertyFilter } from "../feature-flags/conditions.ts"
import type { StoredFlag } from "../feature-flags/model.ts"
import type { JsonRecord } from "../shared/fields.ts"
import type { Reason } from "./reasons.ts"
import type { CompiledPatterns } from "./regex-patterns.ts"

/**
 * What evaluation works on and answers with: a project's flags and cohorts as prepared for evaluation
 * (prepare.ts makes them), and a flag's result (evaluate.ts gives it).
 */

/** A flag as evaluation takes it: the stored flag, and PostHog's `bucketing_identifier` where known. */
export type EvaluatedFlag = StoredFlag & { readonly bucketing_identifier?: string | null | undefined }

/**
 * PostHog's `group_type_mapping`: group type index, as text, to the name of the project's group type
 * there. A flag on an index the mapping lacks has no group type to read. The definitions for local
 * evaluation send the same mapping, so that the SDK and Hedgerow read a group flag alike.
 */
export type GroupTypeMapping = Readonly<Record<string, string>>

/** Dynamic cohorts' definitions by id as text: the property group posthog-node receives for each. */
export type CohortDefinitions = ReadonlyMap<string, JsonRecord>

/** A flag's value: off, on, or the variant. */
export type FlagValue = boolean | string

export interface FlagResult {
  readonly key: string
  readonly id: number
  readonly version: number
  readonly enabled: boolean
  readonly variant: string | null
  /** The payload stored for the variant (or for `"true"`) as stored, null when none. */
  readonly payload: unknown
  readonly reason: Reason
}

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

/**
 * Flag dependencies across a project, read two ways. The local-evaluation definitions give each
 * dependency property a `dependency_chain`: the keys to evaluate, dependencies first, ending with the
 * flag depended on; empty when the walk meets a cycle or a flag that does not exist. PostHog's flags
 * service instead orders all flags in stages (Kahn's algorithm): a flag in a cycle, or behind one, is
 * never staged, so it is not evaluated at all; a staged flag that depends, however indirectly, on a flag
 * that does not exist evaluates to false (`missing_dependency`).
 */
export interface DependencyGraph {
  /** The flag a dependency property names, as the definitions resolve it: by id, else by key. */
  readonly target: (property: PropertyFilter) => PreparedFlag | undefined
  /** The `dependency_chain` of a property naming `key`, or [] for a cycle or a flag that does not exist. */
  readonly chain: (key: string) => ReadonlyArray<string>
  /** Whether the service never evaluates the flag: it is in a cycle or depends on one. */
  readonly blocked: (flag: PreparedFlag) => boolean
  /** Whether the service answers `missing_dependency` for the flag. */
  readonly missing: (flag: PreparedFlag) => boolean
  /** Whether any flag is blocked: the service then reports errors while computing flags. */
  readonly hasCycles: () => boolean
  /**
   * Whether any flag reads another, by a condition or by its early-access super group: if none does, each
   * flag is evaluated on its own, once.
   */
  readonly anyDependency: boolean
}

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
