import { Clock, Context, Effect, Layer } from "effect"
import { PermissionDenied, Throttled } from "../shared/errors.ts"
import type { PersonalApiKeyId } from "../shared/ids.ts"

/** Per-key request budgets; PostHog's defaults are 480 a minute (burst) and 4800 an hour (sustained). */
export interface RateLimits {
  readonly enabled: boolean
  readonly perMinute: number
  readonly perHour: number
}

/** Off unless the operator turns it on; then counted per key, with PostHog's limits. */
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
 * when the earliest exhausted window reopens (PostHog's message, and a Retry-After in seconds).
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
              return Effect.fail(Throttled.after(retryAfter))
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

/**
 * An e-mail as failures are counted for it: lower case with accents and other marks dropped, so every
 * spelling the store would take for one address (it folds `İ` to `i`, where JavaScript keeps a dot above)
 * counts toward the same lock.
 */
const foldedEmail = (email: string): string => email.toLowerCase().normalize("NFKD").replace(/\p{M}/gu, "")

/** PostHog's log-in lock-out: 30 failed log-ins lock the e-mail (and the address) out for 10 minutes. */
export const LOGIN_FAILURE_LIMIT = 30
const LOGIN_COOLOFF_MINUTES = 10
const LOGIN_COOLOFF = LOGIN_COOLOFF_MINUTES * MINUTE
/** Names tracked at most; past it the quietest go first, so a flood of e-mails cannot grow the heap. */
const MAX_TRACKED = 100_000

interface Failures {
  count: number
  last: number
}

/**
 * Failed password guesses per e-mail and per client address, in this process's memory, counted as PostHog
 * counts failed log-ins: each failure keeps the count for another cool-off period, and once either count
 * reaches the limit every attempt for it is refused, right password or not, until the cool-off has passed
 * since the last failure. A success does not reset the count. Log-in and the current password of a
 * password change count together, so guesses at one account add up whichever way they come. A guess with
 * no address (a password change, whose caller is already authenticated) counts for the e-mail alone; one
 * with no e-mail (a sign-in link, which names no one) for the address alone.
 */
export class LoginThrottle extends Context.Service<LoginThrottle, {
  /** PostHog's lock-out answer while the e-mail or the address is locked out. */
  readonly check: (email: string, address?: string) => Effect.Effect<void, PermissionDenied>
  readonly failed: (email: string, address?: string) => Effect.Effect<void>
  /** The lock-out answer while the address is locked out, whatever e-mail it tries. */
  readonly checkAddress: (address: string) => Effect.Effect<void, PermissionDenied>
  readonly failedAddress: (address: string) => Effect.Effect<void>
}>()("hedgerow/LoginThrottle") {
  static readonly layer = Layer.sync(LoginThrottle, () => {
    const failures = new Map<string, Failures>()
    const names = (email: string | undefined, address: string | undefined) => [
      ...(email === undefined ? [] : [`email:${foldedEmail(email)}`]),
      ...(address === undefined ? [] : [`address:${address}`])
    ]
    const live = (entry: Failures | undefined, now: number) => entry !== undefined && now - entry.last < LOGIN_COOLOFF
    const lockedOut = new PermissionDenied({
      code: "too_many_failed_attempts",
      detail: `Too many failed login attempts. Please try again in ${LOGIN_COOLOFF_MINUTES} minutes.`
    })
    const check = (email: string | undefined, address?: string) =>
      Effect.flatMap(Clock.currentTimeMillis, (now) =>
        names(email, address).some((name) => {
            const entry = failures.get(name)
            return live(entry, now) && entry!.count >= LOGIN_FAILURE_LIMIT
          })
          ? Effect.fail(lockedOut)
          : Effect.void)
    const failed = (email: string | undefined, address?: string) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        for (const name of names(email, address)) {
          const entry = failures.get(name)
          failures.delete(name)
          if (failures.size >= MAX_TRACKED) {
            for (const [other, held] of failures) if (!live(held, now)) failures.delete(other)
            while (failures.size >= MAX_TRACKED) failures.delete(failures.keys().next().value!)
          }
          // Re-inserted last, so the map stays in order of last failure.
          failures.set(name, { count: live(entry, now) ? entry!.count + 1 : 1, last: now })
        }
      })
    return LoginThrottle.of({
      check,
      failed,
      checkAddress: (address) => check(undefined, address),
      failedAddress: (address) => failed(undefined, address)
    })
  })
}
