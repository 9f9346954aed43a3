import { Schema } from "effect"

/** ISO 8601 UTC with `Z` and microseconds, as DRF renders timestamps (D8). */
export const Timestamp = Schema.String.pipe(Schema.brand("Timestamp"))
export type Timestamp = typeof Timestamp.Type

/** `2026-01-02T03:04:05.123Z` → `2026-01-02T03:04:05.123000Z` (JS clocks stop at milliseconds). */
export const timestampFromDate = (date: Date): Timestamp =>
  date.toISOString().replace(/\.(\d{3})Z$/, ".$1000Z") as Timestamp

export const millisOf = (timestamp: Timestamp): number => Date.parse(timestamp)
