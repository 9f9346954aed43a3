import { Authentication, personalApiKeyOf, type UserActor } from "@hedgerow/core"
import { Authorization, CurrentActor } from "@hedgerow/api"
import { Effect, Layer, Redacted } from "effect"
import type { HttpServerRequest } from "effect/http"
import { sessionRequestOf } from "../session-request.ts"
import { ServerSettings, type ServerSettingsShape } from "../settings.ts"
import { envelopeResponse } from "./error-envelope.ts"
import { noteKey } from "./request-log.ts"
import { withRequest } from "./with-request.ts"

/** The caller of an authenticated endpoint: a bearer key, else the session cookie (see Authentication.caller). */
export const callerOf = (
  authentication: Authentication["Service"],
  credential: string,
  request: HttpServerRequest.HttpServerRequest,
  settings: ServerSettingsShape
) => authentication.caller(credential, () => sessionRequestOf(request, settings))

/** The request log names a key by its id, known here without a second lookup; a session is not named. */
export const noteCaller = (actor: UserActor) => {
  const key = personalApiKeyOf(actor)
  if (key !== undefined) noteKey(key.id)
}

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
