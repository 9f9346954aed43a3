import { Context, Effect, Layer, Logger, References } from "effect"
import type { LogLevel as EffectLogLevel } from "effect/LogLevel"
import { batchedLineWriter, heldByteWriter, type LineSink, type LineWriter, stdoutSink } from "./line-writer.ts"
import { entryLogger } from "./logger.ts"
import { type RequestLine, requestLineBound, requestLineEncoder } from "./request-line.ts"
import type { LogLevel, LogSettings } from "./settings.ts"

/** The server's log: its settings and where its request lines go. */
export interface ServerLogShape extends LogSettings {
  /** Writes a request's line, whatever its status: the caller leaves out what the level does not log. */
  readonly request: (line: RequestLine) => void
}

/** Without a layer no request is logged: a process embedding the server (a test, the benchmark) owns its stdout. */
export const ServerLog = Context.Reference<ServerLogShape>("hedgerow/ServerLog", {
  defaultValue: () => ({ level: "none", format: "text", request: () => {} })
})

const minimumOf: Record<LogLevel, EffectLogLevel> = { info: "Info", warn: "Warn", error: "Error", none: "None" }

/**
 * How long lines wait for others before going to stdout: a write to a file costs the server more than
 * formatting many lines (docs/decisions.md, "The hot path"), and a line a few tens of milliseconds late
 * tells an operator the same.
 */
const STDOUT_HOLD_MILLIS = 50

/**
 * The log on `sink`, batched per turn of the event loop, or on stdout (unless a caller captures it)
 * batched over `STDOUT_HOLD_MILLIS`; flushed when the server stops, and on stdout also when the process
 * exits without stopping it (an uncaught exception). Effect's own log calls in the server's fibers go
 * the same way, at the same level and in the same format.
 */
export const layer = (settings: LogSettings, sink?: LineSink) =>
  Layer.effectContext(Effect.gen(function*() {
    let writer: LineWriter
    if (sink === undefined) {
      const held = heldByteWriter(stdoutSink, STDOUT_HOLD_MILLIS)
      writer = held
      // From the server's stop on, a line still written (a request finishing late) goes out at once.
      yield* Effect.acquireRelease(
        Effect.sync(() => process.on("exit", held.flush)),
        () => Effect.sync(() => {
          held.close()
          process.off("exit", held.flush)
        })
      )
    } else {
      writer = batchedLineWriter(sink)
      yield* Effect.addFinalizer(() => Effect.sync(writer.flush))
    }
    const encode = requestLineEncoder(settings.format)
    const request = (line: RequestLine) => writer.writeEncoded(encode, line, requestLineBound(line))
    return Context.make(ServerLog, { ...settings, request }).pipe(
      Context.add(Logger.CurrentLoggers, new Set([entryLogger(settings.format, writer.write)])),
      Context.add(References.MinimumLogLevel, minimumOf[settings.level])
    )
  }))
