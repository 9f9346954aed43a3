import type { ServerSettingsShape } from "../settings/server-settings.ts"
import { headerText, type RequestHeaders } from "./headers.ts"

/** What `requestUrl` reads of a request: its target and headers, from Effect's request or Node's. */
export interface RequestTarget {
  readonly url: string
  readonly headers: RequestHeaders
}

/** A DNS name or IPv4 address, or a bracketed IPv6 address, with an optional port. */
const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/

/**
 * The absolute URL the client used, for pagination links: the mount's base path (which routing never
 * sees) before the path. X-Forwarded-* headers are believed only when the operator says a proxy sets them
 * (HEDGEROW_TRUST_PROXY), since any client could send them. Undefined when the Host header is no host,
 * which makes the request unanswerable.
 */
export const requestUrl = (request: RequestTarget, settings: ServerSettingsShape): string | undefined => {
  const { trustProxy, basePath } = settings
  const header = (name: string) => headerText(request.headers, name)
  const forwarded = (name: string) => (trustProxy ? header(name)?.split(",")[0]?.trim() : undefined)
  const proto = forwarded("x-forwarded-proto")
  const scheme = proto === "https" || proto === "http" ? proto : "http"
  const host = forwarded("x-forwarded-host") ?? header("host") ?? "localhost"
  // A request line may carry an absolute URL; only its path and query are ours to echo.
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(request.url) && URL.canParse(request.url)
    ? (({ pathname, search }) => pathname + search)(new URL(request.url))
    : request.url
  const url = `${scheme}://${host}${basePath}${target}`
  return HOST.test(host) && URL.canParse(url) ? url : undefined
}
