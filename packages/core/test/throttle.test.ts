import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { LOGIN_FAILURE_LIMIT, LoginThrottle, RateLimiter, RateLimitSettings } from "../src/auth/throttle.ts"
import type { PersonalApiKeyId } from "../src/shared/ids.ts"

const key = "00000000-0000-4000-8000-000000000001" as PersonalApiKeyId
const other = "00000000-0000-4000-8000-000000000002" as PersonalApiKeyId
const limited = (enabled: boolean) =>
  RateLimiter.layer.pipe(Layer.provide(Layer.succeed(RateLimitSettings, { enabled, perMinute: 2, perHour: 3 })))

describe("per-key rate limits", () => {
  it.effect("refuse the request past a budget, saying when to retry, and count per key", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      yield* limiter.admit(key)
      yield* limiter.admit(key)
      const burst = yield* limiter.admit(key).pipe(Effect.flip)
      assert.deepStrictEqual({ detail: burst.detail, retryAfter: burst.retryAfter }, {
        detail: "Request was throttled. Expected available in 60 seconds.",
        retryAfter: 60
      })
      yield* limiter.admit(other)
      yield* TestClock.adjust("61 seconds")
      yield* limiter.admit(key)
      const sustained = yield* limiter.admit(key).pipe(Effect.flip)
      assert.strictEqual(sustained.retryAfter, 3600 - 61)
    }).pipe(Effect.provide(limited(true))))

  it.effect("are off unless enabled", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter
      const outcomes = yield* Effect.forEach(Array.from({ length: 10 }), () => limiter.admit(key).pipe(Effect.exit))
      assert.isTrue(outcomes.every((exit) => exit._tag === "Success"))
    }).pipe(Effect.provide(limited(false))))
})

describe("log-in throttling (PostHog's django-axes settings)", () => {
  const failTimes = (throttle: LoginThrottle["Service"], n: number, email: (i: number) => string, address: (i: number) => string) =>
    Effect.forEach(Array.from({ length: n }, (_, i) => i), (i) => throttle.failed(email(i), address(i)), { discard: true })

  it.effect("locks an e-mail out after 30 failures, from any addresses, for 10 minutes after the last one", () =>
    Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      yield* failTimes(throttle, LOGIN_FAILURE_LIMIT - 1, () => "Ada@Example.com", (i) => `10.0.0.${i}`)
      yield* throttle.check("ada@example.com", "10.0.1.1")
      yield* throttle.failed("ada@example.com", "10.0.1.1")
      const refused = yield* throttle.check("ADA@example.com", "10.0.2.2").pipe(Effect.flip)
      assert.deepStrictEqual({ code: refused.code, detail: refused.detail }, {
        code: "too_many_failed_attempts",
        detail: "Too many failed login attempts. Please try again in 10 minutes."
      })
      yield* throttle.check("grace@example.com", "10.0.2.2")
      yield* TestClock.adjust("9 minutes")
      yield* Effect.flip(throttle.check("ada@example.com", "10.0.2.2"))
      yield* TestClock.adjust("1 minute")
      yield* throttle.check("ada@example.com", "10.0.2.2")
      // The count starts over once the cool-off has passed.
      yield* throttle.failed("ada@example.com", "10.0.2.2")
      yield* throttle.check("ada@example.com", "10.0.2.2")
    }).pipe(Effect.provide(LoginThrottle.layer)))

  it.effect("counts every spelling the store takes for one address (İ for i, accents) toward one lock", () =>
    Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      const spellings = ["bob@digital.example", "bob@d\u0130gital.example", "BOB@DİGİTAL.EXAMPLE", "bob@dígital.example"]
      yield* failTimes(throttle, LOGIN_FAILURE_LIMIT, (i) => spellings[i % spellings.length]!, (i) => `10.9.${i}.1`)
      for (const spelling of spellings) yield* Effect.flip(throttle.check(spelling, "10.9.99.1"))
      yield* throttle.check("bob@digital.other", "10.9.99.1")
    }).pipe(Effect.provide(LoginThrottle.layer)))

  it.effect("counts a guess without an address (a password change's) for the e-mail alone, with its log-in failures", () =>
    Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      yield* failTimes(throttle, LOGIN_FAILURE_LIMIT - 10, () => "ada@example.com", () => "192.0.2.9")
      yield* Effect.forEach(Array.from({ length: 9 }), () => throttle.failed("Ada@example.com"), { discard: true })
      yield* throttle.check("ada@example.com")
      yield* throttle.failed("ada@example.com")
      // Both ways of guessing are refused now, from any address or none.
      yield* Effect.flip(throttle.check("ada@example.com"))
      yield* Effect.flip(throttle.check("ada@example.com", "192.0.2.10"))
      // The address took only the log-in failures: short of the limit, it still serves other e-mails.
      yield* throttle.check("grace@example.com", "192.0.2.9")
    }).pipe(Effect.provide(LoginThrottle.layer)))

  it.effect("locks an address out after 30 failures, whatever e-mails they named", () =>
    Effect.gen(function*() {
      const throttle = yield* LoginThrottle
      yield* failTimes(throttle, LOGIN_FAILURE_LIMIT, (i) => `user${i}@example.com`, () => "192.0.2.7")
      yield* Effect.flip(throttle.check("someone.else@example.com", "192.0.2.7"))
      yield* throttle.check("someone.else@example.com", "192.0.2.8")
    }).pipe(Effect.provide(LoginThrottle.layer)))
})
