import { ParseError, type PayloadTooLarge, UnsupportedMediaType } from "@hedgerow/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readBoundedBody } from "./bounded-body.ts"

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"])
const UTF8 = new TextDecoder("utf-8", { fatal: true })

/**
 * The JSON body of a write request, as PostHog reads one: empty means `{}`, another media type is 415,
 * malformed JSON is 400 `parse_error`. Read requests have no body.
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
      // Bytes that are not UTF-8 are a parse error, as PostHog answers them, not text to repair.
      try: (): unknown => JSON.parse(UTF8.decode(bytes)),
      catch: (cause) =>
        new ParseError({ detail: `JSON parse error - ${cause instanceof TypeError ? "the body is not valid UTF-8" : String(cause instanceof Error ? cause.message : cause)}` })
    })
  })
