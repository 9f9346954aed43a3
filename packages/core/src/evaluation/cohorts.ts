import type { CohortBrief } from "../cohorts/model.ts"
import { cohortProperties } from "../cohorts/properties.ts"
import type { JsonRecord } from "../shared/fields.ts"
import { cohortReading, groupShape, type NamedIds, namedIds } from "./cohort-reading.ts"
import { type Comparison, compare, type ComparisonScope, type PropertySources } from "./operators.ts"
import type { CohortDefinitions } from "./model.ts"
import { decided, deferred, not, type Verdict } from "./verdict.ts"

/**
 * Cohort properties. A dynamic cohort's members are those whose properties (as the request carries them)
 * satisfy its definition, a tree of AND/OR groups whose leaves are property filters, each optionally
 * negated, or other cohorts; a static cohort's members are the distinct ids it lists, which evaluation is
 * told of beforehand (`members`). The SDK evaluates what the definitions give it and asks the service
 * about a cohort they lack (a static one); the service, which has every definition here, counts a
 * cohort it cannot read as no match.
 */

/** The definitions posthog-node is given: every dynamic, live cohort, from its filters or legacy groups. */
export const cohortDefinitions = (cohorts: ReadonlyArray<CohortBrief>): CohortDefinitions => {
  const definitions = new Map<string, JsonRecord>()
  for (const cohort of cohorts) {
    if (cohort.deleted || cohort.is_static) continue
    const definition = cohortProperties(cohort)
    if (definition !== undefined) definitions.set(String(cohort.id), definition)
  }
  return definitions
}

/** The live static cohorts' ids: whose membership evaluation must be told of. */
export const staticCohortIds = (cohorts: ReadonlyArray<CohortBrief>): ReadonlySet<number> =>
  new Set(cohorts.filter((cohort) => cohort.is_static && !cohort.deleted).map((cohort) => cohort.id))

export interface CohortScope {
  readonly cohorts: CohortDefinitions
  /** The static cohorts, by id, whose list holds the person's distinct id. */
  readonly members: ReadonlySet<number>
  readonly sources: PropertySources
  readonly comparing: ComparisonScope
  /**
   * Verdicts of definitions already read for these sources in this evaluation: a cohort named many times
   * over, through others, is read once (PostHog's service reads each cohort once), so reading costs as
   * much as the distinct cohorts reached.
   */
  readonly known: Map<JsonRecord, Verdict>
}

/** Membership of the cohort a property names (`not_in` negates it). */
export const cohortVerdict = (
  property: { readonly value: unknown; readonly operator: string | null; readonly cohort_id: number | null },
  scope: CohortScope
): Verdict => {
  const ids = { sdk: String(property.value), service: property.cohort_id === null ? undefined : String(property.cohort_id) }
  const member = membership(ids, scope)
  // The SDK reads any operator but `not_in` as membership; the service matches only `in` (or none) and `not_in`.
  const sdk = member.sdk
  const operator = property.operator
  const service = operator === "not_in" ? !member.service : operator === null || operator === "in" ? member.service : false
  if (typeof sdk !== "boolean") return deferred(service, sdk)
  return decided(operator === "not_in" ? !sdk : sdk)
}

/** What a cohort neither decider can read gives: the SDK leaves the flag to the service, which counts no match. */
const UNREADABLE: Verdict = deferred(false, "server")

/** A definition's verdict, read once per evaluation: it is the same wherever the definition is named. */
const definitionVerdict = (definition: JsonRecord, scope: CohortScope): Verdict => {
  const known = scope.known.get(definition)
  if (known !== undefined) return known
  const verdict = cohortReading(scope.cohorts).unreadable(definition) ? UNREADABLE : groupVerdict(definition, scope)
  scope.known.set(definition, verdict)
  return verdict
}

/** Membership of a cohort, by the id each decider looks it up by. */
const membership = (ids: NamedIds, scope: CohortScope): Verdict => {
  const definition = scope.cohorts.get(ids.sdk)
  const serviceDefinition = ids.service === undefined ? undefined : scope.cohorts.get(ids.service)
  const verdict = definition === undefined ? undefined : definitionVerdict(definition, scope)
  // A cohort without a definition is a static one (its list holds the person or not), or unknown.
  const service = serviceDefinition === undefined
    ? ids.service !== undefined && scope.members.has(Number(ids.service))
    : serviceDefinition === definition ? verdict!.service : definitionVerdict(serviceDefinition, scope).service
  if (verdict === undefined) return deferred(service, "server")
  return typeof verdict.sdk === "boolean" ? decided(verdict.sdk) : deferred(service, verdict.sdk)
}

/** The operator a leaf that is a property filter compares with: `exact` when it names none. */
export const leafOperator = (leaf: JsonRecord): string => {
  const operator = leaf["operator"]
  return typeof operator === "string" && operator !== "" ? operator : "exact"
}

/**
 * Every leaf of the definitions that is a property filter, however deep (walked with a stack of its own,
 * as a stored definition may be nested past what a call stack holds).
 */
export const cohortLeafFilters = (definitions: CohortDefinitions): ReadonlyArray<JsonRecord> => {
  const filters: Array<JsonRecord> = []
  const stack = [...new Set(definitions.values())]
  const seen = new Set<JsonRecord>()
  while (stack.length > 0) {
    const group = stack.pop()!
    if (seen.has(group)) continue
    seen.add(group)
    const shape = groupShape(group)
    if (shape.kind !== "read") continue
    for (const value of shape.values) {
      if (shape.nested) stack.push(value)
      else if (value["type"] !== "cohort" && value["type"] !== "flag") filters.push(value)
    }
  }
  return filters
}

/**
 * A leaf of a group: a property filter, a nested cohort, or a flag (which cohort definitions carry no
 * chain for). `all` is whether its group is an AND.
 */
const leafVerdict = (leaf: JsonRecord, scope: CohortScope, all: boolean): Verdict => {
  let verdict: Verdict
  if (leaf["type"] === "cohort") {
    verdict = membership(namedIds(leaf["value"]), scope)
    if (leaf["operator"] === "not_in") verdict = not(verdict)
  } else if (leaf["type"] === "flag") {
    verdict = deferred(false)
  } else {
    const comparison: Comparison = { key: String(leaf["key"]), operator: leafOperator(leaf), value: leaf["value"] }
    verdict = compare(comparison, scope.sources, scope.comparing)
  }
  if (leaf["negation"] !== true) return verdict
  const negated = not(verdict)
  // The service negates a cohort filter only in an AND group; in an OR group it reads plain membership.
  return leaf["type"] === "cohort" && !all ? { sdk: negated.sdk, service: verdict.service } : negated
}

/**
 * A group of the definition. The SDK stops at the first verdict that decides the group, stops at once
 * when it must ask the service, and otherwise leaves an undecided group undecided; the service reads
 * every leaf it reaches. A definition that goes deeper than `MAX_COHORT_DEPTH` is not read at all
 * (`definitionVerdict`), so the recursion is bounded.
 */
const groupVerdict = (group: JsonRecord, scope: CohortScope): Verdict => {
  const shape = groupShape(group)
  if (shape.kind === "empty") return decided(true)
  if (shape.kind === "unread") return deferred(false, "server")
  const { all, nested, values } = shape
  let inconclusive = false
  let sdk: boolean | "server" | undefined
  let service = all
  for (const value of values) {
    const verdict = nested ? groupVerdict(value, scope) : leafVerdict(value, scope, all)
    service = all ? service && verdict.service : service || verdict.service
    if (sdk !== undefined) continue
    if (verdict.sdk === "server") sdk = "server"
    else if (verdict.sdk === "inconclusive") inconclusive = true
    else if (verdict.sdk !== all) sdk = verdict.sdk
  }
  if (sdk === undefined) return inconclusive ? deferred(service) : decided(all)
  return sdk === "server" ? deferred(service, "server") : decided(sdk)
}
