import { ParseError, type PayloadTooLarge, UnsupportedMediaType } from "@hedgerow/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readBoundedBody } from "./bounded-body.ts"
import { shapeExcess } from "./json-shape.ts"

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH"])
const UTF8 = new TextDecoder("utf-8", { fatal: true })

/**
 * How deep a management body may nest before it is parsed. Parsing deep nesting holds the event loop far
 * longer than its bytes suggest; below this bound a resource's own rules judge a deep field (and word it).
 */
const MAX_DEPTH = 512
const DEPTH_ONLY = { depth: MAX_DEPTH, members: Number.POSITIVE_INFINITY, containers: Number.POSITIVE_INFINITY }

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
    const text = yield* Effect.try({
      // Bytes that are not UTF-8 are a parse error, as PostHog answers them, not text to repair.
      try: () => UTF8.decode(bytes),
      catch: () => new ParseError({ detail: "JSON parse error - the body is not valid UTF-8" })
    })
    if (shapeExcess(text, DEPTH_ONLY) !== undefined) {
      return yield* new ParseError({ detail: `JSON parse error - the body nests deeper than ${MAX_DEPTH} levels` })
    }
    return yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (cause) => new ParseError({ detail: `JSON parse error - ${String(cause instanceof Error ? cause.message : cause)}` })
    })
  })
