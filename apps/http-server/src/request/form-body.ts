import { FormBody, ParseError, type PayloadTooLarge, type UnsupportedMediaType, type UploadedFile } from "@hedgerow/core"
import { Effect, Stream } from "effect"
import { type HttpServerRequest, Multipart } from "effect/http"
import { readBoundedBody } from "./bounded-body.ts"
import { readJsonBody } from "./json-body.ts"

/** A form may carry an upload (a static cohort's CSV), so it may be larger than a JSON body. */
export const MAX_FORM_BYTES = 8 * 1024 * 1024

const isForm = (request: HttpServerRequest.HttpServerRequest) =>
  (request.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase() === "multipart/form-data"

/** Bytes handed to the form parser between two yields to the event loop. */
const SLICE_BYTES = 131_072

const slices = (bytes: Uint8Array): Array<Uint8Array> => {
  const parts: Array<Uint8Array> = []
  for (let start = 0; start < bytes.length; start += SLICE_BYTES) parts.push(bytes.subarray(start, start + SLICE_BYTES))
  return parts
}

/** PostHog's words for a form it cannot read. */
const unreadable = (error: Multipart.MultipartError) => new ParseError({ detail: `Multipart form parse error - ${error.reason._tag}` })

/**
 * The body of an endpoint that takes a form as well as JSON: a `multipart/form-data` body (at most
 * 8 MiB, read whole, then parsed in slices) as core's FormBody, its text fields in order and its files
 * by name; any other body as `readJsonBody` reads it.
 */
export const readFormOrJsonBody = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<unknown, ParseError | PayloadTooLarge | UnsupportedMediaType> =>
  isForm(request) && request.method !== "GET" ? readForm(request) : readJsonBody(request)

const readForm = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.gen(function*() {
    const bytes = new Uint8Array(yield* readBoundedBody(request, MAX_FORM_BYTES))
    const fields: Array<readonly [string, string]> = []
    const files = new Map<string, UploadedFile>()
    // Parsed a slice at a time, the event loop let go between two: a form may be megabytes long.
    yield* Stream.fromIterable(slices(bytes)).pipe(
      Stream.tap(() => Effect.yieldNow),
      Stream.pipeThroughChannel(Multipart.makeChannel(request.headers)),
      Stream.runForEach((part) => {
        if (Multipart.isField(part)) return Effect.sync(() => fields.push([part.key, part.value]))
        if (!Multipart.isFile(part)) return Effect.void
        return Effect.map(part.contentEffect, (content) => {
          files.set(part.key, { name: part.name, content })
        })
      }),
      Effect.mapError(unreadable)
    )
    return new FormBody(fields, files)
  })
