import { ParseError, PayloadTooLarge, UnsupportedMediaType } from "@hedgerow/core"
import { ByteSize, Effect } from "effect"
import { HttpServerRequest } from "effect/http"

/** Bodies over 1 MiB are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024

/** The refusal of a body over `limit` bytes, which names the limit in MiB. */
export const tooLarge = (limit = MAX_BODY_BYTES) =>
  new PayloadTooLarge({ detail: `Request body is larger than the ${limit / (1024 * 1024)} MiB limit.` })
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"])
const UTF8 = new TextDecoder("utf-8", { fatal: true })

/**
 * A request's body, whole, at most `limit` bytes (1 MiB unless told): a larger one is 413, refused from
 * its declared length when it has one, and otherwise while it is read, so an endless body never sits in
 * memory.
 */
export const readBoundedBody = (
  request: HttpServerRequest.HttpServerRequest,
  limit = MAX_BODY_BYTES
): Effect.Effect<ArrayBuffer, PayloadTooLarge> =>
  Effect.gen(function*() {
    const declared = Number(request.headers["content-length"] ?? "0")
    if (declared > limit) return yield* tooLarge(limit)
    const bytes = yield* request.arrayBuffer.pipe(
      Effect.provideService(HttpServerRequest.MaxBodySize, ByteSize.bytes(limit + 1)),
      Effect.catch(() => Effect.fail(tooLarge(limit)))
    )
    return bytes.byteLength > limit ? yield* tooLarge(limit) : bytes
  })

/**
 * The JSON body of a write request, as DRF's JSONParser would see it: empty means `{}`, another media
 * type is 415, malformed JSON is 400 `parse_error`. Read requests have no body.
 */
export const readJsonBody = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<
  unknown,
  ParseError | PayloadTooLarge | UnsupportedMediaType
> =>
  Effect.gen(function*() {
    if (!WRITE_METHODS.has(request.method)) return undefined
    const bytes = yield* readBoundedBody(request)
    if (bytes.byteLength === 0) return {}
    const contentType = request.headers["content-type"] ?? ""
    const mediaType = contentType.split(";")[0]!.trim().toLowerCase()
    if (mediaType !== "application/json" && !mediaType.endsWith("+json")) {
      return yield* new UnsupportedMediaType({
        detail: `Unsupported media type "${contentType === "" ? "none" : contentType}" in request.`
      })
    }
    return yield* Effect.try({
      // Bytes that are not UTF-8 are a parse error, as in DRF, not text to repair.
      try: (): unknown => JSON.parse(UTF8.decode(bytes)),
      catch: (cause) =>
        new ParseError({ detail: `JSON parse error - ${cause instanceof TypeError ? "the body is not valid UTF-8" : String(cause instanceof Error ? cause.message : cause)}` })
    })
  })
