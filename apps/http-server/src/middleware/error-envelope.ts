import { type ApiFailure, Authentication, envelopeOf, InternalError, MethodNotAllowed, NotFound } from "@hedgerow/core"
import { Cause, Effect, Option, Predicate, type Types } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomUUID } from "node:crypto"
import { knownPathOf } from "./known-paths.ts"
import { templateOf } from "./request-log.ts"
import { withRequest } from "./with-request.ts"
import { callerOf, noteCaller } from "./authorization.ts"
import { ServerSettings, type ServerSettingsShape } from "../settings.ts"
import * as WebConsole from "../web-console/routes.ts"

/** A request the server will not finish: it stopped (or, embedded, was closed) before answering; status 503. */
export const SHUTTING_DOWN = "The server is shutting down."

/** Core's envelope for a failure, as its status, headers (a 429 also says when to retry) and JSON text. */
export const envelopeAnswer = (failure: ApiFailure, requestId?: string) => {
  const { status, body } = envelopeOf(failure)
  const headers: Record<string, string> = requestId === undefined ? {} : { "x-request-id": requestId }
  if (failure._tag === "Throttled" && failure.retryAfter !== undefined) headers["retry-after"] = String(failure.retryAfter)
  return { status, headers, json: JSON.stringify(body) }
}

/** A request the server stopped before answering: 503, the envelope of an internal error that says so. */
export const shuttingDownAnswer = (requestId: string) => ({
  ...envelopeAnswer(new InternalError({ detail: SHUTTING_DOWN, requestId }), requestId),
  status: 503
})

const responseOf = ({ status, headers, json }: ReturnType<typeof envelopeAnswer>) =>
  HttpServerResponse.text(json, { status, headers, contentType: "application/json" })

/** Core's envelope for a failure as a response. */
export const envelopeResponse = (failure: ApiFailure, requestId?: string) => responseOf(envelopeAnswer(failure, requestId))

/**
 * A failure nothing expected: its cause goes to the log under the request's id, never to the client,
 * who gets a 500 naming that id. The path is the route's template: the raw URL may carry ids, or a key
 * in its query.
 */
export const unexpectedFailure = (cause: Cause.Cause<unknown>, request: { readonly requestId: string; readonly method: string; readonly path: string }) =>
  Effect.logError("Unhandled failure", { request_id: request.requestId, method: request.method, path: request.path }, cause).pipe(
    Effect.as(new InternalError({ detail: `A server error occurred (request id ${request.requestId}).`, requestId: request.requestId }))
  )

/**
 * A path no route serves: a page of the web console when `hedgerow serve` has one (see its fallback),
 * else the API's answer.
 */
const unmatched = (
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
 * An unknown path is 404. A known path with another method is 405, but, as in DRF, only once the
 * caller is authenticated: without a valid key or session it is the 401 (or CSRF 403) any endpoint
 * there would give. The SDKs' evaluation paths take no key, so there it is 405 at once.
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

/**
 * Last line of defence, around every route: unknown paths and methods get the envelope, and anything
 * unexpected becomes a 500 with a request id; its cause goes to the log, never to the client.
 */
export const around = (
  settings: ServerSettingsShape,
  // Taken when the middleware is made: the routes' services are not in a request's own context (see app.ts).
  authentication: Option.Option<Authentication["Service"]>
) => (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) =>
  withRequest((request, fiber) => {
    const requestId = randomUUID()
    return httpEffect.pipe(
      Effect.map(HttpServerResponse.setHeader("x-request-id", requestId)),
      Effect.catchCause((cause) => {
        const failure = Cause.findErrorOption(cause)
        if (failure._tag === "Some" && isRouteNotFound(failure.value)) return unmatched(request, requestId, settings, authentication)
        // Interrupted by shutdown (its grace period ran out): nothing failed, so nothing to log.
        if (Cause.hasInterruptsOnly(cause)) {
          return Effect.succeed(responseOf(shuttingDownAnswer(requestId)))
        }
        const path = templateOf(fiber.context, request.url)
        return Effect.map(unexpectedFailure(cause, { requestId, method: request.method, path }), (failure) => envelopeResponse(failure, requestId))
      })
    )
    // The router's types insist that a middleware passes unhandled errors on; this one handles all.
  }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>

/** The envelope alone around every route; the server puts the request log around it (see app.ts). */
export const layer = HttpRouter.middleware(
  Effect.zipWith(Effect.service(ServerSettings), Effect.serviceOption(Authentication), around),
  { global: true }
)

const isRouteNotFound = (error: unknown): boolean =>
  Predicate.hasProperty(error, "reason") && Predicate.isTagged(error.reason, "RouteNotFound")
