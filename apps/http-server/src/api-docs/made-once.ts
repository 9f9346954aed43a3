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
 * process: visits that arrive while it is being made wait for that one making. Every visit is then
 * answered with the same response, whose headers the middleware around the route add to a copy of.
 */
export const madeOnce = <E, R>(make: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.runSync(Effect.cached(Effect.map(make, asBytes)))
