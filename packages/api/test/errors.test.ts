import { assert, describe, it } from "@effect/vitest"
import { AuthenticationError, errorKinds, NotFound, PermissionDenied, Throttled, ValidationError } from "@hedgerow/core"
import { Schema } from "effect"
import * as Responses from "../src/errors.ts"
import {
  AuthenticationErrorResponse,
  NotFoundResponse,
  PermissionDeniedResponse,
  ThrottledResponse,
  ValidationErrorResponse
} from "../src/errors.ts"

/** Errors the HTTP server answers before any route, so no endpoint of the contract declares them. */
const transportOnly = new Set(["HeadersTooLarge", "RequestTimeout"])

describe("error schemas carry PostHog's envelope", () => {
  it("encode core's errors to {type, code, detail, attr}", () => {
    assert.deepStrictEqual(
      Schema.encodeSync(ValidationErrorResponse)(new ValidationError({ code: "max_length", detail: "Too long.", attr: "name" })),
      { type: "validation_error", code: "max_length", detail: "Too long.", attr: "name" }
    )
    assert.deepStrictEqual(Schema.encodeSync(NotFoundResponse)(NotFound.default()), {
      type: "invalid_request",
      code: "not_found",
      detail: "Not found.",
      attr: null
    })
    assert.deepStrictEqual(Schema.encodeSync(PermissionDeniedResponse)(PermissionDenied.missingScope("project:read")), {
      type: "authentication_error",
      code: "permission_denied",
      detail: "API key missing required scope 'project:read'",
      attr: null
    })
  })

  it("decode the envelope back into core's errors, for clients", () => {
    const decoded = Schema.decodeUnknownSync(AuthenticationErrorResponse)({
      type: "authentication_error",
      code: "authentication_failed",
      detail: "bad",
      attr: null
    })
    assert.instanceOf(decoded, AuthenticationError)
    assert.strictEqual(decoded.code, "authentication_failed")
  })

  it("refuse an envelope of another type, so clients tell errors sharing a status apart", () => {
    const attempt = Schema.decodeUnknownExit(ValidationErrorResponse)({ type: "invalid_request", code: "parse_error", detail: "x", attr: null })
    assert.strictEqual(attempt._tag, "Failure")
  })

  it("take every status from core's table of error kinds", () => {
    const statuses = Object.entries(Responses).flatMap(([name, schema]) =>
      Schema.isSchema(schema) ? [[name.replace(/Response$/, ""), Schema.resolveAnnotations(schema)?.["httpApiStatus"]]] : []
    )
    assert.deepStrictEqual(
      Object.fromEntries(statuses),
      Object.fromEntries(Object.entries(errorKinds).filter(([tag]) => !transportOnly.has(tag)).map(([tag, kind]) => [tag, kind.status]))
    )
  })

  it("read a 429 back without parsing its words: the wait is the Retry-After header's", () => {
    const decoded = Schema.decodeUnknownSync(ThrottledResponse)({
      type: "throttled_error",
      code: "throttled",
      detail: "Request was throttled. Expected available in 5 seconds.",
      attr: null
    })
    assert.instanceOf(decoded, Throttled)
    assert.strictEqual(decoded.retryAfter, undefined)
  })
})
