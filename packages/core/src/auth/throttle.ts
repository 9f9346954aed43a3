import { Clock, Context, Effect, Layer } from "effect"
import { Throttled } from "../shared/errors.ts"
import type { PersonalApiKeyId } from "../shared/ids.ts"

/** Per-key request budgets; PostHog's defaults are 480 a minute (burst) and 4800 an hour (sustained). */
export interface RateLimits {
  readonly enabled: boolean
  readonly perMinute: number
  readonly perHour: number
}

/** Off unless the operator turns it on, as PostHog's RATE_LIMIT_ENABLED; then per key, with PostHog's limits. */
export const RateLimitSettings = Context.Reference<RateLimits>("hedgerow/RateLimitSettings", {
  defaultValue: () => ({ enabled: false, perMinute: 480, perHour: 4800 })
})

interface Window {
  start: number
  count: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/**
 * Fixed-window counters per key and process. A refused request does not count, and the answer says
 * when the earliest exhausted window reopens (DRF's message and a Retry-After in seconds).
 */
export class RateLimiter extends Context.Service<RateLimiter, {
  readonly admit: (key: PersonalApiKeyId) => Effect.Effect<void, Throttled>
}>()("hedgerow/RateLimiter") {
  static readonly layer = Layer.effect(
    RateLimiter,
    Effect.gen(function*() {
      const limits = yield* RateLimitSettings
      const windows = new Map<PersonalApiKeyId, { minute: Window; hour: Window }>()
      const admit = (key: PersonalApiKeyId) =>
        limits.enabled
          ? Effect.flatMap(Clock.currentTimeMillis, (now) => {
            const state = windows.get(key) ?? { minute: { start: now, count: 0 }, hour: { start: now, count: 0 } }
            windows.set(key, state)
            const budgets = [[state.minute, MINUTE, limits.perMinute], [state.hour, HOUR, limits.perHour]] as const
            for (const [window, length] of budgets) {
              if (now - window.start >= length) {
                window.start = now
                window.count = 0
              }
            }
            const exhausted = budgets.filter(([window, , limit]) => window.count >= limit)
            if (exhausted.length > 0) {
              const retryAfter = Math.max(
                1,
                Math.ceil(Math.max(...exhausted.map(([window, length]) => window.start + length - now)) / 1000)
              )
              return Effect.fail(new Throttled({
                detail: `Request was throttled. Expected available in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
                retryAfter
              }))
            }
            state.minute.count++
            state.hour.count++
            return Effect.void
          })
          : Effect.void
      return RateLimiter.of({ admit })
    })
  )
}
