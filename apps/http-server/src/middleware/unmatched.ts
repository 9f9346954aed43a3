import { type Authentication, MethodNotAllowed, NotFound } from "@hedgerow/core"
import { Effect, Option } from "effect"
import { type HttpServerRequest, HttpServerResponse } from "effect/http"
import { envelopeResponse } from "../answers/envelope.ts"
import type { ServerSettingsShape } from "../settings/server-settings.ts"
import * as WebConsole from "../web-console/routes.ts"
import { callerOf, noteCaller } from "./caller.ts"
import { knownPathOf } from "./known-paths.ts"

/**
 * A request no route matched: a page of the web console when `hedgerow serve` has one (see its
 * fallback), else the API's 404 or 405.
 */
export const unmatched = (
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  settings: ServerSettingsShape,
  authentication: Option.Option<Authentication["Service"]>
) =>
  Effect.flatMap(WebConsole.fallback(request), Option.match({
    onSome: (page) => Effect.succeed(HttpServerResponse.setHeader(page, "x-request-id", requestId)),
    onNone: () => unmatchedApi(request, requestId, settings, authentication)
  }))

/**
 * An unknown path is 404. A known path with another method is 405, but, as PostHog answers it, only once
 * the caller is authenticated: without a valid key or session it is the 401 (or CSRF 403) any endpoint
 * there would give. The SDKs' public paths take no key, so there it is 405 at once.
 */
const unmatchedApi = (
  request: HttpServerRequest.HttpServerRequest,
  requestId: string,
  settings: ServerSettingsShape,
  authentication: Option.Option<Authentication["Service"]>
) => {
  const route = knownPathOf(request.url)
  if (route === undefined) return Effect.succeed(envelopeResponse(NotFound.default(), requestId))
  const credential = /^Bearer\s+(.+)$/i.exec(request.headers["authorization"] ?? "")?.[1] ?? ""
  const refused = envelopeResponse(new MethodNotAllowed({ detail: `Method "${request.method}" not allowed.` }), requestId).pipe(
    HttpServerResponse.setHeader("allow", [...route.methods].join(", "))
  )
  if (route.public) return Effect.succeed(refused)
  return Option.match(authentication, {
    onNone: () => Effect.succeed(refused),
    onSome: (authentication) =>
      callerOf(authentication, credential, request, settings).pipe(
        Effect.map((actor) => {
          noteCaller(actor)
          return refused
        }),
        Effect.catch((failure) => Effect.succeed(envelopeResponse(failure, requestId)))
      )
  })
}
