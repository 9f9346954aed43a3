import { Effect, Option, Schema, SchemaIssue, SchemaTransformation } from "effect"

/** `2026-01-02T03:04:05.123456Z`: UTC with `Z` and six fractional digits, as PostHog renders timestamps. */
const DRF_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

/** An instant in UTC, as text in that form. */
const TimestampText = Schema.String.check(Schema.isPattern(DRF_FORM)).pipe(Schema.brand("Timestamp"))
export type Timestamp = typeof TimestampText.Type

/** UTC text with any number of fractional digits, `T` or a space, and `Z` or a zero offset. */
const UTC_TEXT = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(?:Z|[+-]00(?::?00)?)$/

/** `2026-01-02T03:04:05.123Z` → `2026-01-02T03:04:05.123000Z` (JS clocks stop at milliseconds). */
export const timestampFromDate = (date: Date): Timestamp =>
  date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z") as Timestamp

/**
 * Text for an instant in PostHog's form: PostgreSQL's own (`2026-01-02 03:04:05.1234+00`) keeps every digit
 * it has, other ISO 8601 text goes through a Date. Undefined when the text is no instant.
 */
export const timestampFromText = (text: string): Timestamp | undefined => {
  const match = UTC_TEXT.exec(text)
  if (match !== null) return `${match[1]}T${match[2]}.${(match[3] ?? "").padEnd(6, "0").slice(0, 6)}Z` as Timestamp
  const millis = Date.parse(text)
  return Number.isNaN(millis) ? undefined : timestampFromDate(new Date(millis))
}

/**
 * A timestamp, decoded from any UTC text (a database row, a client's JSON) into PostHog's form and encoded
 * as that form, so rows and answers print alike.
 */
export const Timestamp = Schema.String.pipe(Schema.decodeTo(
  TimestampText,
  SchemaTransformation.transformEffect({
    decode: (text) =>
      Option.match(Option.fromUndefinedOr(timestampFromText(text)), {
        onNone: () => Effect.fail(new SchemaIssue.InvalidValue({ message: `Expected a timestamp, got ${JSON.stringify(text)}` })),
        onSome: (timestamp) => Effect.succeed<string>(timestamp)
      }),
    encode: Effect.succeed
  })
))

export const millisOf = (timestamp: Timestamp): number => Date.parse(timestamp)

export const DAY_MS = 24 * 60 * 60 * 1000

/** The UTC day of an instant (epoch milliseconds), as `YYYY-MM-DD`. */
export const utcDayOf = (millis: number): string => new Date(millis).toISOString().slice(0, 10)
