import { Context, Effect, Layer, Option } from "effect"
import { HttpRouter, HttpServerError, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { etagMatches } from "../endpoints/conditional.ts"
import { isApiPath } from "../middleware/known-paths.ts"
import { noteTemplate } from "../middleware/request-log.ts"
import type { ConsoleFile, ConsoleSite } from "./site.ts"

/** The built web console `hedgerow serve` answers beside the API; absent, as when the API is embedded, there is none. */
export class WebConsole extends Context.Service<WebConsole, ConsoleSite>()("hedgerow/WebConsole") {}

/** Assets are named by their content's hash: a browser may keep them for a year without asking again. */
const IMMUTABLE = "public, max-age=31536000, immutable"

/**
 * The page: asked again on every load (it names the current assets), and sent only to this site's
 * frames, scripts and requests: the console talks to its own origin and nothing else.
 */
const PAGE_HEADERS = {
  "cache-control": "no-cache",
  "content-security-policy":
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "x-frame-options": "DENY",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff"
}

/** Whether `Accept-Encoding` admits gzip (by name or `*`, with a weight above 0). */
export const acceptsGzip = (header: string | undefined): boolean =>
  (header ?? "").split(",").some((part) => {
    const [coding = "", ...parameters] = part.split(";").map((piece) => piece.trim().toLowerCase())
    if (coding !== "gzip" && coding !== "*") return false
    const weight = parameters.find((parameter) => parameter.startsWith("q="))
    return weight === undefined || Number(weight.slice(2)) > 0
  })

const fileResponse = (request: HttpServerRequest.HttpServerRequest, file: ConsoleFile, headers: Record<string, string>) => {
  const gzip = file.gzip !== undefined && acceptsGzip(request.headers["accept-encoding"])
  return HttpServerResponse.uint8Array(gzip ? file.gzip! : file.body, {
    contentType: file.contentType,
    headers: {
      ...headers,
      ...(file.gzip === undefined ? {} : { vary: "accept-encoding" }),
      ...(gzip ? { "content-encoding": "gzip" } : {})
    }
  })
}

/** index.html, or 304 when the browser's copy is current. */
const pageResponse = (site: ConsoleSite, request: HttpServerRequest.HttpServerRequest) => {
  const { etag } = site.index
  const cached = etagMatches(request.headers["if-none-match"], etag)
  if (cached) return HttpServerResponse.empty({ status: 304, headers: { etag, "cache-control": PAGE_HEADERS["cache-control"] } })
  return fileResponse(request, site.index, { ...PAGE_HEADERS, etag })
}

const ASSETS_PREFIX = "/assets/"

/** `/` and the assets: routes of their own, beside the API's, which they leave as they are. */
export const routes = Layer.effectDiscard(Effect.gen(function*() {
  const site = yield* WebConsole
  const router = yield* HttpRouter.HttpRouter
  yield* router.add("GET", "/", (request) => Effect.succeed(pageResponse(site, request)))
  yield* router.add("GET", `${ASSETS_PREFIX}*`, (request) => {
    const file = site.assets.get(request.url.split("?")[0]!.slice(ASSETS_PREFIX.length))
    if (file !== undefined) return Effect.succeed(fileResponse(request, file, { "cache-control": IMMUTABLE, "x-content-type-options": "nosniff" }))
    // An unknown asset is the router's 404, answered in the API's envelope.
    return Effect.fail(new HttpServerError.HttpServerError({ reason: new HttpServerError.RouteNotFound({ request }) }))
  })
}))

/** How a page the console serves from the fallback is logged: by this template, never by its path. */
export const PAGES_TEMPLATE = "/*"

/**
 * A console URL (a deep link such as /project/1 loaded or reloaded) is no route of the server: it gets
 * the page, whose script shows the view the URL names. Only for a browser asking for HTML with GET, and
 * never under the API's paths or the assets, which keep their 404 in the envelope. Run only for a
 * request no route matched, so the API's own requests never pass here.
 */
export const fallback = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.map(Effect.serviceOption(WebConsole), Option.flatMap((site) => {
    if (request.method !== "GET" && request.method !== "HEAD") return Option.none()
    if (!(request.headers["accept"] ?? "").includes("text/html")) return Option.none()
    if (isApiPath(request.url) || request.url.startsWith(ASSETS_PREFIX)) return Option.none()
    noteTemplate(PAGES_TEMPLATE)
    return Option.some(pageResponse(site, request))
  }))
