import { IncomingMessage } from "node:http"
import { Context, Fiber } from "effect"
import { HttpRouter, HttpServerRequest, type HttpServerResponse } from "effect/http"
import type { ServerLogShape } from "../log/server-log.ts"
import type { RequestMetrics } from "../observe/request-metrics.ts"
import { lowestStatusOf } from "../log/settings.ts"
import { knownPathOf } from "./known-paths.ts"

/** How a request for no served path is logged: by this marker, never by a path the client chose. */
export const UNMATCHED_PATH = "<unmatched>"

/** What the log learns while a request runs: when it began, the key that authenticated it, and a template set outside the router. */
class RequestNote {
  readonly startedAt: number
  keyId: string | undefined = undefined
  template: string | undefined = undefined
  constructor(startedAt: number) {
    this.startedAt = startedAt
  }
}

/**
 * Each request's note is kept on the request the server received, under a key of this module's own: in
 * the fiber's context it would make every later lookup of the request's services one step longer, and in
 * a weak map it would cost every young-generation collection a pass over the map.
 */
const NOTE = Symbol("hedgerow/request-log/note")
type Noted = { [NOTE]?: RequestNote | undefined }

/**
 * A request as Hedgerow's own server receives it, noted as it arrives (its headers read). The note is
 * part of the request from its construction, so every request keeps one shape, and the log needs no step
 * of its own before the routes run.
 */
export class NotedRequest extends IncomingMessage {
  [NOTE]: RequestNote | undefined = new RequestNote(performance.now())
}

/** Notes a request another server received (an embedding application's) as arriving now. */
export const noteArrival = (request: IncomingMessage): void => {
  ;(request as Noted)[NOTE] = new RequestNote(performance.now())
}

/** The current request's note; undefined while the log is off. */
const currentNote = (): RequestNote | undefined => {
  const fiber = Fiber.getCurrent()
  const request = fiber === undefined ? undefined : Context.getOrUndefined(fiber.context, HttpServerRequest.HttpServerRequest)
  return request === undefined ? undefined : (request.source as Noted)[NOTE]
}

/** Records the key (its id) that authenticated the current request; does nothing while the log is off. */
export const noteKey = (keyId: string): void => {
  const note = currentNote()
  if (note !== undefined) note.keyId = keyId
}

/** Records the template of a request answered outside the router (the web console's pages). */
export const noteTemplate = (template: string): void => {
  const note = currentNote()
  if (note !== undefined) note.template = template
}

/** The template a request is logged by: its matched route's, for a 405 its path's, else the marker. */
export const templateOf = (context: Context.Context<never>, url: string): string =>
  Context.getOrUndefined(context, HttpRouter.RouteContext)?.route.path ?? knownPathOf(url)?.template ?? UNMATCHED_PATH

/**
 * Logs a request's answer and counts it in the metrics, and returns the answer. Called by the middleware
 * that answers the request last (the envelope, or CORS for a preflight), in the step it takes anyway, with
 * the request and its fiber it holds: a step of the log's own would cost every request one more.
 */
export type AnswerRecorder = (
  response: HttpServerResponse.HttpServerResponse,
  request: HttpServerRequest.HttpServerRequest,
  fiber: Fiber.Fiber<unknown, unknown>,
  requestId: string | undefined
) => HttpServerResponse.HttpServerResponse

/**
 * What records each answer in `log`, and in `metrics` when given, for the requests that carry a note (a
 * NotedRequest, or one given to `noteArrival`); undefined when it would record nothing (the level `none`
 * and no metrics), so that requests pass untouched. A line the level leaves out is never built.
 */
export const recorderOf = (log: ServerLogShape, metrics?: RequestMetrics): AnswerRecorder | undefined => {
  const lowest = lowestStatusOf(log.level)
  if (lowest === Number.POSITIVE_INFINITY && metrics === undefined) return undefined
  return (response, request, fiber, requestId) => {
    const source = request.source as Noted
    const note = source[NOTE]
    source[NOTE] = undefined
    // Not noted (received by a server that notes nothing), or recorded already: its source reached the
    // server twice (an embedding's handler called again).
    if (note === undefined) return response
    const durationMs = performance.now() - note.startedAt
    // The route's context is still the fiber's: the router sets it, and the server restores the
    // fiber's context only once the request is answered.
    const path = note.template ?? templateOf(fiber.context, request.url)
    metrics?.record(request.method, path, response.status, durationMs)
    if (response.status < lowest) return response
    log.request({ method: request.method, path, status: response.status, durationMs, requestId, keyId: note.keyId })
    return response
  }
}
