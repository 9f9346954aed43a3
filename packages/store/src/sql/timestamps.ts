import { PgTypes } from "@effect/sql-pg"
import { Result } from "effect"

/**
 * PostgreSQL keeps timestamps to the microsecond and PostHog's API prints all six digits; a JS Date stops
 * at the millisecond, so two rows written in one millisecond would print alike. Both drivers therefore
 * hand `timestamptz` columns over as ISO text with every digit, which core's `Timestamp` schema decodes
 * into the form PostHog prints.
 */

const PG_EPOCH_MICROS = 946_684_800_000_000n // 2000-01-01T00:00:00Z, PostgreSQL's zero
const MICROS_PER_MILLI = 1000n

/** `2026-01-02T03:04:05.123456Z` from microseconds since the Unix epoch. */
const isoOfMicros = (micros: bigint): string => {
  const millis = micros / MICROS_PER_MILLI - (micros % MICROS_PER_MILLI < 0n ? 1n : 0n)
  const extra = micros - millis * MICROS_PER_MILLI
  return new Date(Number(millis)).toISOString().replace(/Z$/, `${String(extra).padStart(3, "0")}Z`)
}

const microsOf = (value: unknown): bigint => {
  if (typeof value === "string") {
    const fraction = /\.(\d{4,6})(?:Z|[+-]\d\d(?::?\d\d)?)$/.exec(value)?.[1]
    const millis = BigInt(Date.parse(value))
    return millis * MICROS_PER_MILLI + (fraction === undefined ? 0n : BigInt(fraction.padEnd(6, "0").slice(3)))
  }
  if (value instanceof Date) return BigInt(value.getTime()) * MICROS_PER_MILLI
  if (typeof value === "number") return BigInt(Math.trunc(value)) * MICROS_PER_MILLI
  throw new PgTypes.CodecError({ message: `not a timestamp: ${String(value)}` })
}

const codecError = (message: string) => new PgTypes.CodecError({ message })

/** @effect/sql-pg reads binary timestamptz: int64 microseconds since 2000-01-01 (infinities are not stored here). */
export const timestamptzAsText: PgTypes.Codec<unknown> = {
  decode: (bytes) =>
    bytes.length !== 8
      ? Result.fail(codecError(`timestamptz: expected 8 bytes, got ${bytes.length}`))
      : Result.succeed(isoOfMicros(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigInt64(0) + PG_EPOCH_MICROS)),
  encode: (value) => {
    try {
      const bytes = new Uint8Array(8)
      new DataView(bytes.buffer).setBigInt64(0, microsOf(value) - PG_EPOCH_MICROS)
      return Result.succeed(bytes)
    } catch (error) {
      return Result.fail(error instanceof PgTypes.CodecError ? error : codecError(String(error)))
    }
  }
}

/** A type registry for @effect/sql-pg with `timestamptz` as text. */
export const hedgerowPgTypes = (): PgTypes.Registry => {
  const registry = PgTypes.makeRegistry()
  registry.register(PgTypes.OID.timestamptz, timestamptzAsText, { arrayOid: PgTypes.OID.timestamptzArray })
  return registry
}

/** PGlite already reads text; its parser just keeps it (`2026-01-02 03:04:05.123456+00`, the session being UTC). */
export const pgliteTimestampParsers = { [PgTypes.OID.timestamptz]: (text: string) => text }
