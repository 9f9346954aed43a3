import { assert, describe, it } from "@effect/vitest"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import type { FlagResult } from "../src/evaluation/model.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { reasonOf } from "../src/evaluation/reasons.ts"
import { type FlagsAnswer, type FlagsFormat, flagsResponse, flagsResponseJson } from "../src/flag-evaluation/answers.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { storedFlag } from "./stored-flag.ts"

const result = (fields: Partial<FlagResult> & Pick<FlagResult, "key" | "id">): FlagResult => ({
  version: 1,
  enabled: false,
  variant: null,
  payload: null,
  reason: reasonOf("no_condition_match", null),
  ...fields
})

/** The answer's JSON as text. */
const flagsResponseText = (answer: FlagsAnswer, format: FlagsFormat) => flagsResponseJson(answer, format).toString("utf8")

const answerOf = (flags: ReadonlyArray<FlagResult>, requestId: string): FlagsAnswer => ({
  flags,
  errorsWhileComputingFlags: false,
  requestId,
  evaluatedAt: 1_790_000_000_000
})

describe("a flags answer as text", () => {
  it("is the JSON of the answer's object in every shape, entries made once or found again", () => {
    const flags = [
      result({ key: "on", id: 1, enabled: true, reason: reasonOf("condition_match", 0), payload: "{\"a\": 1}" }),
      result({ key: "variant \"quoted\" é", id: 2, enabled: true, variant: "test", reason: reasonOf("condition_match", 2) }),
      result({ key: "off", id: 3, reason: reasonOf("out_of_rollout_bound", 0) }),
      result({ key: "groups", id: 4, reason: reasonOf("groups_not_evaluated", null) }),
      result({ key: "__proto__", id: 5, version: 7, enabled: true, reason: reasonOf("condition_match", 0) })
    ]
    for (const format of ["v2", "legacy", "decideV1", "decideV2"] satisfies ReadonlyArray<FlagsFormat>) {
      for (const requestId of ["first", "again"]) {
        const answer = answerOf(flags, requestId)
        assert.deepStrictEqual(JSON.parse(flagsResponseText(answer, format)), JSON.parse(JSON.stringify(flagsResponse(answer, format))))
      }
    }
    // The v2 text keeps the answer's order and every key, `__proto__` too, which an object literal's assignment would drop.
    const text = flagsResponseText(answerOf(flags, "order"), "v2")
    assert.deepStrictEqual(Object.keys(JSON.parse(text).flags), flags.map((flag) => flag.key))
    assert.isTrue(text.startsWith("{\"errorsWhileComputingFlags\":false,\"flags\":{\"on\":{\"key\":\"on\",\"enabled\":true"))
  })

  it("is made once per flag and outcome: the same outcome is the same result, a changed flag gives new ones", () => {
    const filters = { groups: [{ properties: [], rollout_percentage: 50 }], payloads: { true: "1" } }
    const first = prepareFlags([storedFlag({ id: 9 as FeatureFlagId, key: "f", filters })])
    const evaluate = (prepared: typeof first, distinct_id: string) => resultsByKey(evaluateFlags(prepared, { distinct_id })).get("f")!
    const people = Array.from({ length: 40 }, (_, i) => `person-${i}`)
    const results = new Set(people.map((person) => evaluate(first, person)))
    // Two outcomes (in and out of the rollout), each one object however many people get it.
    assert.deepStrictEqual([...results].map((result) => result.enabled).sort(), [false, true])
    const on = [...results].find((result) => result.enabled)!
    const before = flagsResponseText(answerOf([on], "r"), "v2")
    assert.strictEqual(flagsResponseText(answerOf([on], "again"), "v2"), before.replace("\"r\"", "\"again\""))

    // The flag changed is another stored record: its results and their text are new.
    const changed = prepareFlags([storedFlag({ id: 9 as FeatureFlagId, key: "f", version: 2, filters: { ...filters, payloads: { true: "2" } } })])
    const after = evaluate(changed, people.find((person) => evaluate(first, person) === on)!)
    assert.notStrictEqual(after, on)
    assert.strictEqual(JSON.parse(flagsResponseText(answerOf([after], "r"), "v2")).flags.f.metadata.payload, "2")
    assert.strictEqual(JSON.parse(before).flags.f.metadata.payload, "1")
  })
})
