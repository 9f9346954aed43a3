import type { LineEncoder } from "./line-writer.ts"
import type { LogFormat } from "./settings.ts"

/** What one request line says; nothing of the request's headers, query or body. */
export interface RequestLine {
  readonly method: string
  /** The matched route's template, e.g. `/api/projects/:project_id/feature_flags/:id/`. */
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly requestId: string | undefined
  /** The personal API key's id (its uuid, never the key); absent when the caller was not authenticated. */
  readonly keyId: string | undefined
}

export const levelOfStatus = (status: number) => (status >= 500 ? "error" : status >= 400 ? "warn" : "info")

/**
 * A request line is written straight into the log's block, with no string made for it. Every value is a
 * method token, a route template of the contract (or a fixed marker), a number or a uuid the server made,
 * so none needs escaping and no client text reaches the log. Each text is copied by Node's UTF-8 writer
 * in one call, which keeps the log valid UTF-8 whatever a value held.
 */
const text = (into: Buffer, at: number, value: string): number => at + into.write(value, at)

/** A whole number >= 0 in decimal. */
const digits = (into: Buffer, at: number, value: number): number => {
  let end = at + 1
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) end++
  let rest = value
  for (let i = end - 1; i >= at; i--) {
    into[i] = 0x30 + (rest % 10)
    rest = Math.floor(rest / 10)
  }
  return end
}

/** Milliseconds with one decimal, rounded. */
const millis = (into: Buffer, at: number, value: number): number => {
  const tenths = Math.round(value * 10)
  const end = digits(into, at, Math.floor(tenths / 10))
  into[end] = 0x2e
  into[end + 1] = 0x30 + (tenths % 10)
  return end + 2
}

let second = -1
let secondBytes: Uint8Array = new Uint8Array(0)

/** The time as ISO 8601 in UTC with milliseconds; the part up to the second is formatted once a second. */
const isoTime = (into: Buffer, at: number): number => {
  const now = Date.now()
  const thisSecond = Math.floor(now / 1000)
  if (thisSecond !== second) {
    second = thisSecond
    const iso = new Date(thisSecond * 1000).toISOString()
    secondBytes = Buffer.from(iso.slice(0, iso.length - 4), "latin1")
  }
  into.set(secondBytes, at)
  const end = at + secondBytes.length
  const ms = now - thisSecond * 1000
  into[end] = 0x30 + Math.floor(ms / 100)
  into[end + 1] = 0x30 + (Math.floor(ms / 10) % 10)
  into[end + 2] = 0x30 + (ms % 10)
  into[end + 3] = 0x5a // Z
  return end + 4
}

/** `2026-11-29T08:46:54.123Z info GET /api/projects/:project_id/feature_flags/:id/ 200 0.4ms request_id=… key_id=…` */
const textLine: LineEncoder<RequestLine> = (line, into, start) => {
  let at = isoTime(into, start)
  into[at++] = 0x20
  at = text(into, at, levelOfStatus(line.status))
  into[at++] = 0x20
  at = text(into, at, line.method)
  into[at++] = 0x20
  at = text(into, at, line.path)
  into[at++] = 0x20
  at = digits(into, at, line.status)
  into[at++] = 0x20
  at = millis(into, at, line.durationMs)
  at = text(into, at, "ms")
  if (line.requestId !== undefined) at = text(into, text(into, at, " request_id="), line.requestId)
  if (line.keyId !== undefined) at = text(into, text(into, at, " key_id="), line.keyId)
  into[at] = 0x0a
  return at + 1
}

/** `label`, which opens a string, then `value` and the closing quote. */
const jsonString = (into: Buffer, at: number, label: string, value: string): number => {
  const end = text(into, text(into, at, label), value)
  into[end] = 0x22
  return end + 1
}

/** The same as one JSON object. */
const jsonLine: LineEncoder<RequestLine> = (line, into, start) => {
  let at = isoTime(into, text(into, start, `{"time":"`))
  into[at++] = 0x22
  at = jsonString(into, at, `,"level":"`, levelOfStatus(line.status))
  at = jsonString(into, at, `,"method":"`, line.method)
  at = jsonString(into, at, `,"path":"`, line.path)
  at = digits(into, text(into, at, `,"status":`), line.status)
  at = millis(into, text(into, at, `,"duration_ms":`), line.durationMs)
  if (line.requestId !== undefined) at = jsonString(into, at, `,"request_id":"`, line.requestId)
  if (line.keyId !== undefined) at = jsonString(into, at, `,"key_id":"`, line.keyId)
  into[at] = 0x7d
  into[at + 1] = 0x0a
  return at + 2
}

export const requestLineEncoder = (format: LogFormat): LineEncoder<RequestLine> => format === "json" ? jsonLine : textLine

/**
 * The most bytes `line` can take: its strings, each UTF-16 unit of them at most three bytes in UTF-8,
 * and room for the time, the labels and two numbers.
 */
export const requestLineBound = (line: RequestLine): number =>
  256 + 3 * (line.method.length + line.path.length + (line.requestId?.length ?? 0) + (line.keyId?.length ?? 0))
