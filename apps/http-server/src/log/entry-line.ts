import type { LogFormat } from "./settings.ts"

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
    return JSON.stringify({ time: new Date().toISOString(), level: entry.level, message: entry.message, ...entry.fields, cause: entry.cause }) + "\n"
  }
  const fields = Object.entries(entry.fields).map(([key, value]) => ` ${key}=${textValue(value)}`).join("")
  const cause = entry.cause === undefined ? "" : "\n" + entry.cause.replace(/^/gm, "  ")
  return `${new Date().toISOString()} ${entry.level} ${entry.message}${fields}${cause}\n`
}
