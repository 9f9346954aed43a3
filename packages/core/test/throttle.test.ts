import { assert, describe, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { RateLimiter, RateLimitSettings } from "../src/auth/throttle.ts"
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
