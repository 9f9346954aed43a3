import { assert, describe, it } from "@effect/vitest"
import type { FlagResult } from "../src/evaluation/evaluate.ts"
import { reasonOf } from "../src/evaluation/reasons.ts"
import { type FlagsAnswer, type FlagsFormat, flagsResponse, flagsResponseText } from "../src/flag-evaluation/answers.ts"

const result = (fields: Partial<FlagResult> & Pick<FlagResult, "key" | "id">): FlagResult => ({
  version: 1,
  enabled: false,
  variant: null,
  payload: null,
  reason: reasonOf("no_condition_match", null),
  ...fields
})

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

  it("changes with the flag's version and outcome, never served from an older entry", () => {
    const before = flagsResponseText(answerOf([result({ key: "f", id: 9, enabled: true, reason: reasonOf("condition_match", 0), payload: "1" })], "r"), "v2")
    const after = flagsResponseText(answerOf([result({ key: "f", id: 9, version: 2, enabled: true, reason: reasonOf("condition_match", 0), payload: "2" })], "r"), "v2")
    assert.strictEqual(JSON.parse(before).flags.f.metadata.payload, "1")
    assert.strictEqual(JSON.parse(after).flags.f.metadata.payload, "2")
  })
})
