import { HttpApiMiddleware } from "effect/http-api"
import { NotFoundResponse, ValidationErrorResponse } from "./errors.ts"

/**
 * Request parts HttpApi decodes itself (path and query) must never fail as a 500 or an empty 400: a
 * path that does not decode names nothing (404), a query that does not decode is bad input (400).
 */
export class RequestDecoding extends HttpApiMiddleware.Service<RequestDecoding>()("hedgerow/api/RequestDecoding", {
  error: [ValidationErrorResponse, NotFoundResponse]
}) {}
