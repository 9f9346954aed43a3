import type { Cohort } from "../cohorts/model.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { type Comparison, compare, type PropertySources } from "./operators.ts"
import type { CohortDefinitions } from "./prepare.ts"
import { decided, deferred, not, type Verdict } from "./verdict.ts"

/**
 * Cohort properties. Hedgerow keeps no persons, so a static cohort has no members; a dynamic cohort's
 * members are those whose properties (as the request carries them) satisfy its definition, a tree of
 * AND/OR groups whose leaves are property filters, each optionally negated, or other cohorts. The
 * SDK evaluates what the definitions give it and asks the service about a cohort they lack (a static
 * one); the service, which has every definition here, counts a cohort it cannot read as no match.
 */

/** The definitions posthog-node is given: every dynamic, live cohort, from its filters or legacy groups. */
export const cohortDefinitions = (cohorts: ReadonlyArray<Cohort>): CohortDefinitions => {
  const definitions = new Map<string, JsonRecord>()
  for (const cohort of cohorts) {
    if (cohort.deleted || cohort.is_static) continue
    const definition = definitionOf(cohort)
    if (definition !== undefined) definitions.set(String(cohort.id), definition)
  }
  return definitions
}

/** PostHog reads `filters.properties`, or else each legacy group as an AND of its properties, ORed. */
const definitionOf = (cohort: Cohort): JsonRecord | undefined => {
  if (isRecord(cohort.filters) && isRecord(cohort.filters["properties"])) return cohort.filters["properties"]
  if (!Array.isArray(cohort.groups)) return undefined
  const values = cohort.groups.flatMap((group) =>
    isRecord(group) && Array.isArray(group["properties"]) ? [{ type: "AND", values: group["properties"] }] : [])
  return values.length === 0 ? undefined : { type: "OR", values }
}

export interface CohortScope {
  readonly cohorts: CohortDefinitions
  readonly sources: PropertySources
  readonly now: Date
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
 * synchronously, so one set serves all).
 */
const reading = new Set<JsonRecord>()

const definitionVerdict = (definition: JsonRecord, scope: CohortScope, depth: number): Verdict => {
  if (reading.has(definition)) return deferred(false, "server")
  reading.add(definition)
  try {
    return groupVerdict(definition, scope, depth)
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
  const service = serviceDefinition === undefined
    ? false
    : serviceDefinition === definition ? verdict!.service : definitionVerdict(serviceDefinition, scope, depth).service
  if (verdict === undefined) return deferred(service, "server")
  return typeof verdict.sdk === "boolean" ? decided(verdict.sdk) : deferred(service, verdict.sdk)
}

const integerText = (value: unknown): string | undefined => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : ""
  return /^[+-]?\d+$/.test(text) ? String(Number(text)) : undefined
}

/** A leaf: a property filter, a nested cohort, or a flag (which cohort definitions carry no chain for). */
const leafVerdict = (leaf: JsonRecord, scope: CohortScope, depth: number): Verdict => {
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
    verdict = compare(comparison, scope.sources, scope.now)
  }
  return leaf["negation"] === true ? not(verdict) : verdict
}

/** Deeper than any definition PostHog makes: the stack stays safe. */
const MAX_DEPTH = 100

/**
 * A group of the definition. The SDK stops at the first verdict that decides the group, stops at once
 * when it must ask the service, and otherwise leaves an undecided group undecided; the service reads
 * every leaf it reaches.
 */
const groupVerdict = (group: JsonRecord, scope: CohortScope, depth: number): Verdict => {
  if (depth > MAX_DEPTH) return deferred(false, "server")
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
    const verdict = nested ? groupVerdict(value, scope, depth + 1) : leafVerdict(value, scope, depth)
    service = all ? service && verdict.service : service || verdict.service
    if (sdk !== undefined) continue
    if (verdict.sdk === "server") sdk = "server"
    else if (verdict.sdk === "inconclusive") inconclusive = true
    else if (verdict.sdk !== all) sdk = verdict.sdk
  }
  if (sdk === undefined) return inconclusive ? deferred(service) : decided(all)
  return sdk === "server" ? deferred(service, "server") : decided(sdk)
}
