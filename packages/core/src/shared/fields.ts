import { Schema, SchemaTransformation } from "effect"
import { FALSE_WORDS, TRUE_WORDS } from "./python.ts"
import { pythonStr } from "./validation.ts"

/**
 * Field schemas with DRF's messages attached, for request input. Output schemas use plain Schema types;
 * these exist so that a rule's message is written once, next to the rule.
 */

/** A check that fails with DRF's `code` and a message computed from the value. */
export const rule = <T>(code: string, message: (value: T) => string | undefined) =>
  Schema.makeFilter<T>((value) => message(value), { code })

/**
 * Characters as Python (and so DRF) counts them: code points. JavaScript's length counts UTF-16 units,
 * two for an emoji, which refused a 20-emoji first name that PostHog takes.
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

// Code points never outnumber UTF-16 units, so only text long in units needs counting.
export const maxLength = (max: number) =>
  rule<string>("max_length", (s) =>
    s.length > max && characters(s) > max ? `Ensure this field has no more than ${max} characters.` : undefined)

/**
 * DRF ListField(child=item, max_length=max). The count is checked before any item is decoded, so a list
 * far past its bound is refused at little cost; then each item, its index in the attr.
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
  rule<string>("min_length", (s) => (characters(s) < min ? detail : undefined))

/**
 * Python's whitespace, which DRF trims with `str.strip()`. JavaScript's `trim()` differs: it takes U+FEFF,
 * which Python keeps (so `"\ufeffbeta"` is no valid key there), and keeps U+001C..U+001F and U+0085.
 */
const PYTHON_SPACE = new Set([
  0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
  0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000
])

/** Python's `str.strip()`; a loop, as a trailing-space pattern would scan a long inner run again and again. */
export const pythonStrip = (s: string): string => {
  let start = 0
  let end = s.length
  while (start < end && PYTHON_SPACE.has(s.charCodeAt(start))) start++
  while (end > start && PYTHON_SPACE.has(s.charCodeAt(end - 1))) end--
  return s.slice(start, end)
}

export const notBlank = rule<string>("blank", (s) => (pythonStrip(s) === "" ? "This field may not be blank." : undefined))

/** DRF CharField trims surrounding whitespace before its checks (`trim_whitespace`). */
export const Trimmed = Schema.String.pipe(Schema.decode(
  SchemaTransformation.transform<string, string>({ decode: pythonStrip, encode: (s) => s })
))

/** DRF CharField: trimmed, then its checks; `allowBlank` defaults to false, like DRF. */
export const Text = (options: { readonly max?: number; readonly allowBlank?: boolean } = {}) => {
  const checks = [
    ...(options.allowBlank === true ? [] : [notBlank]),
    ...(options.max === undefined ? [] : [maxLength(options.max)])
  ]
  return checks.length === 0 ? Trimmed : Trimmed.check(...(checks as [typeof notBlank]))
}

/** DRF IntegerField. */
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
 * DRF ChoiceField: a value matches a choice when their text forms match, so `"1"` selects the choice 1
 * (and decodes to it), as Django does.
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

/** DRF takes each word lower-cased, capitalized or upper-cased, and the number and the boolean. */
const drfValues = (words: ReadonlySet<string>, number: number, boolean: boolean) =>
  new Set<unknown>([
    ...[...words].flatMap((word) => [word, word.charAt(0).toUpperCase() + word.slice(1), word.toUpperCase()]),
    number,
    boolean
  ])
const TRUE_VALUES = drfValues(TRUE_WORDS, 1, true)
const FALSE_VALUES = drfValues(FALSE_WORDS, 0, false)

/** DRF BooleanField: the usual spellings of true and false, decoded to a boolean. */
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
 * A local part, then dot-separated domain labels. Labels cannot hold a dot, so there is one way to match
 * any text and the test stays linear: a pattern whose domain part could also swallow dots backtracks
 * quadratically, and a 1 MiB body of `a.a.a.…` held the event loop for minutes.
 */
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/
const MAX_EMAIL_LENGTH = 254
/** DRF EmailField: the length is checked (and reported) before the address, as Django's validators run. */
export const Email = Schema.String.check(
  maxLength(MAX_EMAIL_LENGTH),
  rule<string>("invalid_input", (s) =>
    characters(s) > MAX_EMAIL_LENGTH || EMAIL.test(s) ? undefined : "Enter a valid email address.")
)

/** DRF ListField(allow_empty=False). */
export const NonEmptyList = <S extends Schema.Top>(item: S) =>
  Schema.Array(item).check(rule<ReadonlyArray<unknown>>("empty", (list) => (list.length === 0 ? "This list may not be empty." : undefined)))

/** A reference to a row by its serial id (DRF PrimaryKeyRelatedField's accepted range). */
export const SerialReference = IntegerBetween(1, 2_147_483_647)

/** Arbitrary JSON object (DRF JSONField holding a dict). */
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
