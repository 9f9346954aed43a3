import { InternalError } from "@hedgerow/core"
import { type Cause, Effect } from "effect"

/** The request a failure is logged under: its id, its method, and the template of the path it asked for. */
export interface FailedRequest {
  readonly requestId: string
  readonly method: string
  readonly path: string
}

/**
 * A failure nothing expected: its cause goes to the log under the request's id, never to the client,
 * who gets a 500 naming that id. The path is the route's template, since the raw URL may carry ids, or a
 * key in its query.
 */
export const unexpectedFailure = (cause: Cause.Cause<unknown>, request: FailedRequest) =>
  Effect.logError("Unhandled failure", { request_id: request.requestId, method: request.method, path: request.path }, cause).pipe(
    Effect.as(new InternalError({ detail: `A server error occurred (request id ${request.requestId}).`, requestId: request.requestId }))
  )
