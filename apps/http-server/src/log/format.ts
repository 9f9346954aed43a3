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

let lastMillis = -1
let lastTime = ""

/** The time as ISO 8601, formatted once per millisecond however many lines share it. */
export const isoNow = (): string => {
  const now = Date.now()
  if (now !== lastMillis) {
    lastMillis = now
    lastTime = new Date(now).toISOString()
  }
  return lastTime
}

export const levelOfStatus = (status: number) => (status >= 500 ? "error" : status >= 400 ? "warn" : "info")

/**
 * One request as one line. Every value is a method token, a route template of the contract (or a fixed
 * marker), a number or a uuid the server made, so none needs escaping and no client text reaches the log.
 */
export const formatRequestLine = (format: LogFormat, line: RequestLine): string => {
  const duration = line.durationMs.toFixed(1)
  if (format === "json") {
    return `{"time":"${isoNow()}","level":"${levelOfStatus(line.status)}","method":"${line.method}","path":"${line.path}",` +
      `"status":${line.status},"duration_ms":${duration}` +
      (line.requestId === undefined ? "" : `,"request_id":"${line.requestId}"`) +
      (line.keyId === undefined ? "" : `,"key_id":"${line.keyId}"`) +
      "}\n"
  }
  return `${isoNow()} ${levelOfStatus(line.status)} ${line.method} ${line.path} ${line.status} ${duration}ms` +
    (line.requestId === undefined ? "" : ` request_id=${line.requestId}`) +
    (line.keyId === undefined ? "" : ` key_id=${line.keyId}`) +
    "\n"
}

/** Anything else the server logs (an unexpected failure, an undelivered e-mail): a message, fields, a cause. */
export interface EntryLine {
  readonly level: string
  readonly message: string
  readonly fields: Readonly<Record<string, unknown>>
  /** The failure's rendering, stack included; several lines. */
  readonly cause: string | undefined
}

const textValue = (value: unknown) => {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value)
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text)
}

/** An entry as one JSON object, or as a text line with the cause indented beneath it. */
export const formatEntryLine = (format: LogFormat, entry: EntryLine): string => {
  if (format === "json") {
    return JSON.stringify({ time: isoNow(), level: entry.level, message: entry.message, ...entry.fields, cause: entry.cause }) + "\n"
  }
  const fields = Object.entries(entry.fields).map(([key, value]) => ` ${key}=${textValue(value)}`).join("")
  const cause = entry.cause === undefined ? "" : "\n" + entry.cause.replace(/^/gm, "  ")
  return `${isoNow()} ${entry.level} ${entry.message}${fields}${cause}\n`
}
