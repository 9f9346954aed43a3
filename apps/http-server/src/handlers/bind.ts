import { CurrentActor } from "@hedgerow/api"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readJsonBody } from "../body.ts"
import { ServerSettings } from "../settings.ts"
import type { Operation } from "../operations.ts"

interface RawRequest {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params?: unknown
  readonly query?: unknown
}

/**
 * The absolute URL the client used, for pagination links. X-Forwarded-* headers are believed only when
 * the operator says a proxy sets them (HEDGEROW_TRUST_PROXY), since any client could send them.
 */
export const requestUrl = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string => {
  const forwarded = (name: string) => (trustProxy ? request.headers[name]?.split(",")[0]?.trim() : undefined)
  const proto = forwarded("x-forwarded-proto")
  const scheme = proto === "https" || proto === "http" ? proto : "http"
  const host = forwarded("x-forwarded-host") ?? request.headers["host"] ?? "localhost"
  return `${scheme}://${host}${request.url}`
}

/**
 * Runs a core operation for a raw HttpApi request. HttpApi does not read the body: core reads it when
 * its rules need it, after scope and tenancy, in PostHog's order.
 */
export const bind = <R>(operation: Operation<R>) => (raw: RawRequest) =>
  Effect.gen(function*() {
    const actor = yield* CurrentActor
    const { trustProxy } = yield* ServerSettings
    return yield* operation({
      actor,
      params: (raw.params ?? {}) as Record<string, string>,
      query: (raw.query ?? {}) as Record<string, string | undefined>,
      body: readJsonBody(raw.request),
      url: requestUrl(raw.request, trustProxy)
    })
  }) as Effect.Effect<any, any, R | CurrentActor>
