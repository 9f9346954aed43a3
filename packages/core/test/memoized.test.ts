import { assert, describe, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { Freshness, freshnessLayer } from "../src/read-model/freshness.ts"
import { memoized } from "../src/read-model/memoized.ts"

/** A live freshness (as a store's change feed makes it) and a lookup that counts its reads of the store. */
const setup = () => {
  const freshness = Effect.runSync(Effect.service(Freshness))
  freshness.resumed()
  let reads = 0
  const lookup = memoized(
    freshness,
    (id: string) => Effect.sync(() => (reads++, Option.some({ id, text: "x".repeat(1000) }))),
    { name: "flags", reads: ["feature_flags"] }
  )
  const get = (id: string) => Effect.runSync(lookup(id)).pipe(Option.getOrThrow)
  return { freshness, get, reads: () => reads }
}

/** The engine's collector, run by hand, so that a test can tell whether anything still holds a value. */
const collectGarbage = (): void => {
  setFlagsFromString("--expose-gc")
  ;(runInNewContext("gc") as () => void)()
}

describe("a memoized lookup", () => {
  it("serves a value from memory until its table changes, then reads it again", () => {
    const { freshness, get, reads } = setup()
    const first = get("a")
    assert.strictEqual(get("a"), first)
    assert.strictEqual(reads(), 1)
    freshness.changed(["feature_flags:1:1"])
    assert.notStrictEqual(get("a"), first)
    assert.strictEqual(reads(), 2)
  })

  it("lets go of every value of an older version once a newer one is seen, whichever key is asked for", async () => {
    const { freshness, get } = setup()
    const old = new WeakRef(get("a"))
    freshness.changed(["feature_flags:1:1"])
    get("b")
    // A WeakRef holds its value until the current job ends.
    await new Promise((resolve) => setTimeout(resolve, 0))
    collectGarbage()
    assert.isUndefined(old.deref())
  })

  it("tells a store's freshness how many entries it holds, by its name, as they come and go", () => {
    const freshness = Effect.runSync(Effect.service(Freshness).pipe(Effect.provide(freshnessLayer)))
    freshness.resumed()
    const lookup = (name: string) => memoized(freshness, (id: string) => Effect.succeed(Option.some(id)), { name, reads: ["feature_flags"] })
    const flags = lookup("flags")
    const more = lookup("flags")
    const projects = lookup("projects")
    Effect.runSync(flags("a"))
    Effect.runSync(flags("b"))
    Effect.runSync(more("c"))
    Effect.runSync(projects("d"))
    assert.deepStrictEqual([...freshness.entries()], [["flags", 3], ["projects", 1]])
    // A change lets a lookup's old entries go when it is next asked: `flags` holds its new "a", `more` still "c".
    freshness.changed(["feature_flags"])
    Effect.runSync(flags("a"))
    assert.deepStrictEqual([...freshness.entries()], [["flags", 2], ["projects", 1]])
  })
})
