import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { characters, Email, longerThan, maxLength, minLength } from "../src/shared/fields.ts"
import { decodeInput, pythonStr } from "../src/shared/validation.ts"

const decodeEmail = decodeInput(Schema.Struct({ email: Email }))
const emailFailure = (email: string) =>
  Effect.runSync(decodeEmail({ email }).pipe(Effect.flip, Effect.map(({ code, detail }) => ({ code, detail }))))

describe("review regressions in shared fields", () => {
  it("e-mail checking is linear: a 1 MiB `a.a.a.…` is refused by its length at once", () => {
    const started = performance.now()
    assert.deepStrictEqual(emailFailure(`a@${"a.".repeat(500_000)}@`), {
      code: "max_length",
      detail: "Ensure this field has no more than 254 characters."
    })
    // Just under the limit, the address pattern itself must not backtrack either.
    assert.deepStrictEqual(emailFailure(`a@${"a.".repeat(125)}@`), { code: "invalid_input", detail: "Enter a valid email address." })
    assert.isBelow(performance.now() - started, 1000)
  })

  it("e-mail: labels may not be empty; a valid address passes", () => {
    for (const email of ["a@b..co", "a@.b.co", "a@b.co.", "a@b"]) {
      assert.deepStrictEqual(emailFailure(email), { code: "invalid_input", detail: "Enter a valid email address." })
    }
    assert.deepStrictEqual(Effect.runSync(decodeEmail({ email: "First.Last+tag@sub.example.co" })), { email: "First.Last+tag@sub.example.co" })
  })

  it("lengths are counted in characters (code points), as Python counts them", () => {
    assert.strictEqual(characters("😀😀a"), 3)
    assert.strictEqual(characters("\ud800x"), 2)
    const check = Schema.decodeUnknownResult(Schema.String.check(maxLength(2)))
    assert.isTrue(check("😀😀")._tag === "Success")
    assert.isTrue(check("😀😀😀")._tag === "Failure")
    // The length decides alone outside max..2×max units; between, the characters are counted.
    assert.isFalse(longerThan("ab", 2))
    assert.isTrue(longerThan("abcde", 2))
    assert.isFalse(longerThan("😀😀", 2))
    assert.isTrue(longerThan("😀a", 1))
    assert.isTrue(longerThan("😀😀😀", 2))
    assert.isFalse(longerThan("", 0))
    assert.isTrue(longerThan("a", 0))
    assert.isTrue(longerThan("a".repeat(1_000_000), 254))
    const atLeast = Schema.decodeUnknownResult(Schema.String.check(minLength(2)))
    assert.isTrue(atLeast("😀😀")._tag === "Success")
    assert.isTrue(atLeast("😀")._tag === "Failure")
    assert.isTrue(atLeast("ab")._tag === "Success")
  })

  it("refused values are quoted with Python's str()", () => {
    assert.strictEqual(pythonStr(true), "True")
    assert.strictEqual(pythonStr(null), "None")
    assert.strictEqual(pythonStr("plain"), "plain")
    assert.strictEqual(pythonStr([8, "x", false]), "[8, 'x', False]")
    assert.strictEqual(pythonStr({ a: { b: ["it's"] } }), "{'a': {'b': [\"it's\"]}}")
    // Hostile nesting and size are cut short rather than echoed whole.
    assert.strictEqual(pythonStr(JSON.parse("[".repeat(50) + "]".repeat(50))), "[[[[[[[[...]]]]]]]]")
    assert.isAtMost(pythonStr(Array.from({ length: 100_000 }, (_, i) => i)).length, 1003)
  })
})
