import { Effect, Option, Schema } from "effect"

/**
 * The error model of decisions.md D1. Each class is one (status, type) pair of PostHog's envelope
 * `{type, code, detail, attr}`; adapters map them one to one and decide nothing.
 */

/** 400 `validation_error`: a field (attr) or the whole input (attr null) broke a rule. */
export class ValidationError extends Schema.TaggedError<ValidationError>()("ValidationError", {
  code: Schema.String,
  detail: Schema.String,
  attr: Schema.NullOr(Schema.String)
}) {
  static field(attr: string | null, detail: string, code = "invalid_input") {
    return new ValidationError({ attr, detail, code })
  }
}

/** 400 `invalid_request`/`parse_error`: the body is not well-formed JSON. */
export class ParseError extends Schema.TaggedError<ParseError>()("ParseError", {
  detail: Schema.String
}) {}

/** 401: no credentials (`not_authenticated`) or credentials that do not match (`authentication_failed`). */
export class AuthenticationError extends Schema.TaggedError<AuthenticationError>()("AuthenticationError", {
  code: Schema.Literals(["not_authenticated", "authentication_failed"]),
  detail: Schema.String
}) {
  static readonly missing = () =>
    new AuthenticationError({ code: "not_authenticated", detail: "Authentication credentials were not provided." })
  static readonly invalidKey = () =>
    new AuthenticationError({
      code: "authentication_failed",
      detail: "Personal API key found in request Authorization header is invalid."
    })
}

/** 403 `permission_denied`: authenticated, but this caller may not do this. */
export class PermissionDenied extends Schema.TaggedError<PermissionDenied>()("PermissionDenied", {
  detail: Schema.String
}) {
  static readonly default = () =>
    new PermissionDenied({ detail: "You do not have permission to perform this action." })
  static readonly missingScope = (scope: string) =>
    new PermissionDenied({ detail: `API key missing required scope '${scope}'` })
}

/** 404 `not_found`: unknown ids and other tenants' ids alike, so ids cannot be probed. */
export class NotFound extends Schema.TaggedError<NotFound>()("NotFound", {
  detail: Schema.String
}) {
  static readonly default = () => new NotFound({ detail: "Not found." })
}

/** Rules written as checks that return their error, or undefined when the input passes. */
export const failIfAny = <E>(error: E | undefined): Effect.Effect<void, E> =>
  error === undefined ? Effect.void : Effect.fail(error)

/** A lookup that found nothing is the 404 every unknown or foreign id answers. */
export const orNotFound = <A>(found: Option.Option<A>): Effect.Effect<A, NotFound> =>
  Option.match(found, { onNone: () => Effect.fail(NotFound.default()), onSome: Effect.succeed })

/** 405 `method_not_allowed`. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  detail: Schema.String
}) {}

/** 409 `server_error`/`conflict`: an optimistic-concurrency check failed. */
export class Conflict extends Schema.TaggedError<Conflict>()("Conflict", {
  detail: Schema.String
}) {}

/** 413 `payload_too_large`. */
export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", {
  detail: Schema.String
}) {}

/** 431 `request_header_fields_too_large`: rejected by the HTTP parser before any route. */
export class HeadersTooLarge extends Schema.TaggedError<HeadersTooLarge>()("HeadersTooLarge", {
  detail: Schema.String
}) {}

/** 415 `unsupported_media_type`. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  detail: Schema.String
}) {}

/** 429 `throttled`; `retryAfter` (seconds) becomes the Retry-After header. */
export class Throttled extends Schema.TaggedError<Throttled>()("Throttled", {
  detail: Schema.String,
  retryAfter: Schema.Int
}) {}

/** 500 `server_error`/`error`: the cause is logged under `requestId`, never sent. */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  detail: Schema.String,
  requestId: Schema.String
}) {}

/** Everything a core service may fail with: what a client of the API can see. */
export type ApiFailure =
  | ValidationError
  | ParseError
  | AuthenticationError
  | PermissionDenied
  | NotFound
  | MethodNotAllowed
  | Conflict
  | PayloadTooLarge
  | UnsupportedMediaType
  | HeadersTooLarge
  | Throttled
  | InternalError

/** Statuses and envelope `type`/`code` per error tag: the one table both adapters read. */
export const envelopeOf = (error: ApiFailure): {
  readonly status: number
  readonly body: { type: string; code: string; detail: string; attr: string | null }
} => {
  const body = (type: string, code: string, attr: string | null = null) => ({ type, code, detail: error.detail, attr })
  switch (error._tag) {
    case "ValidationError":
      return { status: 400, body: body("validation_error", error.code, error.attr) }
    case "ParseError":
      return { status: 400, body: body("invalid_request", "parse_error") }
    case "AuthenticationError":
      return { status: 401, body: body("authentication_error", error.code) }
    case "PermissionDenied":
      return { status: 403, body: body("authentication_error", "permission_denied") }
    case "NotFound":
      return { status: 404, body: body("invalid_request", "not_found") }
    case "MethodNotAllowed":
      return { status: 405, body: body("invalid_request", "method_not_allowed") }
    case "Conflict":
      return { status: 409, body: body("server_error", "conflict") }
    case "PayloadTooLarge":
      return { status: 413, body: body("invalid_request", "payload_too_large") }
    case "UnsupportedMediaType":
      return { status: 415, body: body("invalid_request", "unsupported_media_type") }
    case "HeadersTooLarge":
      return { status: 431, body: body("invalid_request", "request_header_fields_too_large") }
    case "Throttled":
      return { status: 429, body: body("throttled_error", "throttled") }
    case "InternalError":
      return { status: 500, body: body("server_error", "error") }
  }
}
