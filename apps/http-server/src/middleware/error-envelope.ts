import { Authentication } from "@hedgerow/core"
import { Cause, Effect, type Option, Predicate, type Types } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { randomUUID } from "node:crypto"
import { envelopeResponse, shuttingDownReply } from "../answers/envelope.ts"
import { responseOf } from "../answers/response.ts"
import { unexpectedFailure } from "../answers/unexpected-failure.ts"
import { ServerSettings, type ServerSettingsShape } from "../settings/server-settings.ts"
import { type AnswerRecorder, templateOf } from "./request-log.ts"
import { unmatched } from "./unmatched.ts"
import { withRequest } from "./with-request.ts"

/**
 * Last line of defence, around every route: every answer gets a request id, a request no route matched
 * is answered by `unmatched`, one stopped by shutdown is 503, and anything else unexpected becomes a 500
 * with that id; its cause goes to the log, never to the client. Each answer, a failure's too, then goes
 * to `record` (the request log and metrics), in the step that sets its id.
 */
export const around = (
  settings: ServerSettingsShape,
  // Taken when the middleware is made: the routes' services are not in a request's own context (see app.ts).
  authentication: Option.Option<Authentication["Service"]>,
  record?: AnswerRecorder | undefined
) => (httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, unknown>) =>
  withRequest((request, fiber) => {
    const requestId = randomUUID()
    const recorded = (response: HttpServerResponse.HttpServerResponse) =>
      record === undefined ? response : record(response, request, fiber, requestId)
    const failed = (cause: Cause.Cause<unknown>): Effect.Effect<HttpServerResponse.HttpServerResponse> => {
      const failure = Cause.findErrorOption(cause)
      if (failure._tag === "Some" && isRouteNotFound(failure.value)) return unmatched(request, requestId, settings, authentication)
      // Interrupted by shutdown (its grace period ran out): nothing failed, so nothing to log.
      if (Cause.hasInterruptsOnly(cause)) {
        return Effect.succeed(responseOf(shuttingDownReply(requestId)))
      }
      const path = templateOf(fiber.context, request.url)
      return Effect.map(unexpectedFailure(cause, { requestId, method: request.method, path }), (failure) => envelopeResponse(failure, requestId))
    }
    return Effect.matchCauseEffect(httpEffect, {
      onSuccess: (response) => Effect.succeed(recorded(HttpServerResponse.setHeader(response, "x-request-id", requestId))),
      onFailure: (cause) => Effect.map(failed(cause), recorded)
    })
    // The router's types insist that a middleware passes unhandled errors on; this one handles all.
  }) as Effect.Effect<HttpServerResponse.HttpServerResponse, Types.unhandled, HttpServerRequest.HttpServerRequest>

/**
 * The envelope alone as a global middleware, for a router without the server's other middleware (the
 * server itself wraps `around` inside the request log and CORS, in app.ts).
 */
export const layer = HttpRouter.middleware(
  Effect.zipWith(Effect.service(ServerSettings), Effect.serviceOption(Authentication), around),
  { global: true }
)

const isRouteNotFound = (error: unknown): boolean =>
  Predicate.hasProperty(error, "reason") && Predicate.isTagged(error.reason, "RouteNotFound")
