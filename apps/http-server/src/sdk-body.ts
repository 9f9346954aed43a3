import { malformedData, PayloadTooLarge, ValidationError } from "@hedgerow/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { gunzipSync } from "node:zlib"
import { readBoundedBody } from "./body.ts"
import { headerText, type RequestHeaders } from "./request-headers.ts"

/** A compressed body may open up to this much; more is refused (413), so a small bomb cannot fill memory. */
export const MAX_DECOMPRESSED_BYTES = 10 * 1024 * 1024

const openedTooLarge = () => new PayloadTooLarge({ detail: "Decompressed request body is larger than the 10 MiB limit." })
/** Bytes that are not UTF-8 are repaired, as PostHog's flags service reads them (mobile SDKs send such). */
const UTF8 = new TextDecoder("utf-8")

export interface SdkEncoding {
  /** `?compression=`: `gzip` (or posthog-js's `gzip-js`) or `base64`; anything else is none. */
  readonly compression?: string | undefined
  readonly contentEncoding?: string | undefined
  readonly contentType?: string | undefined
}

const gunzip = (bytes: Uint8Array): Uint8Array | ValidationError | PayloadTooLarge => {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_DECOMPRESSED_BYTES })
  } catch (cause) {
    return (cause as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" ? openedTooLarge() : malformedData("the body is not valid gzip")
  }
}

/** Base64 as Python's b64decode is given it by PostHog: a `+` sent as a space in a form is put back. */
const fromBase64 = (text: string): Uint8Array => Buffer.from(text.replace(/ /g, "+"), "base64")

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

/**
 * A `/flags` body as PostHog reads what the SDKs send: a form's `data` field is base64 (posthog-js's
 * older requests); `compression` or else `Content-Encoding` says gzip or base64, and a body that starts
 * like gzip is gzip whatever is said; then JSON, or base64 of JSON as some libraries send it.
 */
export const decodeSdkBody = (raw: Uint8Array, encoding: SdkEncoding): unknown => {
  let bytes = raw
  const mediaType = (encoding.contentType ?? "").split(";")[0]!.trim().toLowerCase()
  if (mediaType === "application/x-www-form-urlencoded") {
    const data = new URLSearchParams(UTF8.decode(bytes)).get("data")
    if (data === null) return malformedData("the form has no data field")
    bytes = fromBase64(data)
  }
  const said = (encoding.compression ?? encoding.contentEncoding ?? "").trim().toLowerCase()
  if (said === "gzip" || said === "gzip-js" || isGzip(bytes)) {
    const opened = gunzip(bytes)
    if (!(opened instanceof Uint8Array)) return opened
    bytes = opened
  } else if (said === "base64") {
    bytes = fromBase64(UTF8.decode(bytes))
  }
  const text = UTF8.decode(bytes)
  if (text.trim() === "") return malformedData("the body is empty")
  try {
    return JSON.parse(text)
  } catch {
    try {
      return JSON.parse(UTF8.decode(fromBase64(text.trim())))
    } catch {
      return malformedData("the body is not valid JSON")
    }
  }
}

/** Why a body is none: the errors `decodeSdkBody` answers with (instances, never a parsed body). */
const isFailure = (value: unknown): value is ValidationError | PayloadTooLarge =>
  value instanceof ValidationError || value instanceof PayloadTooLarge

/** The body of a `/flags` request from its bytes, or the 400 or 413 that it cannot be read. */
export const sdkBodyOf = (
  bytes: Uint8Array,
  compression: string | undefined,
  headers: RequestHeaders
): Effect.Effect<unknown, ValidationError | PayloadTooLarge> => {
  const contentEncoding = headerText(headers, "content-encoding")
  const decoded = decodeSdkBody(bytes, { compression, contentEncoding, contentType: headerText(headers, "content-type") })
  return isFailure(decoded) ? Effect.fail(decoded) : Effect.succeed(decoded)
}

/** The body of a `/flags` request, read whole (at most 1 MiB, 413 past it) and decoded. */
export const readSdkBody = (
  request: HttpServerRequest.HttpServerRequest,
  compression: string | undefined
): Effect.Effect<unknown, ValidationError | PayloadTooLarge> =>
  Effect.flatMap(readBoundedBody(request), (bytes) => sdkBodyOf(new Uint8Array(bytes), compression, request.headers))
