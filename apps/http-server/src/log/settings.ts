import { Config, Data, Effect, Option } from "effect"

/** Which requests are logged: every one, those answered 4xx or 5xx, those answered 5xx, or none. */
export type LogLevel = "info" | "warn" | "error" | "none"
export const LOG_LEVELS: ReadonlyArray<LogLevel> = ["info", "warn", "error", "none"]

/** Readable text, or one JSON object per line for a log collector. */
export type LogFormat = "text" | "json"
export const LOG_FORMATS: ReadonlyArray<LogFormat> = ["text", "json"]

export interface LogSettings {
  readonly level: LogLevel
  readonly format: LogFormat
}

/** What `hedgerow serve` logs when the environment says nothing. */
export const DEFAULT_LOG_SETTINGS: LogSettings = { level: "info", format: "text" }

/** The lowest status a level logs; `none` logs no request at all. */
export const lowestStatusOf = (level: LogLevel): number =>
  level === "info" ? 0 : level === "warn" ? 400 : level === "error" ? 500 : Number.POSITIVE_INFINITY

/** A log setting the operator got wrong: the server refuses to start rather than log something else. */
export class LogSettingsError extends Data.TaggedError("LogSettingsError")<{ readonly message: string }> {}

const choice = <A extends string>(name: string, allowed: ReadonlyArray<A>, fallback: A) =>
  Effect.flatMap(Config.option(Config.String(name)), (raw) => {
    // Unset and empty are the same, as for the other settings.
    const given = Option.getOrElse(raw, () => "").trim().toLowerCase()
    if (given === "") return Effect.succeed(fallback)
    if ((allowed as ReadonlyArray<string>).includes(given)) return Effect.succeed(given as A)
    return Effect.fail(new LogSettingsError({
      message: `${name} must be one of ${allowed.join(", ")}, got "${Option.getOrElse(raw, () => "")}"`
    }))
  })

/**
 * HEDGEROW_LOG_LEVEL and HEDGEROW_LOG_FORMAT, each defaulting to `defaults`' value. A process that prints
 * something else on stdout (the benchmark's report) passes its own defaults.
 */
export const logSettingsFromConfig = (defaults: LogSettings = DEFAULT_LOG_SETTINGS) =>
  Effect.all({
    level: choice("HEDGEROW_LOG_LEVEL", LOG_LEVELS, defaults.level),
    format: choice("HEDGEROW_LOG_FORMAT", LOG_FORMATS, defaults.format)
  })
