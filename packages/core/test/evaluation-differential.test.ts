import { assert, describe, it } from "@effect/vitest"
import { vi } from "vitest"
import { definitionFilters } from "../src/evaluation/definitions.ts"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { localClient } from "./posthog-local.ts"
import { COHORTS, generateFlags, generatePerson, GROUP_TYPES, INSTANTS, pick, random, sdkPayloadOf } from "./evaluation-cases.ts"

/**
 * Hedgerow's evaluator against posthog-node's own local evaluation, the SDK being the judge: generated
 * flags (every operator, variants with payloads and overrides, holdouts, mixed targeting, device
 * bucketing, cohorts, dependencies with cycles and missing flags, inactive and deleted flags) for
 * generated people. Wherever the SDK decides a flag locally, Hedgerow must give the same value and
 * payload. HEDGEROW_EVAL_PAIRS sets the number of (flag, person) pairs; HEDGEROW_EVAL_SEED the seed.
 */

const PAIRS = Number(process.env["HEDGEROW_EVAL_PAIRS"] ?? 20_000)
const SEED = Number(process.env["HEDGEROW_EVAL_SEED"] ?? 20_260_101)

describe("evaluation against posthog-node", () => {
  it(`agrees on every (flag, person) pair the SDK decides locally (${PAIRS} pairs)`, { timeout: 600_000 }, async () => {
    const next = random(SEED)
    // The SDK warns, once per load, about flags it leaves to the service; those are part of the design here.
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    const flags = generateFlags(next)
    const prepared = prepareFlags(flags, { cohorts: COHORTS, groupTypes: GROUP_TYPES })
    const client = localClient(prepared, Object.fromEntries(COHORTS))
    const people = Math.ceil(PAIRS / prepared.flags.length)
    let pairs = 0
    let decided = 0
    let mismatches = 0
    const examples: Array<string> = []
    const started = performance.now()
    const started0 = Date.now()
    vi.useFakeTimers({ toFake: ["Date"] })
    try {
      for (let i = 0; i < people; i++) {
        // The SDK reads the clock for relative dates: some people are evaluated at month ends.
        vi.setSystemTime(pick(next, INSTANTS) ?? started0)
        const person = generatePerson(next, i, Date.now())
        const local = await client.getAllFlagsAndPayloads(person.distinct_id, {
          personProperties: person.person_properties,
          groups: person.groups,
          groupProperties: person.group_properties,
          onlyEvaluateLocally: true
        })
        const device = person.person_properties["$device_id"]
        const ours = resultsByKey(evaluateFlags(prepared, {
          distinct_id: person.distinct_id,
          device_id: typeof device === "string" ? device : undefined,
          person_properties: person.person_properties,
          groups: person.groups,
          group_properties: person.group_properties,
          cohort_members: new Set(person.cohort_members),
          now: new Date()
        }))
        for (const flag of prepared.flags) {
          pairs++
          const decidedLocally = local.featureFlags ?? {}
          if (!(flag.key in decidedLocally)) continue
          decided++
          const result = ours.get(flag.key)
          const value = result === undefined ? undefined : result.variant ?? result.enabled
          const payload = result === undefined ? undefined : sdkPayloadOf(result)
          const theirs = decidedLocally[flag.key]
          const theirPayload = local.featureFlagPayloads?.[flag.key]
          if (value !== theirs || JSON.stringify(payload) !== JSON.stringify(theirPayload)) {
            mismatches++
            if (examples.length < 5) {
              examples.push(JSON.stringify({
                flag: flag.key,
                filters: definitionFilters(prepared, flag),
                active: flag.flag.active,
                bucketing: flag.flag.bucketing_identifier,
                person,
                sdk: [theirs, theirPayload],
                hedgerow: [value, payload, result?.reason]
              }))
            }
          }
        }
      }
    } finally {
      vi.useRealTimers()
      warn.mockRestore()
      await client.shutdown()
    }
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(`differential: ${pairs} pairs, ${decided} decided by posthog-node locally, ${mismatches} mismatches, ${seconds} s`)
    assert.deepStrictEqual(examples, [])
    assert.strictEqual(mismatches, 0)
    assert.isAbove(decided, pairs / 3)
  })
})
