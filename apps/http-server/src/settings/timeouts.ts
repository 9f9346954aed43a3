import { Config, Data, Effect, Option } from "effect"

/** How long the server waits on a client; every value in milliseconds. */
export interface ConnectionTimeouts {
  /** From a request's first byte to the end of its headers. */
  readonly headersMs: number
  /** From a request's first byte to the end of its body. */
  readonly requestMs: number
  /** An idle connection between two requests. */
  readonly keepAliveMs: number
}

/**
 * Headers are a few hundred bytes: 10 s is ample on a poor mobile link, yet frees a socket held by a
 * client trickling them. A whole request is at most 1 MiB: 30 s still lets it through at about 35 KB/s.
 * 5 s between requests is Node's own default.
 */
export const DEFAULT_TIMEOUTS: ConnectionTimeouts = { headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 }

/** A timeout the operator got wrong: the server refuses to start rather than run with another value. */
export class TimeoutConfigError extends Data.TaggedError("TimeoutConfigError")<{ readonly message: string }> {}

// Node's timers hold at most 2^31 - 1 ms (24.8 days); it cuts a larger value down with a warning.
const MAX_MS = 2_147_483_647

/** A timeout variable: none when unset, a TimeoutConfigError when it is not a usable number of milliseconds. */
const milliseconds = (name: string) =>
  Effect.gen(function*() {
    const raw = yield* Config.option(Config.String(name))
    if (Option.isNone(raw)) return Option.none<number>()
    const value = Number(raw.value)
    if (/^\s*\d+\s*$/.test(raw.value) && value >= 1 && value <= MAX_MS) return Option.some(value)
    return yield* new TimeoutConfigError({
      message: `${name} must be a whole number of milliseconds from 1 to ${MAX_MS}, not "${raw.value}"`
    })
  })

/**
 * HEDGEROW_HEADERS_TIMEOUT_MS, HEDGEROW_REQUEST_TIMEOUT_MS and HEDGEROW_KEEP_ALIVE_TIMEOUT_MS. The headers
 * are part of the request: their timeout, left unset, is lowered to a shorter request timeout, and set
 * above it is refused.
 */
export const timeoutsFromConfig = Effect.gen(function*() {
  const headers = yield* milliseconds("HEDGEROW_HEADERS_TIMEOUT_MS")
  const request = yield* milliseconds("HEDGEROW_REQUEST_TIMEOUT_MS")
  const keepAlive = yield* milliseconds("HEDGEROW_KEEP_ALIVE_TIMEOUT_MS")
  const requestMs = Option.getOrElse(request, () => DEFAULT_TIMEOUTS.requestMs)
  const headersMs = Option.getOrElse(headers, () => Math.min(DEFAULT_TIMEOUTS.headersMs, requestMs))
  if (headersMs > requestMs) {
    const which = Option.isSome(request) ? `${requestMs}` : `${requestMs}, its default`
    return yield* new TimeoutConfigError({
      message: `HEDGEROW_HEADERS_TIMEOUT_MS (${headersMs}) may not exceed HEDGEROW_REQUEST_TIMEOUT_MS (${which}): the headers are part of the request`
    })
  }
  return {
    headersMs,
    requestMs,
    keepAliveMs: Option.getOrElse(keepAlive, () => DEFAULT_TIMEOUTS.keepAliveMs)
  } satisfies ConnectionTimeouts
})
