import { assert, describe, it } from "@effect/vitest"
import { readCohortFilters } from "../src/cohorts/filters.ts"
import { cohortReading, MAX_COHORT_DEPTH } from "../src/evaluation/cohort-reading.ts"
import { type CohortScope, cohortVerdict } from "../src/evaluation/cohorts.ts"
import type { EvaluationContext } from "../src/evaluation/context.ts"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import type { CohortDefinitions } from "../src/evaluation/model.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { RegexBudget } from "../src/evaluation/regex-budget.ts"
import { CompiledPatterns } from "../src/evaluation/regex-patterns.ts"
import type { JsonRecord } from "../src/shared/fields.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { storedFlag } from "./stored-flag.ts"
import { paced } from "./machine-pace.ts"
import { threadMillis } from "./thread-slices.ts"

/** Cohorts in evaluation beyond the differential: static lists, the service's reading of them, and hostile definitions. */

const onCohort = (id: number, operator?: string) =>
  storedFlag({
    id: 1 as FeatureFlagId,
    key: "on-cohort",
    filters: { groups: [{ properties: [{ type: "cohort", key: "id", value: id, ...(operator === undefined ? {} : { operator }) }], rollout_percentage: 100 }] }
  })

const valueFor = (flag: ReturnType<typeof onCohort>, cohorts: CohortDefinitions, context: Partial<EvaluationContext>) =>
  resultsByKey(evaluateFlags(prepareFlags([flag], { cohorts }), { distinct_id: "user", ...context })).get(flag.key)?.enabled

const cohortLeaf = (id: number, negation = false) => ({ type: "cohort", key: "id", value: id, negation })
const group = (type: "AND" | "OR", ...values: ReadonlyArray<unknown>): JsonRecord => ({ type, values })

describe("cohorts in evaluation", () => {
  it("a static cohort is its list: a member is in, anyone else out, and not_in the other way round", () => {
    const members = new Set([4])
    assert.isTrue(valueFor(onCohort(4), new Map(), { cohort_members: members }))
    assert.isFalse(valueFor(onCohort(4), new Map(), {}))
    assert.isFalse(valueFor(onCohort(4, "not_in"), new Map(), { cohort_members: members }))
    assert.isTrue(valueFor(onCohort(4, "not_in"), new Map(), {}))
    // An id naming no cohort of the project is no match, whatever lists the person is on.
    assert.isFalse(valueFor(onCohort(5), new Map(), { cohort_members: members }))
  })

  it("the service negates a cohort filter in an AND group and reads plain membership in an OR group", () => {
    const inAnd = new Map([["7", group("AND", group("AND", cohortLeaf(4, true)))]])
    const inOr = new Map([["7", group("OR", group("OR", cohortLeaf(4, true)))]])
    const member = { cohort_members: new Set([4]) }
    assert.deepStrictEqual([valueFor(onCohort(7), inAnd, member), valueFor(onCohort(7), inAnd, {})], [false, true])
    assert.deepStrictEqual([valueFor(onCohort(7), inOr, member), valueFor(onCohort(7), inOr, {})], [true, false])
  })

  it("cohorts naming one another twice at each of 40 levels are read once each, not 2^40 times", () => {
    const cohorts = new Map<string, JsonRecord>()
    for (let level = 1; level < 40; level++) {
      cohorts.set(String(level), group("AND", group("AND", cohortLeaf(level + 1), cohortLeaf(level + 1))))
    }
    cohorts.set("40", group("AND", group("AND", { type: "person", key: "plan", value: "pro", operator: "exact", negation: false })))
    const started = threadMillis()
    assert.isTrue(valueFor(onCohort(1), cohorts, { person_properties: { plan: "pro" } }))
    assert.isFalse(valueFor(onCohort(1), cohorts, { person_properties: { plan: "free" } }))
    assert.isBelow(threadMillis() - started, paced(200))
  })

  /** Cohort `first`..`first + count - 1`, each naming the next; the last names `bottom`. */
  const chain = (cohorts: Map<string, JsonRecord>, first: number, count: number, bottom: number) => {
    for (let id = first; id < first + count; id++) {
      cohorts.set(String(id), group("AND", group("AND", cohortLeaf(id + 1 < first + count ? id + 1 : bottom))))
    }
  }

  /** `levels` cohorts from `first` up, each naming the one below twice (the lowest names `bottom` twice); answers the top's id. */
  const diamond = (cohorts: Map<string, JsonRecord>, first: number, levels: number, bottom: number) => {
    for (let level = 0; level < levels; level++) {
      const below = level === 0 ? bottom : first + level - 1
      cohorts.set(String(first + level), group("AND", group("AND", cohortLeaf(below), cohortLeaf(below))))
    }
    return first + levels - 1
  }

  const plan = (value: string) => ({ type: "person", key: "plan", value, operator: "exact", negation: false })

  const scopeOf = (cohorts: CohortDefinitions, properties: Record<string, unknown>): CohortScope => ({
    cohorts,
    members: new Set(),
    sources: { sdk: properties, service: properties },
    comparing: { now: new Date(), regex: new RegexBudget(), patterns: new CompiledPatterns([]) },
    known: new Map()
  })

  const verdictOf = (id: number, scope: CohortScope) => cohortVerdict({ value: id, operator: null, cohort_id: id }, scope)

  it("a diamond of 24 levels over a chain past the depth bound is read in milliseconds: each cohort once", () => {
    const cohorts = new Map<string, JsonRecord>()
    cohorts.set("1", group("AND", group("AND", plan("pro"))))
    // 55 cohorts of two levels each: 110 levels, past the bound.
    chain(cohorts, 2, 55, 1)
    const top = diamond(cohorts, 100, 24, 2)
    const started = threadMillis()
    for (const plan of ["pro", "free"]) {
      // Past the bound neither decider reads on: the SDK leaves the flag to the service, which counts no match.
      assert.deepStrictEqual(verdictOf(top, scopeOf(cohorts, { plan })), { sdk: "server", service: false })
      assert.isFalse(valueFor(onCohort(top), cohorts, { person_properties: { plan } }))
    }
    assert.isBelow(threadMillis() - started, paced(50))
  })

  it("a diamond of 24 levels over cohorts naming each other in a loop is read in milliseconds", () => {
    const cohorts = new Map<string, JsonRecord>()
    cohorts.set("1", group("AND", group("AND", cohortLeaf(2))))
    cohorts.set("2", group("AND", group("AND", cohortLeaf(1))))
    const top = diamond(cohorts, 10, 24, 1)
    const started = threadMillis()
    assert.deepStrictEqual(verdictOf(top, scopeOf(cohorts, {})), { sdk: "server", service: false })
    assert.isFalse(valueFor(onCohort(top), cohorts, {}))
    assert.isBelow(threadMillis() - started, paced(50))
  })

  it("a cohort reads the same wherever it is named: within the bound, through a loop, past the bound", () => {
    const cohorts = new Map<string, JsonRecord>()
    cohorts.set("1", group("AND", group("AND", plan("pro"))))
    // 49 cohorts of two levels over cohort 1: 99 levels from the top, within the bound; one more is past it.
    chain(cohorts, 2, 49, 1)
    cohorts.set("60", group("AND", group("AND", cohortLeaf(2))))
    const reading = cohortReading(cohorts)
    assert.strictEqual(reading.depth(cohorts.get("2")!), MAX_COHORT_DEPTH - 1)
    assert.isFalse(reading.unreadable(cohorts.get("2")!))
    assert.isTrue(reading.unreadable(cohorts.get("60")!))
    // Named from the top or from one further up, cohort 2 is read to its end and gives the same verdict.
    const scope = scopeOf(cohorts, { plan: "pro" })
    assert.deepStrictEqual(verdictOf(2, scope), { sdk: true, service: true })
    assert.deepStrictEqual(verdictOf(60, scope), { sdk: "server", service: false })
    assert.deepStrictEqual(verdictOf(2, scopeOf(cohorts, { plan: "pro" })), { sdk: true, service: true })
    // A group that decides before it comes to a cohort in a loop is decided, as posthog-node decides it;
    // one that comes to it first is left to the service, which counts the loop as no match.
    const looping = new Map<string, JsonRecord>([
      ["1", group("AND", group("AND", cohortLeaf(2)))],
      ["2", group("OR", group("OR", cohortLeaf(1)))],
      ["3", group("OR", group("OR", plan("pro"), cohortLeaf(1)))],
      ["4", group("OR", group("OR", cohortLeaf(1), plan("pro")))]
    ])
    assert.deepStrictEqual(verdictOf(3, scopeOf(looping, { plan: "pro" })), { sdk: true, service: true })
    assert.deepStrictEqual(verdictOf(4, scopeOf(looping, { plan: "pro" })), { sdk: "server", service: true })
    assert.deepStrictEqual(verdictOf(4, scopeOf(looping, { plan: "free" })), { sdk: "server", service: false })
  })

  it("a refusal of filters shows at most a short prefix of what was sent", () => {
    const long = "k".repeat(500_000)
    for (const filters of [
      { properties: group("AND"), [long]: 1 },
      { properties: group("AND", group("AND", { type: "person", key: "plan", value: "pro", operator: "exact", [long]: 1 })) }
    ]) {
      const refused = readCohortFilters(filters)
      assert.instanceOf(refused, Error)
      assert.isBelow((refused as Error & { detail: string }).detail.length, 1500)
    }
  })

  it("a filter tree a megabyte wide is read in a few milliseconds", () => {
    const leaves = Array.from({ length: 10_000 }, (_, i) => ({ type: "person", key: `k${i}`, value: "v".repeat(60), operator: "exact" }))
    const started = threadMillis()
    const read = readCohortFilters({ properties: group("OR", group("AND", ...leaves)) })
    assert.notInstanceOf(read, Error)
    assert.isBelow(threadMillis() - started, paced(100))
  })
})
