import { CurrentActor } from "@hedgerow/api"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readJsonBody } from "../body.ts"
import type { Operation } from "../operations.ts"

interface RawRequest {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params?: unknown
  readonly query?: unknown
}

/** The absolute URL the client used, honouring a reverse proxy's forwarded host and scheme. */
export const requestUrl = (request: HttpServerRequest.HttpServerRequest): string => {
  const forwardedProto = request.headers["x-forwarded-proto"]?.split(",")[0]?.trim()
  const host = request.headers["x-forwarded-host"] ?? request.headers["host"] ?? "localhost"
  return `${forwardedProto ?? "http"}://${host}${request.url}`
}

/**
 * Runs a core operation for a raw HttpApi request: the body is read here (not by HttpApi) so that core
 * validates it after checking scope and tenancy, in PostHog's order.
 */
export const bind = <R>(operation: Operation<R>) => (raw: RawRequest) =>
  Effect.gen(function*() {
    const actor = yield* CurrentActor
    const body = yield* readJsonBody(raw.request)
    return yield* operation({
      actor,
      params: (raw.params ?? {}) as Record<string, string>,
      query: (raw.query ?? {}) as Record<string, string | undefined>,
      body,
      url: requestUrl(raw.request)
    })
  }) as Effect.Effect<any, any, R | CurrentActor>
