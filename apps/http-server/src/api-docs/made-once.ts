import { Effect } from "effect"
import { HttpBody, HttpServerResponse } from "effect/http"

/**
 * The response with its body as bytes. A body made from text is sent as that text, which Node encodes
 * into a buffer of its own for each response; bytes are handed to every socket as they are, and a
 * socket whose client reads slowly holds only a reference to them.
 */
const asBytes = (response: HttpServerResponse.HttpServerResponse) => {
  const body = response.body
  return body._tag === "Uint8Array" ? HttpServerResponse.setBody(response, HttpBody.uint8Array(body.body, body.contentType)) : response
}

/**
 * A response that is the same on every visit, made at the first visit and kept for the life of the
 * process. Visits that arrive while it is being made wait for it rather than make their own (should all
 * of them leave first, the next visit makes it). Every visit is answered with this one response: the
 * middleware around the route set their headers on copies of it, which share its body.
 */
export const madeOnce = <E, R>(make: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.runSync(Effect.cached(Effect.map(make, asBytes)))
