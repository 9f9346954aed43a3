import { Schema, SchemaTransformation } from "effect"
import { FALSE_WORDS, TRUE_WORDS } from "./python.ts"
import { pythonStr } from "./validation.ts"

/**
 * Field schemas for request input, each carrying the code and message PostHog answers when the field
 * breaks its rule, so that a message is written once, next to its rule. Output schemas use plain Schema types.
 */

/** A check that fails with the error `code` and a message computed from the value. */
export const rule = <T>(code: string, message: (value: T) => string | undefined) =>
  Schema.makeFilter<T>((value) => message(value), { code })

/**
 * Characters as PostHog counts them: code points. JavaScript's `length` counts UTF-16 units, two for an
 * emoji, and would refuse a first name of 20 emoji that PostHog takes.
 */
export const characters = (s: string): number => {
  let count = s.length
  for (let i = 0; i < s.length - 1; i++) {
    const unit = s.charCodeAt(i)
    if (unit >= 0xd800 && unit <= 0xdbff) {
      const next = s.charCodeAt(i + 1)
      if (next >= 0xdc00 && next <= 0xdfff) {
        count--
        i++
      }
    }
  }
  return count
}

/**
 * Whether `s` has more than `max` characters. A character is one UTF-16 unit or two, so the length alone
 * answers unless it lies between `max` and twice `max`: a megabyte is judged without a pass over it.
 */
export const longerThan = (s: string, max: number): boolean => s.length > max && (s.length > 2 * max || characters(s) > max)

export const maxLength = (max: number) =>
  rule<string>("max_length", (s) => longerThan(s, max) ? `Ensure this field has no more than ${max} characters.` : undefined)

/**
 * A list of at most `max` items. The count is checked before any item is decoded, so a list far past its
 * bound is refused cheaply; then each item is decoded, its index in the attr.
 */
export const BoundedList = <S extends Schema.Top>(item: S, max: number) => {
  // What the API's document shows of it: a list of such items, at most `max`.
  const documented = { type: "array", items: Schema.toJsonSchemaDocument(item).schema, maxItems: max } as const
  const counted = Schema.makeFilter<ReadonlyArray<unknown>>(
    (list) => (list.length > max ? `Ensure this field has no more than ${max} elements.` : undefined),
    { code: "max_length", toJsonSchema: () => documented }
  )
  return Schema.Array(Schema.Unknown).check(counted).pipe(Schema.decodeTo(Schema.Array(item), SchemaTransformation.passthroughSupertype()))
}

export const minLength = (min: number, detail = `Ensure this field has at least ${min} characters.`) =>
  rule<string>("min_length", (s) => (longerThan(s, min - 1) ? undefined : detail))

/**
 * The whitespace PostHog trims from text fields (Python's `str.strip()`). JavaScript's `trim()` differs:
 * it removes U+FEFF, which Python keeps (so `"\ufeffbeta"` is not a valid key there), and keeps
 * U+001C..U+001F and U+0085.
 */
const PYTHON_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000
])

/** Python's `str.strip()`. A loop, because a trailing-space pattern would rescan a long inner run of spaces again and again. */
export const pythonStrip = (s: string): string => {
  let start = 0
  let end = s.length
  while (start < end && PYTHON_SPACE.has(s.charCodeAt(start))) start++
  while (end > start && PYTHON_SPACE.has(s.charCodeAt(end - 1))) end--
  return s.slice(start, end)
}

export const notBlank = rule<string>("blank", (s) => (pythonStrip(s) === "" ? "This field may not be blank." : undefined))

/** Text with its surrounding whitespace trimmed, before any check. */
export const Trimmed = Schema.String.pipe(Schema.decode(
  SchemaTransformation.transform<string, string>({ decode: pythonStrip, encode: (s) => s })
))

/** A text field: trimmed, then checked; blank text is refused unless `allowBlank`. */
export const Text = (options: { readonly max?: number; readonly allowBlank?: boolean } = {}) => {
  const checks = [
    ...(options.allowBlank === true ? [] : [notBlank]),
    ...(options.max === undefined ? [] : [maxLength(options.max)])
  ]
  return checks.length === 0 ? Trimmed : Trimmed.check(...(checks as [typeof notBlank]))
}

/** A whole number, with PostHog's message for anything else. */
export const Integer = Schema.Number.annotate({
  invalidType: () => ({ code: "invalid_input", detail: "A valid integer is required." })
}).check(rule<number>("invalid_input", (n) => (Number.isInteger(n) ? undefined : "A valid integer is required.")))

export const IntegerBetween = (min: number, max: number) =>
  Integer.check(
    rule<number>("min_value", (n) => (n < min ? `Ensure this value is greater than or equal to ${min}.` : undefined)),
    rule<number>("max_value", (n) => (n > max ? `Ensure this value is less than or equal to ${max}.` : undefined))
  )

const choiceError = (value: unknown) => ({ code: "invalid_choice", detail: `"${pythonStr(value)}" is not a valid choice.` })

/**
 * One of `values`. A value matches a choice when their text forms match, so `"1"` selects the choice 1
 * (and decodes to it).
 */
export const Choice = <const L extends ReadonlyArray<string | number>>(values: L) => {
  const byText = new Map<string, L[number]>(values.map((choice) => [String(choice), choice]))
  return Schema.Union([Schema.String, Schema.Number])
    .annotate({ invalidType: choiceError })
    .check(rule<string | number>("invalid_choice", (value) => (byText.has(String(value)) ? undefined : choiceError(value).detail)))
    .pipe(Schema.decodeTo(
      Schema.Literals(values),
      SchemaTransformation.transform<L[number], string | number>({
        decode: (value) => byText.get(String(value))!,
        encode: (choice) => choice
      })
    ))
}

/** Each word lower-cased, capitalized or upper-cased, plus the number and the boolean: the spellings PostHog accepts. */
const spellingsOf = (words: ReadonlySet<string>, number: number, boolean: boolean) =>
  new Set<unknown>([
    ...[...words].flatMap((word) => [word, word.charAt(0).toUpperCase() + word.slice(1), word.toUpperCase()]),
    number,
    boolean
  ])
const TRUE_VALUES = spellingsOf(TRUE_WORDS, 1, true)
const FALSE_VALUES = spellingsOf(FALSE_WORDS, 0, false)

/** A boolean field: the usual spellings of true and false, decoded to a boolean. */
export const Bool = Schema.Union([Schema.Boolean, Schema.String, Schema.Number])
  .annotate({ invalidType: () => ({ code: "invalid_input", detail: "Must be a valid boolean." }) })
  .check(rule<boolean | string | number>("invalid_input", (value) =>
    TRUE_VALUES.has(value) || FALSE_VALUES.has(value) ? undefined : "Must be a valid boolean."))
  .pipe(Schema.decodeTo(
    Schema.Boolean,
    SchemaTransformation.transform<boolean, boolean | string | number>({
      decode: (value) => TRUE_VALUES.has(value),
      encode: (value) => value
    })
  ))

/**
 * A local part, then dot-separated domain labels. Labels cannot hold a dot, so any text matches in at most
 * one way and the test stays linear. A domain part that could also swallow dots would backtrack
 * quadratically, and a large body of `a.a.a.…` would stall the event loop.
 */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
const MAX_EMAIL_LENGTH = 254
/** An e-mail address. Its length is checked (and reported) before its form, in the order PostHog checks them. */
export const Email = Schema.String.check(
  maxLength(MAX_EMAIL_LENGTH),
  rule<string>("invalid_input", (s) =>
    longerThan(s, MAX_EMAIL_LENGTH) || EMAIL.test(s) ? undefined : "Enter a valid email address.")
)

/** A list that may not be empty. */
export const NonEmptyList = <S extends Schema.Top>(item: S) =>
  Schema.Array(item).check(rule<ReadonlyArray<unknown>>("empty", (list) => (list.length === 0 ? "This list may not be empty." : undefined)))

/** A reference to a row by its serial id: any id a PostgreSQL integer column can hold. */
export const SerialReference = IntegerBetween(1, 2_147_483_647)

/** Any JSON object. */
export const JsonObject = Schema.Record(Schema.String, Schema.Unknown)
export const Json = Schema.Unknown

/** A JSON object as parsed (not a list): what rules reading raw bodies and stored filters look inside. */
export type JsonRecord = Readonly<Record<string, unknown>>

export const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Python's truthiness, which PostHog's checks rely on (`{}` and `[]` are false). */
export const isTruthy = (value: unknown): boolean =>
  Array.isArray(value) ? value.length > 0
  : isRecord(value) ? Object.keys(value).length > 0
  : Boolean(value)
