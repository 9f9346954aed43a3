import { assert, describe, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { Bool, Choice, Email, Integer, IntegerBetween, Text } from "../src/shared/fields.ts"
import { decodeInput } from "../src/shared/validation.ts"

const Input = Schema.Struct({
  name: Text({ max: 5 }),
  note: Schema.optionalKey(Schema.NullOr(Text({ max: 3, allowBlank: true }))),
  count: Schema.optionalKey(Integer),
  ratio: Schema.optionalKey(IntegerBetween(0, 100)),
  level: Schema.optionalKey(Choice([1, 8, 15])),
  email: Schema.optionalKey(Email),
  flag: Schema.optionalKey(Schema.Boolean),
  tags: Schema.optionalKey(Schema.Array(Text({ max: 2 }))),
  nested: Schema.optionalKey(Schema.Struct({ inner: Schema.String }))
})
const decode = decodeInput(Input)

const failure = (input: unknown) =>
  Effect.runSync(decode(input).pipe(Effect.flip, Effect.map(({ code, detail, attr }) => ({ code, detail, attr }))))

describe("decodeInput speaks Django REST framework", () => {
  it("passes valid input through and drops unknown keys, whatever they hold", () => {
    assert.deepStrictEqual(Effect.runSync(decode({ name: "ok", extra: 1, odd: "a\u0000b" })), { name: "ok" })
  })
  it.each([
    [{}, { code: "required", detail: "This field is required.", attr: "name" }],
    [{ name: null }, { code: "null", detail: "This field may not be null.", attr: "name" }],
    [{ name: "" }, { code: "blank", detail: "This field may not be blank.", attr: "name" }],
    [{ name: "toolong" }, { code: "max_length", detail: "Ensure this field has no more than 5 characters.", attr: "name" }],
    [{ name: 3 }, { code: "invalid_input", detail: "Not a valid string.", attr: "name" }],
    [{ name: "a", note: "long" }, { code: "max_length", detail: "Ensure this field has no more than 3 characters.", attr: "note" }],
    [{ name: "a", count: "x" }, { code: "invalid_input", detail: "A valid integer is required.", attr: "count" }],
    [{ name: "a", count: 1.5 }, { code: "invalid_input", detail: "A valid integer is required.", attr: "count" }],
    [{ name: "a", ratio: 101 }, { code: "max_value", detail: "Ensure this value is less than or equal to 100.", attr: "ratio" }],
    [{ name: "a", ratio: -1 }, { code: "min_value", detail: "Ensure this value is greater than or equal to 0.", attr: "ratio" }],
    [{ name: "a", level: 3 }, { code: "invalid_choice", detail: "\"3\" is not a valid choice.", attr: "level" }],
    [{ name: "a", email: "nope" }, { code: "invalid_input", detail: "Enter a valid email address.", attr: "email" }],
    [{ name: "a", flag: "yes" }, { code: "invalid_input", detail: "Must be a valid boolean.", attr: "flag" }],
    [{ name: "a", tags: "x" }, { code: "not_a_list", detail: "Expected a list of items but got type \"str\".", attr: "tags" }],
    [{ name: "a", tags: ["ok", "bad"] }, { code: "max_length", detail: "Ensure this field has no more than 2 characters.", attr: "tags__1" }],
    [{ name: "a", nested: [] }, { code: "not_a_dict", detail: "Expected a dictionary of items but got type \"list\".", attr: "nested" }],
    [{ name: "a", nested: { inner: 1 } }, { code: "invalid_input", detail: "Not a valid string.", attr: "nested__inner" }],
    [[], { code: "invalid_input", detail: "Invalid data. Expected a dictionary, but got list.", attr: null }],
    ["text", { code: "invalid_input", detail: "Invalid data. Expected a dictionary, but got str.", attr: null }],
    // DRF runs validate_empty_values first: a null body fails as a null value, not as a non-dict.
    [null, { code: "null", detail: "This field may not be null.", attr: null }],
    [{ name: "a\u0000" }, { code: "null_characters_not_allowed", detail: "Null characters are not allowed.", attr: "name" }],
    [{ name: "a", nested: { inner: "v\u0000" } }, { code: "null_characters_not_allowed", detail: "Null characters are not allowed.", attr: "nested__inner" }]
  ])("%j → %j", (input, expected) => {
    assert.deepStrictEqual(failure(input), expected)
  })
})

describe("Bool reads true and false as PostHog's API does", () => {
  const read = decodeInput(Schema.Struct({ flag: Bool }))
  const decoded = (flag: unknown) => Effect.runSync(read({ flag }).pipe(Effect.map(({ flag }) => flag), Effect.orElseSucceed(() => "refused")))
  it("takes Python's words for true and false lower-cased, capitalized or upper-cased, and 1, 0 and the booleans", () => {
    for (const word of ["1", "on", "t", "true", "y", "yes"]) {
      for (const spelled of [word, word[0]!.toUpperCase() + word.slice(1), word.toUpperCase()]) assert.strictEqual(decoded(spelled), true)
    }
    for (const word of ["0", "off", "f", "false", "n", "no"]) {
      for (const spelled of [word, word[0]!.toUpperCase() + word.slice(1), word.toUpperCase()]) assert.strictEqual(decoded(spelled), false)
    }
    assert.deepStrictEqual([decoded(1), decoded(0), decoded(true), decoded(false)], [true, false, true, false])
  })
  it("refuses any other casing, number or word", () => {
    for (const value of ["yEs", "tRUE", "2", 2, "", "maybe", null]) assert.strictEqual(decoded(value), "refused")
  })
})

describe("Text trims as Python's str.strip(), which DRF's CharField calls", () => {
  const decoded = (name: string) => Effect.runSync(decode({ name }))
  // Python's whitespace holds U+001C..U+001F and U+0085, which JavaScript's trim() keeps; it leaves U+FEFF,
  // which trim() takes. U+200B and U+180E are whitespace to neither.
  it.each([
    ["\u001cab\u001f", "ab"],
    ["\u0085ab\u0085", "ab"],
    ["\u00a0ab\u3000", "ab"],
    ["\ufeffab", "\ufeffab"],
    ["\u200bab\u180e", "\u200bab\u180e"]
  ])("%j → %j", (name, expected) => {
    assert.deepStrictEqual(decoded(name), { name: expected })
  })
  it("is blank only when Python's strip leaves nothing, and measures what is left", () => {
    assert.deepStrictEqual(failure({ name: "\u001c\u001d\u001e\u001f\u0085" }), {
      code: "blank",
      detail: "This field may not be blank.",
      attr: "name"
    })
    assert.deepStrictEqual(decoded("\ufeff"), { name: "\ufeff" })
    assert.deepStrictEqual(decoded("\u001fabcde\u0085"), { name: "abcde" })
  })
})
