import { type Timestamp, timestampFromDate } from "@hedgerow/core"

/**
 * Row helpers shared by the repositories. Drivers hand back timestamptz as Date (or as ISO text inside
 * JSON); the API speaks DRF's `…T…Z` with microseconds.
 */
export const ts = (value: Date | string): Timestamp => {
  if (value instanceof Date) return timestampFromDate(value)
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(?:\.(\d+))?(Z|[+-]00(?::?00)?)$/.exec(value)
  if (match === null) return ts(new Date(value))
  return `${match[1]}T${match[2]}.${(match[3] ?? "").padEnd(6, "0").slice(0, 6)}Z` as Timestamp
}

export const tsOrNull = (value: Date | string | null): Timestamp | null => (value === null ? null : ts(value))

/** JSON parameters are sent as text and cast, which both PGlite and node-postgres style drivers accept. */
export const json = (value: unknown): string => JSON.stringify(value ?? null)

/** Ids a serial column can hold; any other id simply matches no row. */
export const serialIds = (ids: ReadonlyArray<number>): ReadonlyArray<number> =>
  ids.filter((id) => Number.isInteger(id) && id > 0 && id <= 2_147_483_647)
