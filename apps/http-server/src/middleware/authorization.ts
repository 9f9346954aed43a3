import { Authentication } from "@hedgerow/core"
import { Authorization, CurrentActor } from "@hedgerow/api"
import { Effect, Layer, Redacted } from "effect"
import { envelopeResponse } from "./error-envelope.ts"
import { noteKey } from "./request-log.ts"

/** Bearer key → core's Authentication → the CurrentActor every handler reads. Decides nothing itself. */
export const layerNoDeps = Layer.effect(
  Authorization,
  Effect.gen(function*() {
    const authentication = yield* Authentication
    return Authorization.of({
      personalApiKey: (httpEffect, { credential }) =>
        authentication.authenticate(Redacted.value(credential)).pipe(
          Effect.flatMap((actor) => {
            // The request log names the key by its id, known here without a second lookup.
            noteKey(actor.key.id)
            return Effect.provideService(httpEffect, CurrentActor, actor)
          }),
          // The 429 goes out directly, with the Retry-After header PostHog's clients back off by.
          Effect.catchTag("Throttled", (throttled) => Effect.succeed(envelopeResponse(throttled)))
        )
    })
  })
)
