import { Context, Effect, Layer, Logger, References } from "effect"
import type { LogLevel as EffectLogLevel } from "effect/LogLevel"
import { batchedLineWriter, type LineSink, stdoutSink } from "./line-writer.ts"
import { entryLogger } from "./logger.ts"
import type { LogLevel, LogSettings } from "./settings.ts"

/** The server's log: its settings and where its lines go. */
export interface ServerLogShape extends LogSettings {
  readonly write: LineSink
}

/** Without a layer no request is logged: a process embedding the server (a test, the benchmark) owns its stdout. */
export const ServerLog = Context.Reference<ServerLogShape>("hedgerow/ServerLog", {
  defaultValue: () => ({ level: "none", format: "text", write: () => {} })
})

const minimumOf: Record<LogLevel, EffectLogLevel> = { info: "Info", warn: "Warn", error: "Error", none: "None" }

/**
 * The log on `sink` (stdout unless a test captures it), batched, and flushed when the server stops.
 * Effect's own log calls in the server's fibers go the same way, at the same level and in the same format.
 */
export const layer = (settings: LogSettings, sink: LineSink = stdoutSink) =>
  Layer.effectContext(Effect.gen(function*() {
    const writer = batchedLineWriter(sink)
    yield* Effect.addFinalizer(() => Effect.sync(writer.flush))
    return Context.make(ServerLog, { ...settings, write: writer.write }).pipe(
      Context.add(Logger.CurrentLoggers, new Set([entryLogger(settings.format, writer.write)])),
      Context.add(References.MinimumLogLevel, minimumOf[settings.level])
    )
  }))
