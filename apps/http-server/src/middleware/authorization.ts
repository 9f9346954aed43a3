import {
  Authentication,
  AuthenticationError,
  type PermissionDenied,
  personalApiKeyOf,
  type Throttled,
  type UserActor
} from "@hedgerow/core"
import { Authorization, CurrentActor } from "@hedgerow/api"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpServerRequest } from "effect/http"
import { sessionRequestOf } from "../session-request.ts"
import { ServerSettings } from "../settings.ts"
import { envelopeResponse } from "./error-envelope.ts"
import { noteKey } from "./request-log.ts"

/**
 * The caller of a request, as PostHog's authentication classes find it: a bearer key decides alone (a
 * bad one is a 401 whatever cookies come with it); without one, the `sessionid` cookie's session, whose
 * writes need the CSRF token (403); without either, 401.
 */
export const callerOf = (
  authentication: Authentication["Service"],
  credential: string,
  request: HttpServerRequest.HttpServerRequest,
  trustProxy: boolean
): Effect.Effect<UserActor, AuthenticationError | PermissionDenied | Throttled> =>
  credential.trim() !== ""
    ? authentication.authenticate(credential)
    : authentication.session(sessionRequestOf(request, trustProxy)).pipe(
      Effect.flatMap(Option.match({ onNone: () => Effect.fail(AuthenticationError.missing()), onSome: Effect.succeed }))
    )

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
    const { trustProxy } = yield* ServerSettings
    return Authorization.of({
      personalApiKey: (httpEffect, { credential }) =>
        Effect.flatMap(
          Effect.service(HttpServerRequest.HttpServerRequest),
          (request) => callerOf(authentication, Redacted.value(credential), request, trustProxy)
        ).pipe(
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
