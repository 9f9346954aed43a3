import { Cause, Logger, Predicate, References } from "effect"
import { formatEntryLine } from "./entry-line.ts"
import type { LineSink } from "./line-writer.ts"
import type { LogFormat } from "./settings.ts"

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  Predicate.isObject(value) && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)

/**
 * Effect's log calls (an unexpected failure, an undelivered e-mail) in the request log's format and on its
 * writer: strings make the message, plain objects add fields, the cause is rendered with its stack.
 */
export const entryLogger = (format: LogFormat, write: LineSink) =>
  Logger.make<unknown, void>((options) => {
    const words: Array<string> = []
    const fields: Record<string, unknown> = { ...options.fiber.getRef(References.CurrentLogAnnotations) }
    for (const part of Array.isArray(options.message) ? options.message : [options.message]) {
      if (typeof part === "string") words.push(part)
      else if (isPlainObject(part)) Object.assign(fields, part)
      else words.push(part instanceof Error ? `${part.name}: ${part.message}` : String(part))
    }
    write(formatEntryLine(format, {
      level: options.logLevel.toLowerCase(),
      message: words.join(" "),
      fields,
      cause: options.cause.reasons.length === 0 ? undefined : Cause.pretty(options.cause)
    }))
  })
