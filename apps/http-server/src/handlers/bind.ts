import { CurrentActor } from "@hedgerow/api"
import { ParseError } from "@hedgerow/core"
import { Effect } from "effect"
import type { HttpServerRequest } from "effect/http"
import { readJsonBody } from "../body.ts"
import { ServerSettings } from "../settings.ts"
import type { OperationInput } from "../operation.ts"

interface RawRequest {
  readonly request: HttpServerRequest.HttpServerRequest
  readonly params?: unknown
  readonly query?: unknown
}

/**
 * The absolute URL the client used, for pagination links. X-Forwarded-* headers are believed only when
 * the operator says a proxy sets them (HEDGEROW_TRUST_PROXY), since any client could send them.
 */
export const requestUrl = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string | undefined => {
  const forwarded = (name: string) => (trustProxy ? request.headers[name]?.split(",")[0]?.trim() : undefined)
  const proto = forwarded("x-forwarded-proto")
  const scheme = proto === "https" || proto === "http" ? proto : "http"
  const host = forwarded("x-forwarded-host") ?? request.headers["host"] ?? "localhost"
  // A request line may carry an absolute URL; only its path and query are ours to echo.
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(request.url) && URL.canParse(request.url)
    ? (({ pathname, search }) => pathname + search)(new URL(request.url))
    : request.url
  const url = `${scheme}://${host}${target}`
  return HOST.test(host) && URL.canParse(url) ? url : undefined
}

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/** Like Django's host validation: a Host header that is not a host makes the request unanswerable. */
const invalidHost = new ParseError({ detail: "Invalid Host header." })

/**
 * Runs a core operation for a raw HttpApi request. HttpApi does not read the body: core reads it when
 * its rules need it, after scope and tenancy, in PostHog's order.
 */
export const bind = <A, E, R>(operation: (input: OperationInput) => Effect.Effect<A, E, R>) => (raw: RawRequest) =>
  Effect.gen(function*() {
    const actor = yield* CurrentActor
    const { trustProxy } = yield* ServerSettings
    const url = requestUrl(raw.request, trustProxy)
    if (url === undefined) return yield* invalidHost
    return yield* operation({
      actor,
      params: (raw.params ?? {}) as Record<string, string>,
      query: (raw.query ?? {}) as Record<string, string | undefined>,
      body: readJsonBody(raw.request),
      url
    })
  }) as Effect.Effect<A, E | ParseError, R | CurrentActor>
