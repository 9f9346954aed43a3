import { Authentication } from "@hedgerow/core"
import { Authorization, CurrentActor } from "@hedgerow/api"
import { Effect, Layer, Redacted } from "effect"
import { envelopeResponse } from "../answers/envelope.ts"
import { callerOf, noteCaller } from "../middleware/caller.ts"
import { withRequest } from "../middleware/with-request.ts"
import { ServerSettings } from "../settings/server-settings.ts"

/** Bearer key or session cookie → core's Authentication → the CurrentActor every handler reads. Decides nothing itself. */
export const layerNoDeps = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const authentication = yield* Authentication
    const settings = yield* ServerSettings
    return Authorization.of({
      personalApiKey: (httpEffect, { credential }) =>
        withRequest((request) => callerOf(authentication, Redacted.value(credential), request, settings)).pipe(
          Effect.flatMap((actor) => {
            noteCaller(actor)
            return Effect.provideService(httpEffect, CurrentActor, actor)
          }),
          // The 429 goes out directly, with the Retry-After header PostHog's clients back off by.
          Effect.catchTag("Throttled", (throttled) => Effect.succeed(envelopeResponse(throttled)))
        )
    })
  })
)
