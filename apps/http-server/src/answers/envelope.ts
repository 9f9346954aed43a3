import { type ApiFailure, envelopeOf, InternalError } from "@hedgerow/core"
import type { Reply } from "./answer.ts"
import { responseOf } from "./response.ts"

/** Why a request the server stopped (or, embedded, was closed) before answering gets a 503. */
export const SHUTTING_DOWN = "The server is shutting down."

/** Core's envelope for a failure, as its status, headers (a 429 also says when to retry) and JSON text. */
export const envelopeReply = (failure: ApiFailure, requestId?: string) => {
  const { status, body } = envelopeOf(failure)
  const headers: Record<string, string> = requestId === undefined ? {} : { "x-request-id": requestId }
  if (failure._tag === "Throttled" && failure.retryAfter !== undefined) headers["retry-after"] = String(failure.retryAfter)
  return { status, headers, json: JSON.stringify(body) } satisfies Reply
}

/** A request the server stopped before answering: 503, the envelope of an internal error that says so. */
export const shuttingDownReply = (requestId: string) => ({
  ...envelopeReply(new InternalError({ detail: SHUTTING_DOWN, requestId }), requestId),
  status: 503
})

/** Core's envelope for a failure as a response. */
export const envelopeResponse = (failure: ApiFailure, requestId?: string) => responseOf(envelopeReply(failure, requestId))
