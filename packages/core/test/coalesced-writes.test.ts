import { assert, it } from "@effect/vitest"
import { Effect, Option } from "effect"
import { coalescedFlagWrites } from "../src/feature-flags/management/coalesced-writes.ts"
import type { StoredFlag } from "../src/feature-flags/model.ts"
import { storedFlag } from "./stored-flag.ts"

/** A rename: the store's row is kept here, and each statement's changes are recorded. */
const renames = (fail: (names: ReadonlyArray<string>) => boolean = () => false) =>
  Effect.gen(function*() {
    let row = storedFlag()
    const statements: Array<ReadonlyArray<string>> = []
    const write = yield* coalescedFlagWrites<string>({
      apply: (current, name) => ({ ...current, name, version: current.version + 1 }),
      write: (base, names) =>
        Effect.suspend(() => {
          if (fail(names)) return Effect.die(new Error("the statement failed"))
          statements.push(names)
          if (base.version !== row.version) return Effect.succeed(Option.none<StoredFlag>())
          row = { ...base, name: names.at(-1)!, version: base.version + names.length }
          return Effect.succeed(Option.some(row))
        })
    })
    const rename = (name: string, author = "ann") =>
      write({ read: storedFlag(), author, change: (current) => (name === "skip" ? undefined : name) })
    return { rename, statements, row: () => row }
  })

it.effect("changes arriving together are one statement; each is answered its own row", () =>
  Effect.scoped(Effect.gen(function*() {
    const flag = yield* renames()
    const answers = yield* Effect.forEach(["a", "b", "c", "d"], (name) => flag.rename(name), { concurrency: "unbounded" })
    assert.deepStrictEqual(answers.map((answer) => Option.map(answer, (row) => [row.name, row.version])), [
      Option.some(["a", 2]), Option.some(["b", 3]), Option.some(["c", 4]), Option.some(["d", 5])
    ])
    assert.deepStrictEqual(flag.statements, [["a", "b", "c", "d"]])
  })))

it.effect("another author's change, and one that cannot be made here, are not written with the others", () =>
  Effect.scoped(Effect.gen(function*() {
    const flag = yield* renames()
    const answers = yield* Effect.forEach(
      [["a", "ann"], ["skip", "ann"], ["b", "ann"], ["c", "bob"]] as const,
      ([name, author]) => flag.rename(name, author),
      { concurrency: "unbounded" }
    )
    assert.deepStrictEqual(answers.map(Option.map((row) => row.name)), [Option.some("a"), Option.none(), Option.some("b"), Option.some("c")])
    assert.deepStrictEqual(flag.statements, [["a", "b"], ["c"]])
  })))

it.effect("a statement that fails answers none to each of its changes, and the flag can be written again", () =>
  Effect.scoped(Effect.gen(function*() {
    const flag = yield* renames((names) => names.includes("doomed"))
    const failed = yield* Effect.forEach(["doomed", "with it"], (name) => flag.rename(name), { concurrency: "unbounded" })
    assert.deepStrictEqual(failed, [Option.none(), Option.none()])
    const after = yield* flag.rename("fine")
    assert.deepStrictEqual(Option.map(after, (row) => row.name), Option.some("fine"))
  })))
