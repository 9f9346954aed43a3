import { WebhookSettings } from "@hedgerow/core"
import { Config, Data, Effect, Layer, Option } from "effect"

/** A webhook setting the operator got wrong: the server refuses to start rather than run with another value. */
export class WebhookConfigError extends Data.TaggedError("WebhookConfigError")<{ readonly message: string }> {}

// Node's timers hold at most 2^31 - 1 ms.
const MAX_MS = 2_147_483_647
const WHOLE = /^\s*\d+\s*$/
const DAY_MS = 24 * 60 * 60 * 1000

const whole = (name: string, raw: string, min: number, max: number) =>
  WHOLE.test(raw) && Number(raw) >= min && Number(raw) <= max
    ? Effect.succeed(Number(raw))
    : Effect.fail(new WebhookConfigError({ message: `${name} must be a whole number from ${min} to ${max}, not "${raw}"` }))

const setting = (name: string, min: number, max: number) =>
  Effect.flatMap(Config.option(Config.String(name)), Option.match({
    onNone: () => Effect.succeedNone,
    onSome: (raw) => Effect.map(whole(name, raw, min, max), Option.some)
  }))

/**
 * HEDGEROW_WEBHOOKS_ALLOW_PRIVATE (true lets receivers be on loopback, link-local or private addresses),
 * HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS (the waits after each failed attempt, comma-separated milliseconds),
 * HEDGEROW_WEBHOOKS_TIMEOUT_MS (one attempt), HEDGEROW_WEBHOOKS_CONCURRENCY (attempts at once per process)
 * HEDGEROW_WEBHOOKS_POLL_MS (how often the worker looks for due retries) and
 * HEDGEROW_WEBHOOKS_RETENTION_DAYS (how long ended deliveries are kept); each unset keeps core's default.
 */
export const WebhooksFromConfig = Layer.effect(
  WebhookSettings,
  Effect.gen(function*() {
    const defaults = WebhookSettings.defaultValue()
    const allowPrivate = yield* Config.Boolean("HEDGEROW_WEBHOOKS_ALLOW_PRIVATE").pipe(Config.withDefault(false))
    const delays = yield* Config.option(Config.String("HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS"))
    const retryDelaysMillis = Option.isNone(delays)
      ? defaults.retryDelaysMillis
      : yield* Effect.forEach(delays.value.split(","), (raw) => whole("HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS", raw, 1, MAX_MS))
    const timeoutMillis = yield* setting("HEDGEROW_WEBHOOKS_TIMEOUT_MS", 1, MAX_MS)
    const concurrency = yield* setting("HEDGEROW_WEBHOOKS_CONCURRENCY", 1, 1000)
    const pollMillis = yield* setting("HEDGEROW_WEBHOOKS_POLL_MS", 10, MAX_MS)
    const retentionDays = yield* setting("HEDGEROW_WEBHOOKS_RETENTION_DAYS", 1, 3650)
    return {
      allowPrivate,
      retryDelaysMillis,
      timeoutMillis: Option.getOrElse(timeoutMillis, () => defaults.timeoutMillis),
      concurrency: Option.getOrElse(concurrency, () => defaults.concurrency),
      pollMillis: Option.getOrElse(pollMillis, () => defaults.pollMillis),
      retentionMillis: Option.match(retentionDays, { onNone: () => defaults.retentionMillis, onSome: (days) => days * DAY_MS })
    }
  })
)
