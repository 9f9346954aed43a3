import { RequestDecoding } from "@hedgerow/api"
import { NotFound, toValidationError } from "@hedgerow/core"
import { Cause, Effect } from "effect"
import { HttpApiMiddleware } from "effect/http-api"

/** Maps HttpApi's own decoding failures onto core's errors; a response that fails to encode stays a 500. */
export const RequestDecodingLive = HttpApiMiddleware.layerSchemaErrorTransform(RequestDecoding, (error) => {
  switch (error.kind) {
    case "Params":
      return Effect.fail(NotFound.default())
    case "Query":
    case "Headers":
    case "Payload":
      return Effect.fail(toValidationError(error.cause.issue, undefined))
    default:
      return Effect.failCause(Cause.die(error))
  }
})
