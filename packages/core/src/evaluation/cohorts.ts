import type { Cohort } from "../cohorts/model.ts"
import { cohortIdOf, cohortProperties } from "../cohorts/properties.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { type Comparison, compare, type ComparisonScope, type PropertySources } from "./operators.ts"
import type { CohortDefinitions } from "./prepare.ts"
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
export const cohortDefinitions = (cohorts: ReadonlyArray<Cohort>): CohortDefinitions => {
  const definitions = new Map<string, JsonRecord>()
  for (const cohort of cohorts) {
    if (cohort.deleted || cohort.is_static) continue
    const definition = cohortProperties(cohort)
    if (definition !== undefined) definitions.set(String(cohort.id), definition)
  }
  return definitions
}

/** The live static cohorts' ids: whose membership evaluation must be told of. */
export const staticCohortIds = (cohorts: ReadonlyArray<Cohort>): ReadonlySet<number> =>
  new Set(cohorts.filter((cohort) => cohort.is_static && !cohort.deleted).map((cohort) => cohort.id as number))

export interface CohortScope {
  readonly cohorts: CohortDefinitions
  /** The static cohorts, by id, whose list holds the person's distinct id. */
  readonly members: ReadonlySet<number>
  readonly sources: PropertySources
  readonly comparing: ComparisonScope
  /**
   * Verdicts of definitions already read for these sources in this evaluation: cohorts naming one
   * cohort many times over, through others, read it once (PostHog's service reads each cohort once).
   */
  readonly known: Map<JsonRecord, Verdict>
}

/** Membership of the cohort a property names (`not_in` negates it). */
export const cohortVerdict = (
  property: { readonly value: unknown; readonly operator: string | null; readonly cohort_id: number | null },
  scope: CohortScope
): Verdict => {
  const member = membership(String(property.value), property.cohort_id === null ? undefined : String(property.cohort_id), scope, 0)
  // The SDK reads any operator but `not_in` as membership; the service matches only `in` (or none) and `not_in`.
  const sdk = member.sdk
  const operator = property.operator
  const service = operator === "not_in" ? !member.service : operator === null || operator === "in" ? member.service : false
  if (typeof sdk !== "boolean") return deferred(service, sdk)
  return decided(operator === "not_in" ? !sdk : sdk)
}

/**
 * Cohorts being read, so that cohorts containing each other end, as no match (an evaluation runs
 * synchronously, so one set serves all), and how many times a reading was cut short so (or by depth):
 * a verdict reached through a cut depends on its path, and is not kept.
 */
const reading = new Set<JsonRecord>()
let cuts = 0

const definitionVerdict = (definition: JsonRecord, scope: CohortScope, depth: number): Verdict => {
  const known = scope.known.get(definition)
  if (known !== undefined) return known
  if (reading.has(definition)) {
    cuts++
    return deferred(false, "server")
  }
  reading.add(definition)
  const before = cuts
  try {
    const verdict = groupVerdict(definition, scope, depth)
    if (cuts === before) scope.known.set(definition, verdict)
    return verdict
  } finally {
    reading.delete(definition)
  }
}

/** `sdkId` is the id as the SDK looks it up (the value as text), `serviceId` as the service reads it (an integer). */
const membership = (sdkId: string, serviceId: string | undefined, scope: CohortScope, depth: number): Verdict => {
  const definition = scope.cohorts.get(sdkId)
  const serviceDefinition = serviceId === undefined ? undefined : scope.cohorts.get(serviceId)
  const verdict = definition === undefined ? undefined : definitionVerdict(definition, scope, depth)
  // Both read the same definition unless the id is written oddly (" 5").
  // A cohort without a definition is a static one (its list holds the person or not), or unknown.
  const service = serviceDefinition === undefined
    ? serviceId !== undefined && scope.members.has(Number(serviceId))
    : serviceDefinition === definition ? verdict!.service : definitionVerdict(serviceDefinition, scope, depth).service
  if (verdict === undefined) return deferred(service, "server")
  return typeof verdict.sdk === "boolean" ? decided(verdict.sdk) : deferred(service, verdict.sdk)
}

const integerText = (value: unknown): string | undefined => {
  const id = cohortIdOf(value)
  return id === undefined ? undefined : String(id)
}

/**
 * A leaf of a group: a property filter, a nested cohort, or a flag (which cohort definitions carry no
 * chain for). `all` is whether its group is an AND.
 */
const leafVerdict = (leaf: JsonRecord, scope: CohortScope, depth: number, all: boolean): Verdict => {
  let verdict: Verdict
  if (leaf["type"] === "cohort") {
    verdict = membership(String(leaf["value"]), integerText(leaf["value"]), scope, depth + 1)
    if (leaf["operator"] === "not_in") verdict = not(verdict)
  } else if (leaf["type"] === "flag") {
    verdict = deferred(false)
  } else {
    const operator = leaf["operator"]
    const comparison: Comparison = {
      key: String(leaf["key"]),
      operator: typeof operator === "string" && operator !== "" ? operator : "exact",
      value: leaf["value"]
    }
    verdict = compare(comparison, scope.sources, scope.comparing)
  }
  if (leaf["negation"] !== true) return verdict
  const negated = not(verdict)
  // The service negates a cohort filter only in an AND group; in an OR group it reads plain membership.
  return leaf["type"] === "cohort" && !all ? { sdk: negated.sdk, service: verdict.service } : negated
}

/** Deeper than any definition PostHog makes: the stack stays safe. */
const MAX_DEPTH = 100

/**
 * A group of the definition. The SDK stops at the first verdict that decides the group, stops at once
 * when it must ask the service, and otherwise leaves an undecided group undecided; the service reads
 * every leaf it reaches.
 */
const groupVerdict = (group: JsonRecord, scope: CohortScope, depth: number): Verdict => {
  if (depth > MAX_DEPTH) {
    cuts++
    return deferred(false, "server")
  }
  if (Object.keys(group).length === 0) return decided(true)
  const type = group["type"] === "property" ? "AND" : group["type"]
  const values = Array.isArray(group["values"]) ? group["values"].filter(isRecord) : []
  if (type !== "AND" && type !== "OR") return deferred(false, "server")
  const all = type === "AND"
  const nested = values.length > 0 && "values" in values[0]!
  let inconclusive = false
  let sdk: boolean | "server" | undefined
  let service = all
  for (const value of values) {
    const verdict = nested ? groupVerdict(value, scope, depth + 1) : leafVerdict(value, scope, depth, all)
    service = all ? service && verdict.service : service || verdict.service
    if (sdk !== undefined) continue
    if (verdict.sdk === "server") sdk = "server"
    else if (verdict.sdk === "inconclusive") inconclusive = true
    else if (verdict.sdk !== all) sdk = verdict.sdk
  }
  if (sdk === undefined) return inconclusive ? deferred(service) : decided(all)
  return sdk === "server" ? deferred(service, "server") : decided(sdk)
}
