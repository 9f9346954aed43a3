import { Effect, Option, Schema } from "effect"

/**
 * The errors a client can see. Each class is one (status, type) pair of PostHog's envelope
 * `{type, code, detail, attr}`, declared in `errorKinds` below; adapters map them one to one and decide
 * nothing.
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

/**
 * 401. For the management API: no credentials (`not_authenticated`), or credentials that do not match
 * (`authentication_failed`). For flag evaluation, which takes a project's public token: no token
 * (`no_api_key`), or an unknown one (`invalid_api_key`). For events: no token (`ingest_key_required`),
 * as PostHog's capture answers. For a log-in: a right password that still needs its two-factor code
 * (`2fa_required`).
 */
export class AuthenticationError extends Schema.TaggedError<AuthenticationError>()("AuthenticationError", {
  code: Schema.Literals([
    "not_authenticated",
    "authentication_failed",
    "no_api_key",
    "invalid_api_key",
    "ingest_key_required",
    "2fa_required"
  ]),
  detail: Schema.String
}) {
  static readonly missing = () =>
    new AuthenticationError({ code: "not_authenticated", detail: "Authentication credentials were not provided." })
  static readonly invalidKey = () =>
    new AuthenticationError({
      code: "authentication_failed",
      detail: "Personal API key found in request Authorization header is invalid."
    })
  /** PostHog's answer to a `?token=` that names no project. */
  static readonly incorrectCredentials = () =>
    new AuthenticationError({ code: "authentication_failed", detail: "Incorrect authentication credentials." })
  /** A flags request without a project token. */
  static readonly noProjectToken = () =>
    new AuthenticationError({
      code: "no_api_key",
      detail: "No project API key provided. You can find your project API key in PostHog project settings."
    })
  /** Events without a project token, in PostHog's capture's words. */
  static readonly noIngestKey = () =>
    new AuthenticationError({ code: "ingest_key_required", detail: "event submitted without an api_key" })
  /** A right password for a user with two-factor authentication: the code must follow, in PostHog's words. */
  static readonly twoFactorRequired = () => new AuthenticationError({ code: "2fa_required", detail: "2FA is required." })
  /** A flags request whose project token names no project. */
  static readonly invalidProjectToken = () =>
    new AuthenticationError({
      code: "invalid_api_key",
      detail: "Project API key invalid. You can find your project API key in PostHog project settings."
    })
}

/**
 * 403 `permission_denied`: authenticated, but this caller may not do this. A few refusals carry a code
 * of their own in PostHog (a locked-out log-in: `too_many_failed_attempts`).
 */
export class PermissionDenied extends Schema.TaggedError<PermissionDenied>()("PermissionDenied", {
  detail: Schema.String,
  code: Schema.optionalKey(Schema.String)
}) {
  static readonly default = () =>
    new PermissionDenied({ detail: "You do not have permission to perform this action." })
  static readonly missingScope = (scope: string) =>
    new PermissionDenied({ detail: `API key missing required scope '${scope}'` })
  /** Events whose project token names no project, as PostHog's capture refuses them when it checks. */
  static readonly unknownIngestKey = () =>
    new PermissionDenied({ code: "ingest_key_unknown", detail: "api_key does not resolve to a known project" })
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

/** 408 `request_timeout`: the client did not send its whole request in time; answered by the HTTP server before any route. */
export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", {
  detail: Schema.String
}) {}

/** 415 `unsupported_media_type`. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  detail: Schema.String
}) {}

/**
 * 429 `throttled`. `retryAfter` (seconds) becomes the Retry-After header; it is known where the limit is
 * counted, and absent on an error read back from an envelope, whose body does not carry it.
 */
export class Throttled extends Schema.TaggedError<Throttled>()("Throttled", {
  detail: Schema.String,
  retryAfter: Schema.optionalKey(Schema.Int)
}) {}

/**
 * 500 `server_error`/`error`: the cause is logged under `requestId`, never sent. The id is known where the
 * request was answered, and absent on an error read back from an envelope.
 */
export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", {
  detail: Schema.String,
  requestId: Schema.optionalKey(Schema.String)
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
  | RequestTimeout
  | Throttled
  | InternalError

/** How an error goes on the wire: its HTTP status and PostHog's envelope `type` and `code`. */
export interface ErrorKind {
  readonly status: number
  readonly type: string
  /** Errors with a `code` field of their own (validation, authentication) send that one instead. */
  readonly code: string
}

/** Every error's status and envelope, declared once: core, the server and the contract's schemas read it. */
export const errorKinds = {
  ValidationError: { status: 400, type: "validation_error", code: "invalid_input" },
  ParseError: { status: 400, type: "invalid_request", code: "parse_error" },
  AuthenticationError: { status: 401, type: "authentication_error", code: "not_authenticated" },
  PermissionDenied: { status: 403, type: "authentication_error", code: "permission_denied" },
  NotFound: { status: 404, type: "invalid_request", code: "not_found" },
  MethodNotAllowed: { status: 405, type: "invalid_request", code: "method_not_allowed" },
  RequestTimeout: { status: 408, type: "invalid_request", code: "request_timeout" },
  Conflict: { status: 409, type: "server_error", code: "conflict" },
  PayloadTooLarge: { status: 413, type: "invalid_request", code: "payload_too_large" },
  UnsupportedMediaType: { status: 415, type: "invalid_request", code: "unsupported_media_type" },
  Throttled: { status: 429, type: "throttled_error", code: "throttled" },
  HeadersTooLarge: { status: 431, type: "invalid_request", code: "request_header_fields_too_large" },
  InternalError: { status: 500, type: "server_error", code: "error" }
} as const satisfies { readonly [Tag in ApiFailure["_tag"]]: ErrorKind }

/** PostHog's error body. */
export interface Envelope {
  readonly type: string
  readonly code: string
  readonly detail: string
  readonly attr: string | null
}

/** An error's status and body, from its kind and its own fields. */
export const envelopeOf = (error: ApiFailure): { readonly status: number; readonly body: Envelope } => {
  const kind: ErrorKind = errorKinds[error._tag]
  return {
    status: kind.status,
    body: {
      type: kind.type,
      code: "code" in error ? error.code : kind.code,
      detail: error.detail,
      attr: "attr" in error ? error.attr : null
    }
  }
}
