import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { distinctIdsOfCsv } from "../src/cohorts/csv.ts"
import { readCohortFilters } from "../src/cohorts/filters.ts"
import type { EvaluationContext } from "../src/evaluation/context.ts"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import { type CohortDefinitions, prepareFlags } from "../src/evaluation/prepare.ts"
import type { JsonRecord } from "../src/shared/fields.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { storedFlag } from "./stored-flag.ts"

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
    const started = performance.now()
    assert.isTrue(valueFor(onCohort(1), cohorts, { person_properties: { plan: "pro" } }))
    assert.isFalse(valueFor(onCohort(1), cohorts, { person_properties: { plan: "free" } }))
    assert.isBelow(performance.now() - started, 200)
  })

  it("reading a large upload yields to the event loop: no slice of it holds the loop long", async () => {
    const csv = new TextEncoder().encode(Array.from({ length: 100_000 }, (_, i) => `user-${i}-${"x".repeat(40)}`).join("\n"))
    // The event loop's thread's CPU time between two of its turns: what the reading did, whatever else the machine does.
    const slices: Array<number> = []
    let last = process.threadCpuUsage()
    const timer = setInterval(() => {
      const spent = process.threadCpuUsage(last)
      slices.push((spent.user + spent.system) / 1000)
      last = process.threadCpuUsage()
    }, 1)
    const ids = await Effect.runPromise(distinctIdsOfCsv(csv))
    clearInterval(timer)
    assert.strictEqual(ids.length, 100_000)
    assert.isAbove(slices.length, 10)
    assert.isBelow([...slices].sort((a, b) => a - b)[Math.floor(slices.length * 0.95)]!, 15)
    const over = new TextEncoder().encode(Array.from({ length: 100_001 }, (_, i) => `u${i}`).join("\n"))
    const refused = await Effect.runPromise(Effect.result(distinctIdsOfCsv(over)))
    assert.isTrue(Result.isFailure(refused))
  })

  it("a filter tree a megabyte wide is read in a few milliseconds", () => {
    const leaves = Array.from({ length: 10_000 }, (_, i) => ({ type: "person", key: `k${i}`, value: "v".repeat(60), operator: "exact" }))
    const started = performance.now()
    const read = readCohortFilters({ properties: group("OR", group("AND", ...leaves)) })
    assert.notInstanceOf(read, Error)
    assert.isBelow(performance.now() - started, 100)
  })
})
