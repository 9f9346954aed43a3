import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { pageAndTotal } from "../src/repositories/paging.ts"

/** Rows of a 7-row table for a page, and whether the count query had to run. */
const run = (limit: number, offset: number) =>
  Effect.gen(function*() {
    let counted = false
    const table = [1, 2, 3, 4, 5, 6, 7]
    const { rows, total } = yield* pageAndTotal(
      { limit, offset },
      Effect.succeed(table.slice(offset, offset + limit)),
      Effect.sync(() => {
        counted = true
        return [{ n: table.length }]
      })
    )
    return { rows, total, counted }
  })

describe("pageAndTotal", () => {
  it.effect("a short, non-empty page is the last one: the total needs no count query", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* run(5, 5), { rows: [6, 7], total: 7, counted: false })
      assert.deepStrictEqual(yield* run(100, 0), { rows: [1, 2, 3, 4, 5, 6, 7], total: 7, counted: false })
    }))

  it.effect("a full page, or an empty one past the start, counts", () =>
    Effect.gen(function*() {
      assert.deepStrictEqual(yield* run(7, 0), { rows: [1, 2, 3, 4, 5, 6, 7], total: 7, counted: true })
      assert.deepStrictEqual(yield* run(3, 3), { rows: [4, 5, 6], total: 7, counted: true })
      assert.deepStrictEqual(yield* run(10, 50), { rows: [], total: 7, counted: true })
    }))
})
