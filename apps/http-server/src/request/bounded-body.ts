import { PayloadTooLarge } from "@hedgerow/core"
import { ByteSize, Effect } from "effect"
import { HttpServerRequest } from "effect/http"

/** Bodies over 1 MiB are refused with 413. */
export const MAX_BODY_BYTES = 1024 * 1024

/** The refusal of a body over `limit` bytes, which names the limit in MiB. */
export const tooLarge = (limit = MAX_BODY_BYTES) =>
  new PayloadTooLarge({ detail: `Request body is larger than the ${limit / (1024 * 1024)} MiB limit.` })

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
