import { RequestDecoding } from "@hedgerow/api"
import { NotFound, toValidationError } from "@hedgerow/core"
import { Cause, Effect, type SchemaIssue } from "effect"
import { HttpApiMiddleware } from "effect/http-api"

/**
 * What a request part that does not decode means: a path names nothing (404), a query, header or body is
 * bad input (400). The server's middleware and the harness's in-process target both translate with it.
 */
export const undecodedPart = (part: "Params" | "Query" | "Headers" | "Payload", issue: SchemaIssue.Issue) =>
  part === "Params" ? NotFound.default() : toValidationError(issue, undefined)

/** Maps HttpApi's own decoding failures onto core's errors; a response that fails to encode stays a 500. */
export const layer = HttpApiMiddleware.layerSchemaErrorTransform(RequestDecoding, (error) => {
  switch (error.kind) {
    case "Params":
    case "Query":
    case "Headers":
    case "Payload":
      return Effect.fail(undecodedPart(error.kind, error.cause.issue))
    default:
      return Effect.failCause(Cause.die(error))
  }
})
