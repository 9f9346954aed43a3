import { bucketHash, hashAhead } from "../bucketing/bucket-hash.ts"
import { HOLDOUT_PREFIX, type HashPrefix } from "../bucketing/hash-prefix.ts"
import { inRollout, variantAt } from "../bucketing/rollout.ts"
import type { PropertyFilter } from "../feature-flags/conditions.ts"
import { type CohortScope, cohortVerdict } from "./cohorts.ts"
import { deviceIdOf, type EvaluationContext, personSources } from "./context.ts"
import {
  FLAG_AGGREGATION,
  type FlagResult,
  type FlagValue,
  type PreparedCondition,
  type PreparedFlag,
  type PreparedFlags
} from "./model.ts"
import { compare, comparisonOf, type ComparisonScope, type Properties, type PropertySources } from "./operators.ts"
import { noMatchReason, type Outcome, type Reason, reasonOf } from "./reasons.ts"
import { RegexBudget, RegexBudgetExceeded } from "./regex-budget.ts"
import { allOf, decided, type Deferral, deferred, type Verdict } from "./verdict.ts"

/**
 * Evaluating a project's prepared flags for one person and their groups: each flag's value, the reason
 * for it, and its payload.
 *
 * Two deciders are followed. Where posthog-node, evaluating locally from the definitions, can decide a
 * flag, Hedgerow answers as it does, so that a person gets the same value whether their SDK evaluates
 * locally or asks Hedgerow. Where the SDK would leave the flag to the server (a property the request
 * lacks, a cohort it has no definition of, a value it cannot compare), Hedgerow answers as PostHog's
 * flags service does, on what the request carries alone: Hedgerow keeps no persons.
 *
 * A flag is decided in this order: an inactive flag is off; early access, which the SDK knows nothing
 * of, comes first, as in the service; then the SDK's answer; then the service's, unless a dependency
 * cycle keeps the service from evaluating the flag at all.
 */

export interface FlagsEvaluation {
  /**
   * Each flag's result at the flag's index among the prepared flags: null for a flag not asked for
   * (`only`), one the service would not evaluate (in or behind a dependency cycle) unless the SDK
   * decides it, or one that failed to evaluate (reported in `errorsWhileComputingFlags`). An inactive
   * flag has a result, off (`flag_disabled`), as the SDK reads it; PostHog's `/flags` leaves it out.
   */
  readonly results: ReadonlyArray<FlagResult | null>
  /** The service reports errors while computing flags when a dependency cycle keeps flags from it. */
  readonly errorsWhileComputingFlags: boolean
}

/** The results there are, by flag key, in the project's order. */
export const resultsByKey = (evaluation: FlagsEvaluation): ReadonlyMap<string, FlagResult> =>
  new Map(evaluation.results.flatMap((result) => (result === null ? [] : [[result.key, result]])))

interface Decision {
  readonly value: FlagValue
  readonly reason: Reason
  /**
   * The payload key, when it is not the value's own (the service answers early access with `"true"`'s,
   * and only it: so a decision's reason and value decide its result).
   */
  readonly payloadKey?: string
}

/** Whom the flags are evaluated for, read once per evaluation. */
interface Subject {
  readonly prepared: PreparedFlags
  readonly context: EvaluationContext
  /** The instant relative dates count back from, the regex work the evaluation may still do, the project's patterns. */
  readonly comparing: ComparisonScope
  readonly person: PropertySources
  readonly deviceId: string | undefined
  readonly groups: Readonly<Record<string, unknown>>
  readonly groupProperties: Readonly<Record<string, Properties>>
  /** The SDK's answers, by flag: dependencies read them, and a flag is answered once. */
  readonly sdkAnswers: Map<PreparedFlag, Decision | Deferral>
  readonly results: Map<PreparedFlag, FlagResult | null>
  /** Flags being answered, so that a dependency loop the graph did not foresee ends. */
  readonly pending: Set<PreparedFlag>
  /** How cohorts are read for each set of properties (their verdicts kept for the evaluation). */
  readonly cohortScopes: Map<PropertySources, CohortScope>
  /** Whether a flag failed to evaluate (a value no reader can render, regex work past the budget); the service then reports errors. */
  failed: boolean
}

const hasOwn = (record: object, key: string) => Object.prototype.hasOwnProperty.call(record, key)

const disabled: Decision = { value: false, reason: reasonOf("flag_disabled", null) }

export const evaluateFlags = (prepared: PreparedFlags, context: EvaluationContext): FlagsEvaluation => {
  const subject: Subject = {
    prepared,
    context,
    comparing: { now: context.now ?? new Date(), regex: new RegexBudget(), patterns: prepared.patterns },
    person: personSources(context),
    deviceId: deviceIdOf(context),
    groups: context.groups ?? {},
    groupProperties: context.group_properties ?? {},
    sdkAnswers: new Map(),
    results: new Map(),
    pending: new Set(),
    cohortScopes: new Map(),
    failed: false
  }
  const only = context.only === undefined ? undefined : new Set(context.only)
  if (only === undefined) {
    // Most of a request's hashes are its person's under each flag: drawn ahead, four at a time.
    hashAhead(prepared.ahead.rollouts, context.distinct_id, "")
    hashAhead(prepared.ahead.variants, context.distinct_id, "variant")
  }
  // An array in the flags' order rather than a map by key: a `/flags` answer reads each result once, beside its flag.
  const results: Array<FlagResult | null> = []
  for (const flag of prepared.flags) {
    results.push(only !== undefined && !only.has(flag.key) ? null : resultOf(subject, flag))
  }
  return { results, errorsWhileComputingFlags: prepared.graph.hasCycles() || subject.failed }
}

/** One flag's result, or null when the service would not evaluate it. */
const resultOf = (subject: Subject, flag: PreparedFlag): FlagResult | null => {
  // With no dependencies in the project, each flag is asked for once: nothing to remember or guard.
  if (!subject.prepared.graph.anyDependency) return resultNow(subject, flag)
  const known = subject.results.get(flag)
  if (known !== undefined) return known
  if (subject.pending.has(flag)) return null
  subject.pending.add(flag)
  const result = resultNow(subject, flag)
  subject.pending.delete(flag)
  subject.results.set(flag, result)
  return result
}

const resultNow = (subject: Subject, flag: PreparedFlag): FlagResult | null => {
  let decision: Decision | null
  try {
    decision = decide(subject, flag)
  } catch {
    // A value JavaScript cannot render as text (JSON allows an object whose `toString` is not a
    // function), or a regex condition past the evaluation's budget: the flag fails alone, left out and
    // reported, as the service reports a flag it could not compute, rather than failing every flag of
    // the request.
    decision = null
    subject.failed = true
  }
  return decision === null ? null : resultFrom(flag, decision)
}

const decide = (subject: Subject, flag: PreparedFlag): Decision | null => {
  if (!flag.flag.active) return disabled
  const graph = subject.prepared.graph
  const evaluable = !graph.blocked(flag) && !graph.missing(flag)
  const early = evaluable ? earlyAccess(subject, flag) : undefined
  if (early !== undefined) return early
  const sdk = sdkAnswer(subject, flag)
  if (typeof sdk !== "string") return sdk
  if (graph.blocked(flag)) return null
  if (graph.missing(flag)) return { value: false, reason: reasonOf("missing_dependency", null) }
  return serviceAnswer(subject, flag)
}

/** The flag's result for a decision: one object for each reason and value, made the first time the two meet. */
const resultFrom = (flag: PreparedFlag, decision: Decision): FlagResult => {
  let byValue = flag.results.get(decision.reason)
  if (byValue === undefined) flag.results.set(decision.reason, byValue = new Map())
  let result = byValue.get(decision.value)
  if (result === undefined) byValue.set(decision.value, result = Object.freeze(newResult(flag, decision)))
  return result
}

const newResult = (flag: PreparedFlag, decision: Decision): FlagResult => {
  const { value } = decision
  const payloadKey = decision.payloadKey ?? (value === false ? undefined : value === true ? "true" : value)
  const payloads = flag.conditions.payloads
  const payload = payloadKey === undefined || payloads === null || !hasOwn(payloads, payloadKey) ? null : payloads[payloadKey] ?? null
  return {
    key: flag.key,
    id: flag.flag.id,
    version: flag.flag.version,
    enabled: value !== false,
    variant: typeof value === "string" ? value : null,
    payload,
    reason: decision.reason
  }
}

const valueOf = (result: FlagResult | null): FlagValue | undefined =>
  result === null ? undefined : result.variant ?? result.enabled

const groupSources = (subject: Subject, name: string): PropertySources => {
  const properties = hasOwn(subject.groupProperties, name) ? subject.groupProperties[name]! : {}
  return { sdk: properties, service: properties }
}

/** The name of the group type an index names, in the project's mapping. */
const groupTypeOf = (subject: Subject, aggregation: unknown): string | undefined => {
  const index = String(aggregation)
  return hasOwn(subject.prepared.groupTypes, index) ? subject.prepared.groupTypes[index] : undefined
}

/** Whether a dependency's value is what the property expects: `true` any enabled value, `false` off, text that variant. */
const evaluatesTo = (expected: unknown, value: FlagValue | undefined): boolean => {
  if (value === undefined) return false
  if (typeof expected === "boolean") return expected ? value !== false : value === false
  return typeof expected === "string" && value === expected
}

/**
 * A `flag` property. The SDK evaluates the property's dependency chain in order and leaves the
 * property to the service when the chain is empty (a cycle, a missing flag) or a flag in it is left
 * to the service. The service reads the dependency's own result, by id, and only `flag_evaluates_to`.
 */
const dependencyVerdict = (subject: Subject, property: PropertyFilter): Verdict => {
  const { graph, byId } = subject.prepared
  const serviceTarget = property.flag_id === null ? undefined : byId.get(property.flag_id)
  const service = () =>
    property.operator === "flag_evaluates_to" && serviceTarget !== undefined &&
    evaluatesTo(property.value, valueOf(resultOf(subject, serviceTarget)))
  const target = graph.target(property)
  const chain = target === undefined ? [] : graph.chain(target.key)
  if (chain.length === 0) return deferred(service())
  let value: FlagValue | undefined
  for (const key of chain) {
    const answer = sdkAnswer(subject, subject.prepared.byKey.get(key)!)
    if (typeof answer === "string") return deferred(service(), answer === "server" ? "server" : "inconclusive")
    value = answer.value
  }
  return decided(evaluatesTo(property.value, value))
}

const NO_MEMBERSHIPS: ReadonlySet<number> = new Set()

const cohortScopeOf = (subject: Subject, sources: PropertySources): CohortScope => {
  let scope = subject.cohortScopes.get(sources)
  if (scope === undefined) {
    scope = {
      cohorts: subject.prepared.cohorts,
      members: subject.context.cohort_members ?? NO_MEMBERSHIPS,
      sources,
      comparing: subject.comparing,
      known: new Map()
    }
    subject.cohortScopes.set(sources, scope)
  }
  return scope
}

const propertyVerdict = (subject: Subject, property: PropertyFilter, sources: PropertySources): Verdict => {
  switch (property.type) {
    case "cohort":
      return cohortVerdict(property, cohortScopeOf(subject, sources))
    case "flag":
      return dependencyVerdict(subject, property)
    default:
      return compare(comparisonOf(property), sources, subject.comparing)
  }
}

/** A condition's properties, each evaluated only when the ones before have not decided the condition. */
const propertiesVerdict = (subject: Subject, condition: PreparedCondition, sources: PropertySources): Verdict =>
  allOf(condition.properties, (property) => propertyVerdict(subject, property, sources))

/** The properties alone, as the service reads them: stop at the first that does not match. */
const serviceMatches = (subject: Subject, properties: ReadonlyArray<PropertyFilter>, sources: PropertySources): boolean =>
  properties.every((property) => propertyVerdict(subject, property, sources).service)

/**
 * The value of a matching condition: its override when that names a variant, else the hashed variant,
 * else on. A flag without variants is on without hashing for a variant: most flags are boolean, and
 * the hash would go unread.
 */
const matchedValue = (flag: PreparedFlag, condition: PreparedCondition, identifier: string, hash = bucketHash): FlagValue => {
  if (condition.variant !== null) return condition.variant
  const { variants } = flag.conditions
  return variants.length === 0 ? true : variantAt(hash(flag.hashPrefix, identifier, "variant"), variants) ?? true
}

const matched = (condition: PreparedCondition, value: FlagValue): Decision => ({
  value,
  reason: reasonOf("condition_match", condition.index)
})

const aggregationOf = (flag: PreparedFlag, condition: PreparedCondition) =>
  condition.aggregation === FLAG_AGGREGATION ? flag.aggregation : condition.aggregation

/**
 * What posthog-node answers evaluating the flag locally, or why it cannot: `inconclusive` or
 * `server`. It needs the group type of a group flag in the definitions' mapping, the device id of a
 * flag bucketed by device, and never evaluates a flag with experience continuity.
 */
const sdkAnswer = (subject: Subject, flag: PreparedFlag): Decision | Deferral => {
  if (!subject.prepared.graph.anyDependency) return sdkAnswerNow(subject, flag)
  let answer = subject.sdkAnswers.get(flag)
  if (answer === undefined) {
    subject.sdkAnswers.set(flag, "inconclusive")
    try {
      answer = sdkAnswerNow(subject, flag)
    } catch (error) {
      // Past the regex budget the flag has no answer: whatever reads it later fails too, as the budget
      // refuses every later match.
      subject.sdkAnswers.delete(flag)
      throw error
    }
    subject.sdkAnswers.set(flag, answer)
  }
  return answer
}

const sdkAnswerNow = (subject: Subject, flag: PreparedFlag): Decision | Deferral => {
  try {
    return sdkEvaluate(subject, flag)
  } catch (error) {
    if (error instanceof RegexBudgetExceeded) throw error
    // posthog-node throws on what it cannot render, and leaves such a flag to the service.
    return "inconclusive"
  }
}

const sdkEvaluate = (subject: Subject, flag: PreparedFlag): Decision | Deferral => {
  if (!flag.flag.active) return disabled
  if (flag.flag.ensure_experience_continuity) return "inconclusive"
  if (flag.aggregation !== null) {
    const name = groupTypeOf(subject, flag.aggregation)
    if (name === undefined) return "inconclusive"
    if (!hasOwn(subject.groups, name)) {
      return { value: false, reason: noMatchReason(flag.groups.map((): Outcome => "no_group_type")) }
    }
    return sdkConditions(subject, flag, String(subject.groups[name]), groupSources(subject, name))
  }
  const identifier = flag.deviceBucketing ? subject.deviceId : subject.context.distinct_id
  if (identifier === undefined) return "inconclusive"
  return sdkConditions(subject, flag, identifier, subject.person)
}

const sdkConditions = (
  subject: Subject,
  flag: PreparedFlag,
  identifier: string,
  sources: PropertySources
): Decision | Deferral => {
  const holdout = flag.holdout
  if (holdout !== null && inRollout(holdout.percentage, HOLDOUT_PREFIX, identifier)) {
    return { value: holdout.variant, reason: reasonOf("holdout_condition_value", null) }
  }
  const outcomes: Array<Outcome> = []
  let inconclusive = false
  for (const condition of flag.groups) {
    const aggregation = aggregationOf(flag, condition)
    let conditionSources = sources
    let conditionIdentifier = identifier
    // A condition on another group type than the flag's (mixed targeting) reads that group.
    if (aggregation !== flag.aggregation && aggregation !== null) {
      const name = groupTypeOf(subject, aggregation)
      if (name === undefined || !hasOwn(subject.groups, name)) {
        outcomes.push("no_group_type")
        continue
      }
      if (!hasOwn(subject.groupProperties, name)) {
        inconclusive = true
        continue
      }
      conditionSources = groupSources(subject, name)
      conditionIdentifier = String(subject.groups[name])
    }
    const verdict = propertiesVerdict(subject, condition, conditionSources)
    if (verdict.sdk === "server") return "server"
    if (verdict.sdk === "inconclusive") {
      inconclusive = true
      continue
    }
    if (!verdict.sdk) {
      outcomes.push("no_condition_match")
      continue
    }
    const rollout = condition.rollout_percentage
    if (rollout !== null && !inRollout(rollout, flag.hashPrefix, conditionIdentifier)) {
      outcomes.push("out_of_rollout_bound")
      if (!flag.earlyExit) continue
      return inconclusive ? "inconclusive" : { value: false, reason: reasonOf("out_of_rollout_bound", condition.index) }
    }
    return matched(condition, matchedValue(flag, condition, conditionIdentifier))
  }
  return inconclusive ? "inconclusive" : { value: false, reason: noMatchReason(outcomes) }
}

/** The service's hash: an empty identifier hashes as 0. */
const serviceHash = (flag: HashPrefix, identifier: string, salt: string) =>
  identifier === "" ? 0 : bucketHash(flag, identifier, salt)

/**
 * The identifier the service hashes for a person: the device id for a flag bucketed by device, else
 * for experience continuity the request's `$anon_distinct_id` (Hedgerow stores no override), else the
 * distinct id.
 */
const personIdentifier = (subject: Subject, flag: PreparedFlag): string => {
  if (flag.deviceBucketing && subject.deviceId !== undefined) return subject.deviceId
  const anonymous = subject.context.anon_distinct_id
  if (flag.flag.ensure_experience_continuity && typeof anonymous === "string") return anonymous
  return subject.context.distinct_id
}

/** The key of the group a group type index names, when the request carries one. */
const groupKeyOf = (subject: Subject, aggregation: unknown): { name: string; key: string } | undefined => {
  const name = groupTypeOf(subject, aggregation)
  const key = name === undefined || !hasOwn(subject.groups, name) ? undefined : subject.groups[name]
  if (name === undefined || !(typeof key === "number" || (typeof key === "string" && key !== ""))) return undefined
  return { name, key: String(key) }
}

/**
 * PostHog's flags service: holdout first, then each condition in order on its own aggregation. A
 * condition whose group the request lacks is skipped (`no_group_type`), as is a person condition of a
 * flag bucketed by device when there is no device id (`out_of_rollout_bound`).
 */
const serviceAnswer = (subject: Subject, flag: PreparedFlag): Decision => {
  const person = personIdentifier(subject, flag)
  const holdout = flag.holdout
  if (holdout !== null) {
    // A group flag's holdout hashes the group's key: without the group, no one is held out.
    const identifier = flag.aggregation === null ? person : groupKeyOf(subject, flag.aggregation)?.key
    if (identifier !== undefined && inRollout(holdout.percentage, HOLDOUT_PREFIX, identifier)) {
      return { value: holdout.variant, reason: reasonOf("holdout_condition_value", null) }
    }
  }
  const outcomes: Array<Outcome> = []
  for (const condition of flag.groups) {
    const aggregation = aggregationOf(flag, condition)
    let sources: PropertySources
    let identifier: string
    if (aggregation === null) {
      if (flag.deviceBucketing && subject.deviceId === undefined) {
        outcomes.push("out_of_rollout_bound")
        continue
      }
      sources = subject.person
      identifier = person
    } else {
      const group = groupKeyOf(subject, aggregation)
      if (group === undefined) {
        outcomes.push("no_group_type")
        continue
      }
      sources = groupSources(subject, group.name)
      identifier = group.key
    }
    if (!serviceMatches(subject, condition.properties, sources)) {
      outcomes.push("no_condition_match")
      continue
    }
    if (!inRollout(condition.rollout_percentage ?? 100, flag.hashPrefix, identifier, serviceHash)) {
      outcomes.push("out_of_rollout_bound")
      if (!flag.earlyExit) continue
      return { value: false, reason: reasonOf("out_of_rollout_bound", condition.index) }
    }
    return matched(condition, matchedValue(flag, condition, identifier, serviceHash))
  }
  return { value: false, reason: noMatchReason(outcomes) }
}

const SUPER_CONDITION = reasonOf("super_condition_value", 0)

/**
 * Early access, which decides before any condition when the person carries the enrollment property
 * (or, in the legacy form, any property of the first super group); the service then sends the
 * `"true"` payload whatever the answer.
 */
const earlyAccess = (subject: Subject, flag: PreparedFlag): Decision | undefined => {
  const person = subject.person.service
  if (flag.featureEnrollment) {
    const key = `$feature_enrollment/${flag.key}`
    if (!hasOwn(person, key)) return undefined
    return { value: person[key] === true || person[key] === "true", reason: SUPER_CONDITION, payloadKey: "true" }
  }
  const group = flag.superGroup
  if (group === null || !group.properties.some((property) => hasOwn(person, String(property.key)))) return undefined
  const identifier = personIdentifier(subject, flag)
  const value = serviceMatches(subject, group.properties, subject.person) &&
    inRollout(group.rollout_percentage ?? 100, flag.hashPrefix, identifier, serviceHash)
  return { value, reason: SUPER_CONDITION, payloadKey: "true" }
}
