import { Effect } from "effect"
import { HttpServerResponse } from "effect/http"
import type { AnswerRecorder } from "./request-log.ts"
import { withRequest } from "./with-request.ts"

/**
 * CORS for the SDKs' public paths, as PostHog answers it: posthog-js calls `/flags` (and the older
 * `/decide`), loads its remote configuration (`/array/{token}/config`, `config.js`) and sends its events
 * (`/e/`, `/i/v0/e/`, ...) from any site with the project's public token, so those paths echo any
 * `Origin` and answer preflights. Nothing else answers CORS: the management API works by personal keys,
 * which a page on another site has no business sending from a user's browser.
 */

/**
 * The SDKs' public paths, with or without a trailing slash or a query, in any case (as the router matches
 * them), and the methods each serves.
 */
const SDK_PATHS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/(?:flags|decide)\/?(?:\?|$)/i, "POST, OPTIONS"],
  [/^\/array\/[^/?]+\/config(?:\.js)?(?:\?|$)/i, "GET, OPTIONS"],
  [/^\/(?:e|i\/v0\/e|batch|capture|track|engage|s)\/?(?:\?|$)/i, "GET, POST, OPTIONS"]
]

/** The methods an SDK path serves, as a preflight's `Allow` names them; undefined for any other path. */
const sdkPathMethods = (url: string): string | undefined => SDK_PATHS.find(([pattern]) => pattern.test(url))?.[1]

/**
 * The headers a preflight names, as PostHog's flags and capture services allow them: whatever the request
 * asks for (SDKs send `Content-Encoding: gzip` with their events, proxies and tracers add their own), each
 * a header name, beside the two PostHog's older endpoints name.
 */
const BASE_HEADERS = ["X-Requested-With", "Content-Type"]
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const allowedHeaders = (requested: string | undefined): string => {
  const names = new Map(BASE_HEADERS.map((name) => [name.toLowerCase(), name]))
  for (const given of (requested ?? "").split(",")) {
    const name = given.trim()
    if (HEADER_NAME.test(name) && !names.has(name.toLowerCase())) names.set(name.toLowerCase(), name)
  }
  return [...names.values()].join(",")
}

/** The origin as PostHog echoes it: scheme and host of the header, or `*` for one without a host (`null`). */
const allowedOrigin = (origin: string): string => {
  try {
    const url = new URL(origin)
    return url.host === "" ? "*" : `${url.protocol}//${url.host}`
  } catch {
    return "*"
  }
}

/** The CORS headers for a request with an `Origin` to the SDKs' paths. */
export const corsHeaders = (origin: string, requestedHeaders: string | undefined): Record<string, string> => {
  return {
    "access-control-allow-origin": allowedOrigin(origin),
    "access-control-allow-credentials": "true",
    "access-control-allow-methods": "GET, POST, OPTIONS",
    "access-control-allow-headers": allowedHeaders(requestedHeaders)
  }
}

/**
 * Around every route: a preflight (OPTIONS) to an SDK path is answered here, 204 with the CORS headers,
 * before routing, and goes to `record` (the request log and metrics) as the envelope's answers do; any
 * other request to one gets them on whatever it is answered, errors too.
 */
export const around = <E, R>(httpEffect: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>, record?: AnswerRecorder | undefined) =>
  withRequest((request, fiber) => {
    const methods = sdkPathMethods(request.url)
    if (methods === undefined) return httpEffect
    const origin = request.headers["origin"]
    const headers = origin === undefined ? {} : corsHeaders(origin, request.headers["access-control-request-headers"])
    if (request.method === "OPTIONS") {
      const preflight = HttpServerResponse.empty({ status: 204, headers: { ...headers, allow: methods } })
      return Effect.succeed(record === undefined ? preflight : record(preflight, request, fiber, undefined))
    }
    return origin === undefined ? httpEffect : Effect.map(httpEffect, HttpServerResponse.setHeaders(headers))
  })
