import { CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE, rememberedValuesOf, type SessionRequest, TWO_FACTOR_COOKIE } from "@hedgerow/core"
import { Option } from "effect"
import type { HttpServerRequest } from "effect/http"
import type { ServerSettingsShape } from "../settings/server-settings.ts"
import { requestUrl } from "./url.ts"

/**
 * What core's session rules read of an HTTP request. The client's address is the first X-Forwarded-For
 * entry only when the operator says a proxy sets it (HEDGEROW_TRUST_PROXY), since any client could send it.
 */
export const sessionRequestOf = (request: HttpServerRequest.HttpServerRequest, settings: ServerSettingsShape): SessionRequest => {
  const url = requestUrl(request, settings)
  const forwarded = settings.trustProxy ? request.headers["x-forwarded-for"]?.split(",")[0]?.trim() : undefined
  return {
    method: request.method,
    path: request.url,
    sessionKey: request.cookies[SESSION_COOKIE],
    csrfCookie: request.cookies[CSRF_COOKIE],
    csrfHeader: request.headers[CSRF_HEADER],
    twoFactorKey: request.cookies[TWO_FACTOR_COOKIE],
    rememberedDevices: rememberedValuesOf(request.cookies),
    origin: request.headers["origin"],
    ownOrigin: url === undefined ? undefined : new URL(url).origin,
    clientAddress: forwarded || Option.getOrElse(request.remoteAddress, () => "unknown")
  }
}
