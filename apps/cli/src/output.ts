import * as Cause from "effect/Cause"
import * as Console from "effect/Console"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Runtime from "effect/Runtime"
import { CliError, CliOutput, Flag } from "effect/cli"

/**
 * How every command talks back: readable text by default, exactly one JSON document on stdout with
 * `--json` (so scripts can pipe it into `jq`), and failures as a single `error: ...` line on stderr.
 */

export const jsonFlag = Flag.Boolean("json").pipe(
  Flag.withDescription("Print exactly one JSON object on stdout instead of text"),
  Flag.withDefault(false)
)

/** Prints `value` as JSON, or as the text `render` makes of it. */
export const emit = <A>(json: boolean, render: (value: A) => string) => (value: A) =>
  Console.log(json ? JSON.stringify(value, null, 2) : render(value))

const cell = (value: unknown): string =>
  value === null || value === undefined ? "-" : typeof value === "string" ? value : JSON.stringify(value)

/** `key  value` lines, aligned; every field of the record unless `keys` picks some. */
export const details = (record: object, keys?: ReadonlyArray<string>): string => {
  const entries = (keys ?? Object.keys(record)).map((key) => [key, cell((record as Record<string, unknown>)[key])] as const)
  const width = Math.max(0, ...entries.map(([key]) => key.length))
  return entries.map(([key, value]) => `${key.padEnd(width)}  ${value}`).join("\n")
}

/** A plain-text table with a header row; columns are as wide as their widest cell. */
export const table = (rows: ReadonlyArray<object>, columns: ReadonlyArray<string>): string => {
  const cells = rows.map((row) => columns.map((column) => cell((row as Record<string, unknown>)[column])))
  const widths = columns.map((column, i) => Math.max(column.length, ...cells.map((line) => line[i]!.length)))
  const line = (values: ReadonlyArray<string>) => values.map((value, i) => value.padEnd(widths[i]!)).join("  ").trimEnd()
  return [line(columns.map((column) => column.toUpperCase())), ...cells.map(line)].join("\n")
}

/** A failure the CLI itself detects (a malformed flag value, a missing key), with the line to show. */
export class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, " ").trim()

/**
 * The line for any failure. Core's errors (local, or decoded from the API's envelope) carry PostHog's
 * `detail`, plus the offending field for validation; everything else has a message.
 */
export const describeFailure = (error: unknown): string => {
  if (typeof error === "object" && error !== null) {
    const { detail, attr } = error as { detail?: unknown; attr?: unknown }
    if (typeof detail === "string") {
      return oneLine(typeof attr === "string" ? `${detail} (field ${attr})` : detail)
    }
    const reason = (error as { reason?: { _tag?: unknown; methodAndUrl?: unknown; cause?: unknown } }).reason
    if (reason?._tag === "TransportError") {
      // fetch's own message is just "fetch failed"; the useful part (ECONNREFUSED...) is in its cause.
      const cause = (reason.cause as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause
      const why = typeof cause?.code === "string" ? cause.code : typeof cause?.message === "string" ? cause.message : "no answer"
      return oneLine(`cannot reach the server (${String(reason.methodAndUrl)}: ${why}); is it running, and is --url right?`)
    }
    if (error instanceof Error && error.message !== "") return oneLine(error.message)
    const { message } = error as { message?: unknown }
    if (typeof message === "string" && message !== "") return oneLine(`${(error as { _tag?: unknown })._tag ?? "error"}: ${message}`)
    const tag = (error as { _tag?: unknown })._tag
    if (typeof tag === "string") return tag
  }
  return oneLine(String(error))
}

/** The failure after its line is printed: exit code 1, and nothing more for the runtime to log. */
export class Reported extends Data.TaggedError("Reported")<{ readonly line: string }> {
  override readonly [Runtime.errorReported] = false
}

/**
 * Prints one line for whatever made a command fail (failures and defects alike) and fails with
 * `Reported`. effect/cli has already presented its own errors (see `oneLinePresenter`), and an
 * interruption (Ctrl-C) is not a failure to report.
 */
export const reportFailures = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, Reported, R> =>
  Effect.catchCause(effect, (cause) => {
    if (Cause.hasInterruptsOnly(cause)) return Effect.failCause(cause as Cause.Cause<never>)
    const error = Cause.squash(cause)
    if (CliError.isCliError(error)) return Effect.fail(new Reported({ line: "" }))
    const line = `error: ${describeFailure(error)}`
    return Console.error(line).pipe(Effect.andThen(Effect.fail(new Reported({ line }))))
  })

/**
 * effect/cli answers a malformed invocation with the whole help page and an error block; scripts get
 * the same single `error:` line as for any other failure instead, and people get where to look.
 */
export const oneLinePresenter: CliOutput.Presenter = {
  present: (event) =>
    event._tag === "InvalidInvocation"
      ? Console.error(
        `error: ${event.errors.map((error) => oneLine(error.message)).join("; ")} (see ${event.commandPath.join(" ")} --help)`
      )
      : CliOutput.defaultPresenter.present(event)
}
