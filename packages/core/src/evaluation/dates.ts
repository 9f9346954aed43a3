/**
 * The date operators. Relative filters ("-30d", "-1h", "-2w", "-3m", "-1y": up to 9999 units before
 * now) count back from the evaluation's `now` in UTC; months count back one at a time, keeping the day
 * within each month passed (31 March less two months is 28 January). The SDK reads other values
 * with the JavaScript date parser; the service reads ISO dates and times, naive ones as UTC (Hedgerow's
 * project time zone), and epoch seconds for numbers.
 */

const RELATIVE = /^-?(\d+)([a-z])$/

const daysIn = (year: number, month: number) => new Date(Date.UTC(year, month + 1, 0)).getUTCDate()

/** A relative filter's instant, or undefined when the text is not one. */
export const relativeDate = (text: string, now: Date): Date | undefined => {
  const match = RELATIVE.exec(text)
  if (match === null) return undefined
  const count = Number.parseInt(match[1]!, 10)
  if (count >= 10000) return undefined
  const date = new Date(now.getTime())
  switch (match[2]) {
    case "h":
      date.setUTCHours(date.getUTCHours() - count)
      return date
    case "d":
      date.setUTCDate(date.getUTCDate() - count)
      return date
    case "w":
      date.setUTCDate(date.getUTCDate() - count * 7)
      return date
    case "m": {
      const year = date.getUTCFullYear()
      const month = date.getUTCMonth()
      let day = date.getUTCDate()
      for (let step = 1; step <= count && day > 28; step++) day = Math.min(day, daysIn(year, month - step))
      date.setUTCFullYear(year, month - count, day)
      return date
    }
    case "y": {
      const month = date.getUTCMonth()
      const day = count > 0 && month === 1 && date.getUTCDate() === 29 ? 28 : date.getUTCDate()
      date.setUTCFullYear(date.getUTCFullYear() - count, month, day)
      return date
    }
    default:
      return undefined
  }
}

const parsed = (value: unknown): Date | undefined => {
  if (typeof value !== "string" && typeof value !== "number") return undefined
  const date = new Date(value)
  return Number.isNaN(date.getTime()) ? undefined : date
}

/** The SDK's filter date, or undefined when it leaves the filter to the service. */
export const sdkFilterDate = (value: unknown, now: Date): Date | undefined =>
  typeof value === "boolean" ? undefined : relativeDate(String(value), now) ?? parsed(value)

/** The SDK's reading of a person's date: text or a number (epoch milliseconds). */
export const sdkActualDate = parsed

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d+)?)?)?(Z|[+-]\d{2}:\d{2})?$/i

/** ISO dates and times; without an offset, UTC. */
const isoDate = (text: string): Date | undefined => {
  const match = ISO.exec(text)
  if (match === null) return undefined
  const [, year, month, day, hour, minute, second, fraction, offset] = match
  if (offset !== undefined && hour === undefined) return undefined
  const utc = Date.UTC(
    Number(year), Number(month) - 1, Number(day), Number(hour ?? 0), Number(minute ?? 0), Number(second ?? 0),
    fraction === undefined ? 0 : Math.round(Number(fraction) * 1000)
  )
  const shift = offset === undefined || offset.toUpperCase() === "Z"
    ? 0
    : (offset.startsWith("-") ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6)))
  const date = new Date(utc - shift * 60_000)
  return Number.isNaN(date.getTime()) || new Date(utc).getUTCDate() !== Number(day) ? undefined : date
}

/** The service's filter date: text only, relative or ISO. */
export const serviceFilterDate = (value: unknown, now: Date): Date | undefined =>
  typeof value === "string" ? relativeDate(value, now) ?? isoDate(value) : undefined

/** The service's reading of a person's date: epoch seconds as a number or numeric text, else ISO text. */
export const serviceActualDate = (value: unknown, now: Date): Date | undefined => {
  if (typeof value === "number") return Number.isFinite(value) ? new Date(value * 1000) : undefined
  if (typeof value !== "string") return undefined
  const seconds = Number(value)
  if (value.trim() !== "" && Number.isFinite(seconds)) return new Date(seconds * 1000)
  return relativeDate(value, now) ?? isoDate(value)
}
