import {
  AuthenticationError,
  Conflict,
  envelopeOf,
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
 * PostHog's error envelope `{type, code, detail, attr}` on the wire, core's tagged errors in code. The
 * mapping itself is core's `envelopeOf`; these schemas only carry it to HttpApi, OpenAPI and clients.
 */
const envelopeFields = {
  code: Schema.String,
  detail: Schema.String,
  attr: Schema.NullOr(Schema.String)
}

type Failure = Parameters<typeof envelopeOf>[0]
type Envelope = { readonly type: string; readonly code: string; readonly detail: string; readonly attr: string | null }

const envelope = <E extends Failure>(
  error: new(...args: any) => E,
  options: { readonly status: number; readonly type: string; readonly description: string },
  fromEnvelope: (body: Omit<Envelope, "type">) => E
): Schema.Codec<E, Envelope> =>
  Schema.Struct({ type: Schema.Literal(options.type), ...envelopeFields }).pipe(
    Schema.decodeTo(
      Schema.instanceOf(error),
      SchemaTransformation.transform({
        decode: fromEnvelope,
        encode: (failure: E) => envelopeOf(failure).body as Envelope & { type: any }
      })
    ),
    Schema.annotate({ httpApiStatus: options.status, description: options.description })
  )

export const ValidationErrorResponse = envelope(
  ValidationError,
  { status: 400, type: "validation_error", description: "A field or the whole body broke a rule" },
  ({ code, detail, attr }) => new ValidationError({ code, detail, attr })
)
export const ParseErrorResponse = envelope(
  ParseError,
  { status: 400, type: "invalid_request", description: "Malformed JSON" },
  ({ detail }) => new ParseError({ detail })
)
export const AuthenticationErrorResponse = envelope(
  AuthenticationError,
  { status: 401, type: "authentication_error", description: "Missing or invalid personal API key" },
  ({ code, detail }) => new AuthenticationError({ code: code as AuthenticationError["code"], detail })
)
export const PermissionDeniedResponse = envelope(
  PermissionDenied,
  { status: 403, type: "authentication_error", description: "Missing scope or insufficient level" },
  ({ detail }) => new PermissionDenied({ detail })
)
export const NotFoundResponse = envelope(
  NotFound,
  { status: 404, type: "invalid_request", description: "Unknown id, or another organization's" },
  ({ detail }) => new NotFound({ detail })
)
export const MethodNotAllowedResponse = envelope(
  MethodNotAllowed,
  { status: 405, type: "invalid_request", description: "Method not allowed" },
  ({ detail }) => new MethodNotAllowed({ detail })
)
export const ConflictResponse = envelope(
  Conflict,
  { status: 409, type: "server_error", description: "Changed by someone else meanwhile" },
  ({ detail }) => new Conflict({ detail })
)
export const PayloadTooLargeResponse = envelope(
  PayloadTooLarge,
  { status: 413, type: "invalid_request", description: "Body over 1 MiB" },
  ({ detail }) => new PayloadTooLarge({ detail })
)
export const UnsupportedMediaTypeResponse = envelope(
  UnsupportedMediaType,
  { status: 415, type: "invalid_request", description: "Write body that is not JSON" },
  ({ detail }) => new UnsupportedMediaType({ detail })
)
export const ThrottledResponse = envelope(
  Throttled,
  { status: 429, type: "throttled_error", description: "Over the key's rate limit (when enabled); see Retry-After" },
  ({ detail }) => new Throttled({ detail, retryAfter: Number(/in (\d+) second/.exec(detail)?.[1] ?? 1) })
)
export const InternalErrorResponse = envelope(
  InternalError,
  { status: 500, type: "server_error", description: "Unexpected failure; the detail names a request id" },
  ({ detail }) => new InternalError({ detail, requestId: /request id ([\w-]+)/.exec(detail)?.[1] ?? "" })
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
