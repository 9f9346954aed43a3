import { COMPRESSIONS, FlagsRequestBounds, malformedData, PayloadTooLarge, ValidationError } from "@hedgerow/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { gunzipSync } from "node:zlib"
import { MAX_BODY_BYTES, readBoundedBody } from "./bounded-body.ts"
import { type JsonShapeBounds, shapeExcess } from "./json-shape.ts"
import { decodeLz64 } from "./lz64.ts"
import { headerText, type RequestHeaders } from "./headers.ts"

/**
 * A body the SDKs send, decoded, may be at most as large as a plain body may (413 past it): gzip and lz64
 * stop opening there, so a small bomb costs the event loop about as much as a plain body can.
 */
export const MAX_DECODED_BYTES = MAX_BODY_BYTES

const openedTooLarge = () =>
  new PayloadTooLarge({ detail: `Decompressed request body is larger than the ${MAX_DECODED_BYTES / (1024 * 1024)} MiB limit.` })
/** Bytes that are not UTF-8 are repaired, as PostHog's flags service reads them (mobile SDKs send such). */
const UTF8 = new TextDecoder("utf-8")

export interface SdkEncoding {
  /** `?compression=`: `gzip` (or posthog-js's `gzip-js`), `base64` (or `b64`), `lz64` (or `lz-string`); anything else is none. */
  readonly compression?: string | undefined
  readonly contentEncoding?: string | undefined
  readonly contentType?: string | undefined
}

type Decoded = Uint8Array | string | ValidationError | PayloadTooLarge

const gunzip = (bytes: Uint8Array): Decoded => {
  try {
    return gunzipSync(bytes, { maxOutputLength: MAX_DECODED_BYTES })
  } catch (cause) {
    return (cause as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE" ? openedTooLarge() : malformedData("the body is not valid gzip")
  }
}

const lz64 = (bytes: Uint8Array): Decoded => {
  // lz-string's base64 holds `+`, which a form's encoding may have turned into a space.
  const opened = decodeLz64(plusesRestored(UTF8.decode(bytes).trim()), MAX_DECODED_BYTES)
  if (opened === "tooLarge") return openedTooLarge()
  return opened === "invalid" ? malformedData("the body is not valid lz64") : opened.text
}

const isGzip = (bytes: Uint8Array) => bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b

/** What an SDK says its body is compressed with, in any of the names core knows. */
const compressionOf = (said: string) => {
  const name = said.trim().toLowerCase()
  return Object.hasOwn(COMPRESSIONS, name) ? COMPRESSIONS[name] : undefined
}

/** A `+` of base64 that a form's encoding turned into a space, put back. */
const plusesRestored = (text: string) => text.replace(/ /g, "+")

/** Base64 as PostHog reads it, pluses restored. */
const fromBase64 = (text: string): Uint8Array => Buffer.from(plusesRestored(text), "base64")

/** The first character of the text that is not JSON's whitespace, or -1. */
const firstCode = (text: string): number => {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code !== 0x20 && code !== 0x0a && code !== 0x0d && code !== 0x09) return code
  }
  return -1
}

/** `{`, `[` or `"`: JSON text, which base64 never begins with. */
const isJsonOnly = (code: number) => code === 0x7b || code === 0x5b || code === 0x22
/** A number, `true`, `false` or `null` may begin so; so may base64. */
const mayBeJson = (code: number) => code === 0x2d || (code >= 0x30 && code <= 0x39) || code === 0x74 || code === 0x66 || code === 0x6e

/** What a body may make the parser build, as core bounds it, and why each bound refuses a body. */
export const SDK_BODY_SHAPE: JsonShapeBounds = {
  depth: FlagsRequestBounds.MAX_DEPTH,
  members: FlagsRequestBounds.MAX_MEMBERS,
  containers: FlagsRequestBounds.MAX_CONTAINERS
}

const SHAPE_REFUSALS: Readonly<Record<keyof JsonShapeBounds, string>> = {
  depth: FlagsRequestBounds.TOO_DEEP,
  members: FlagsRequestBounds.TOO_WIDE,
  containers: FlagsRequestBounds.TOO_MANY_CONTAINERS
}

const parseJson = (text: string): unknown => {
  const excess = shapeExcess(text, SDK_BODY_SHAPE)
  if (excess !== undefined) return malformedData(SHAPE_REFUSALS[excess])
  try {
    return JSON.parse(text)
  } catch {
    return malformedData("the body is not valid JSON")
  }
}

/**
 * A form's fields, or the refusal of one with more fields than a JSON object may have members: its
 * separators are counted before any field is read.
 */
const formFields = (raw: Uint8Array): URLSearchParams | ValidationError => {
  let separators = 0
  for (let at = raw.indexOf(0x26); at !== -1; at = raw.indexOf(0x26, at + 1)) {
    if (++separators >= FlagsRequestBounds.MAX_MEMBERS) return malformedData(FlagsRequestBounds.TOO_WIDE)
  }
  return new URLSearchParams(UTF8.decode(raw))
}

/**
 * A body as PostHog reads what its SDKs send to `/flags`, `/decide` and the capture endpoints, each
 * encoding undone exactly once: a form's `data` field (or a GET's `data` query parameter, given as
 * `form`) is the payload; `compression` (the query's, else the form's) or else `Content-Encoding` says
 * gzip or lz64, and a payload that starts like gzip is gzip whatever is said; what is then not JSON is
 * base64 of it, as posthog-js's `compression=base64`, a form's `data` or a library sending it raw
 * give it (JSON that begins with `{`, `[` or `"` is never read as base64).
 */
export const decodeSdkBody = (raw: Uint8Array, encoding: SdkEncoding, form?: URLSearchParams): unknown => {
  let payload = raw
  let said = encoding.compression
  const mediaType = (encoding.contentType ?? "").split(";")[0]!.trim().toLowerCase()
  const fields = form ?? (mediaType === "application/x-www-form-urlencoded" ? formFields(raw) : undefined)
  if (fields instanceof ValidationError) return fields
  if (fields !== undefined) {
    // A field given twice is its last value, as PostHog reads a form.
    const data = fields.getAll("data").at(-1)
    if (data === undefined) return malformedData("the form has no data field")
    payload = Buffer.from(data)
    said ??= fields.getAll("compression").at(-1)
  }
  if (payload.byteLength > MAX_DECODED_BYTES) return openedTooLarge()
  const compression = compressionOf(said ?? encoding.contentEncoding ?? "")
  const opened = compression === "gzip" || isGzip(payload) ? gunzip(payload) : compression === "lz64" ? lz64(payload) : payload
  if (opened instanceof ValidationError || opened instanceof PayloadTooLarge) return opened
  const text = typeof opened === "string" ? opened : UTF8.decode(opened)
  if (text.trim() === "") return malformedData("the body is empty")
  const first = firstCode(text)
  if (isJsonOnly(first)) return parseJson(text)
  if (mayBeJson(first)) {
    try {
      return JSON.parse(text)
    } catch {
      // Base64 after all.
    }
  }
  return parseJson(UTF8.decode(fromBase64(text.trim())))
}

/** Why a body is none: the errors `decodeSdkBody` answers with (instances, never a parsed body). */
const isFailure = (value: unknown): value is ValidationError | PayloadTooLarge =>
  value instanceof ValidationError || value instanceof PayloadTooLarge

/** The body of an SDK request from its bytes, or the 400 or 413 that it cannot be read. */
export const sdkBodyOf = (
  bytes: Uint8Array,
  compression: string | undefined,
  headers: RequestHeaders,
  form?: URLSearchParams
): Effect.Effect<unknown, ValidationError | PayloadTooLarge> => {
  const contentEncoding = headerText(headers, "content-encoding")
  const decoded = decodeSdkBody(bytes, { compression, contentEncoding, contentType: headerText(headers, "content-type") }, form)
  return isFailure(decoded) ? Effect.fail(decoded) : Effect.succeed(decoded)
}

/** The body of an SDK request, read whole (at most 1 MiB, 413 past it) and decoded. */
export const readSdkBody = (
  request: HttpServerRequest.HttpServerRequest,
  compression: string | undefined
): Effect.Effect<unknown, ValidationError | PayloadTooLarge> =>
  Effect.flatMap(readBoundedBody(request), (bytes) => sdkBodyOf(new Uint8Array(bytes), compression, request.headers))
