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

const answerOf = (flags: ReadonlyArray<FlagResult>, requestId: string, entryTexts = new Map<string, string>()): FlagsAnswer => ({
  flags,
  errorsWhileComputingFlags: false,
  requestId,
  evaluatedAt: 1_790_000_000_000,
  entryTexts
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
    const texts = new Map<string, string>()
    for (const format of ["v2", "legacy", "decideV1", "decideV2"] satisfies ReadonlyArray<FlagsFormat>) {
      for (const requestId of ["first", "again"]) {
        const answer = answerOf(flags, requestId, texts)
        assert.deepStrictEqual(JSON.parse(flagsResponseText(answer, format)), JSON.parse(JSON.stringify(flagsResponse(answer, format))))
      }
    }
    // The v2 text keeps the answer's order and every key, `__proto__` too, which an object literal's assignment would drop.
    const text = flagsResponseText(answerOf(flags, "order"), "v2")
    assert.deepStrictEqual(Object.keys(JSON.parse(text).flags), flags.map((flag) => flag.key))
    assert.isTrue(text.startsWith("{\"errorsWhileComputingFlags\":false,\"flags\":{\"on\":{\"key\":\"on\",\"enabled\":true"))
  })

  it("is made again for another state of the project, and for another outcome", () => {
    const on = result({ key: "f", id: 9, enabled: true, reason: reasonOf("condition_match", 0), payload: "1" })
    const texts = new Map<string, string>()
    const before = flagsResponseText(answerOf([on], "r", texts), "v2")
    // Another state of the project (a snapshot) comes with texts of its own.
    const after = flagsResponseText(answerOf([{ ...on, version: 2, payload: "2" }], "r"), "v2")
    const off = flagsResponseText(answerOf([{ ...on, enabled: false, reason: reasonOf("out_of_rollout_bound", 0), payload: null }], "r", texts), "v2")
    assert.strictEqual(JSON.parse(off).flags.f.enabled, false)
    assert.strictEqual(JSON.parse(before).flags.f.metadata.payload, "1")
    assert.strictEqual(JSON.parse(after).flags.f.metadata.payload, "2")
  })
})
