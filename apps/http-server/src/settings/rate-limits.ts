import { RateLimitSettings } from "@hedgerow/core"
import { Config, Effect, Layer } from "effect"

/** HEDGEROW_RATE_LIMIT=true turns on PostHog's per-key limits (480 a minute, 4800 an hour); they are off by default. */
export const RateLimitsFromConfig = Layer.effect(
  RateLimitSettings,
  Effect.gen(function*() {
    const enabled = yield* Config.Boolean("HEDGEROW_RATE_LIMIT").pipe(Config.withDefault(false))
    return { ...RateLimitSettings.defaultValue(), enabled }
  })
)
