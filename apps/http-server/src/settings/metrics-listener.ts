import { Config, Data, Effect, Option } from "effect"

/** Where the metrics listener binds. */
export interface MetricsListenerSettings {
  readonly port: number
  readonly host: string
}

/** A metrics setting the operator got wrong: the server refuses to start rather than run without it. */
export class MetricsConfigError extends Data.TaggedError("MetricsConfigError")<{ readonly message: string }> {}

/** The listener's default interface: this machine only, since the metrics name tenants' projects and flags. */
export const DEFAULT_METRICS_HOST = "127.0.0.1"

/**
 * HEDGEROW_METRICS_PORT (unset or empty: no metrics listener) and HEDGEROW_METRICS_HOST. A port is a
 * whole number from 1 to 65535; anything else refuses the start.
 */
export const metricsListenerFromConfig = Effect.gen(function*() {
  const port = yield* Config.option(Config.String("HEDGEROW_METRICS_PORT"))
  if (Option.isNone(port) || port.value.trim() === "") return undefined
  const value = Number(port.value)
  if (!/^\s*\d+\s*$/.test(port.value) || value < 1 || value > 65_535) {
    return yield* new MetricsConfigError({ message: `HEDGEROW_METRICS_PORT must be a port from 1 to 65535, not "${port.value}"` })
  }
  const host = yield* Config.String("HEDGEROW_METRICS_HOST").pipe(Config.withDefault(DEFAULT_METRICS_HOST))
  return { port: value, host: host.trim() === "" ? DEFAULT_METRICS_HOST : host } satisfies MetricsListenerSettings
})
