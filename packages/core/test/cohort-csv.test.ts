import { assert, describe, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { distinctIdsOfCsv } from "../src/cohorts/csv.ts"
import { addedMembers } from "../src/cohorts/members.ts"
import { MAX_DISTINCT_ID_LENGTH, readDistinctId } from "../src/shared/distinct-id.ts"
import type { ValidationError } from "../src/shared/errors.ts"
import { p95, threadSlices } from "./thread-slices.ts"
import { paced } from "./machine-pace.ts"

/** A static cohort's CSV against files shaped to cost: each is read in slices, or refused early and briefly. */

const encode = (text: string) => new TextEncoder().encode(text)

const read = (text: string) => threadSlices(() => Effect.runPromise(Effect.result(distinctIdsOfCsv(encode(text)))))

const refusal = (result: Result.Result<ReadonlyArray<string>, ValidationError>) => {
  assert.isTrue(Result.isFailure(result))
  return Result.isFailure(result) ? { attr: result.failure.attr, detail: result.failure.detail } : undefined
}

const EIGHT_MIB = 8 * 1024 * 1024

describe("a static cohort's CSV", () => {
  it("a large upload is read in slices: no slice of it holds the loop long", async () => {
    const csv = Array.from({ length: 100_000 }, (_, i) => `user-${i}-${"x".repeat(40)}`).join("\n")
    const { result, slices } = await read(csv)
    assert.strictEqual(Result.isSuccess(result) && result.success.length, 100_000)
    assert.isAbove(slices.length, 10)
    assert.isBelow(p95(slices), paced(15))
    const over = await read(Array.from({ length: 100_001 }, (_, i) => `u${i}`).join("\n"))
    assert.isTrue(Result.isFailure(over.result))
  })

  it("8 MiB of blank lines is read in slices too: blank rows count toward a slice", async () => {
    const { result, slices } = await read(`distinct_id,name\n${"\n".repeat(EIGHT_MIB - 100)}anna,Anna\n`)
    assert.deepStrictEqual(Result.isSuccess(result) && result.success, ["anna"])
    assert.isBelow(p95(slices), paced(15))
    assert.isBelow(Math.max(...slices), paced(40))
  })

  it("one line of 8 MiB is refused once past a row's bound, without reading the rest", async () => {
    const { result, slices } = await read("a,".repeat(EIGHT_MIB / 2))
    assert.deepStrictEqual(refusal(result), { attr: "csv", detail: "A CSV row may have at most 1,048,576 characters; row 1 has more." })
    assert.isBelow(slices.reduce((sum, slice) => sum + slice, 0), paced(100))
    assert.isBelow(Math.max(...slices), paced(40))
  })

  it("a row of more than 1,000 columns is refused; a row of 1,000 is read", async () => {
    const header = (columns: number) => Array.from({ length: columns }, (_, i) => (i === columns - 1 ? "distinct_id" : `c${i}`)).join(",")
    const { result } = await read(`${header(1001)}\n${",".repeat(1000)}anna\n`)
    assert.deepStrictEqual(refusal(result), { attr: "csv", detail: "A CSV row may have at most 1,000 columns; row 1 has more." })
    const taken = await read(`${header(1000)}\n${",".repeat(999)}anna\n`)
    assert.deepStrictEqual(Result.isSuccess(taken.result) && taken.result.success, ["anna"])
  })

  it("a header without an id column is named in a short message, not echoed whole", async () => {
    const columns = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(1000, "c"))
    const { result, slices } = await read(`${columns.join(",")}\nanna\n`)
    const refused = refusal(result)!
    assert.isBelow(refused.detail.length, 1400)
    assert.isTrue(refused.detail.startsWith("Multi-column CSV must contain at least one column with a supported ID header"))
    assert.isTrue(refused.detail.endsWith("..., and 980 more"))
    assert.isBelow(Math.max(...slices), paced(40))
    const few = await read("name, age ,\nAnna,3\n")
    assert.isTrue(refusal(few.result)!.detail.endsWith("Found columns: name,  age "))
  })

  it("a member has at most 200 characters, counted as /flags counts them: what it takes, /flags reads whole", async () => {
    const longest = "🙂".repeat(MAX_DISTINCT_ID_LENGTH)
    const { result } = await read(`${longest}\n`)
    assert.deepStrictEqual(Result.isSuccess(result) && result.success, [longest])
    assert.strictEqual(readDistinctId(`${longest}🙂`), longest)
    assert.deepStrictEqual(refusal((await read(`anna\n${"x".repeat(201)}\n`)).result), {
      attr: "csv",
      detail: "A distinct ID may have at most 200 characters; row 2 of the CSV has more."
    })
    assert.deepStrictEqual(addedMembers({ person_ids: [longest, 7] }), [longest, "7"])
    const refused = addedMembers({ person_ids: ["anna", `${longest}🙂`] })
    assert.deepStrictEqual({ detail: (refused as ValidationError).detail }, {
      detail: "A distinct ID may have at most 200 characters; item 1 of person_ids has more."
    })
  })
})
