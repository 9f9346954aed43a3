import {
  AuthenticationError,
  Conflict,
  type ApiFailure,
  type Envelope,
  envelopeOf,
  errorKinds,
  InternalError,
  MethodNotAllowed,
  NotFound,
  ParseError,
  PayloadTooLarge,
  PermissionDenied,
  Throttled,
  UnsupportedMediaType,
  ValidationError
} from "@hedgerow/core"
import { Schema, SchemaTransformation } from "effect"

/**
 * PostHog's error envelope `{type, code, detail, attr}` on the wire, core's tagged errors in code. Status,
 * type and code come from core's `errorKinds`; these schemas only carry them to HttpApi, OpenAPI and clients.
 */
const envelope = <E extends ApiFailure>(
  tag: E["_tag"],
  error: new(...args: any) => E,
  description: string,
  fromEnvelope: (body: Omit<Envelope, "type">) => E
): Schema.Codec<E, Envelope> => {
  const { status, type } = errorKinds[tag]
  return Schema.Struct({
    type: Schema.Literal(type),
    code: Schema.String,
    detail: Schema.String,
    attr: Schema.NullOr(Schema.String)
  }).pipe(
    Schema.decodeTo(
      Schema.instanceOf(error),
      SchemaTransformation.transform({ decode: fromEnvelope, encode: (failure: E) => ({ ...envelopeOf(failure).body, type }) })
    ),
    Schema.annotate({ httpApiStatus: status, description })
  )
}

const AUTHENTICATION_CODES: ReadonlySet<string> = new Set(AuthenticationError.fields.code.literals)

export const ValidationErrorResponse = envelope(
  "ValidationError",
  ValidationError,
  "A field or the whole body broke a rule",
  ({ code, detail, attr }) => new ValidationError({ code, detail, attr })
)
export const ParseErrorResponse = envelope(
  "ParseError",
  ParseError,
  "Malformed JSON",
  ({ detail }) => new ParseError({ detail })
)
export const AuthenticationErrorResponse = envelope(
  "AuthenticationError",
  AuthenticationError,
  "Missing or invalid personal API key",
  ({ code, detail }) =>
    new AuthenticationError({ code: AUTHENTICATION_CODES.has(code) ? code as AuthenticationError["code"] : "authentication_failed", detail })
)
export const PermissionDeniedResponse = envelope(
  "PermissionDenied",
  PermissionDenied,
  "Missing scope or insufficient level",
  ({ code, detail }) => new PermissionDenied({ detail, ...(code === errorKinds.PermissionDenied.code ? {} : { code }) })
)
export const NotFoundResponse = envelope(
  "NotFound",
  NotFound,
  "Unknown id, or another organization's",
  ({ detail }) => new NotFound({ detail })
)
export const MethodNotAllowedResponse = envelope(
  "MethodNotAllowed",
  MethodNotAllowed,
  "Method not allowed",
  ({ detail }) => new MethodNotAllowed({ detail })
)
export const ConflictResponse = envelope(
  "Conflict",
  Conflict,
  "Changed by someone else meanwhile",
  ({ detail }) => new Conflict({ detail })
)
export const PayloadTooLargeResponse = envelope(
  "PayloadTooLarge",
  PayloadTooLarge,
  "Body over 1 MiB",
  ({ detail }) => new PayloadTooLarge({ detail })
)
export const UnsupportedMediaTypeResponse = envelope(
  "UnsupportedMediaType",
  UnsupportedMediaType,
  "Write body that is not JSON",
  ({ detail }) => new UnsupportedMediaType({ detail })
)
/** The wait travels in the Retry-After header, not in the body, so the decoded error has none. */
export const ThrottledResponse = envelope(
  "Throttled",
  Throttled,
  "Over the key's rate limit (when enabled); see Retry-After",
  ({ detail }) => new Throttled({ detail })
)
/** The request id travels in the x-request-id header (and the detail's words), so the decoded error has none. */
export const InternalErrorResponse = envelope(
  "InternalError",
  InternalError,
  "Unexpected failure; the detail names a request id",
  ({ detail }) => new InternalError({ detail })
)

/**
 * Errors any endpoint may answer, besides 401/429 from the security middleware. ParseError covers a
 * request that cannot be read, from its Host header to its body.
 */
export const ReadErrors = [
  ValidationErrorResponse,
  ParseErrorResponse,
  PermissionDeniedResponse,
  NotFoundResponse,
  InternalErrorResponse
] as const
/** Errors any write endpoint may answer (409 is added where a version check exists). */
export const WriteErrors = [...ReadErrors, PayloadTooLargeResponse, UnsupportedMediaTypeResponse] as const
