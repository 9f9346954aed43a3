import { Context, Data, Effect, Layer } from "effect"
import { createServer, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import type { MetricsListenerSettings } from "../settings/metrics-listener.ts"
import type { Observatory } from "./observatory.ts"
import { processMetrics } from "./process-metrics.ts"
import { CONTENT_TYPE } from "./prometheus-text.ts"
import { answerReady, isReadyPath } from "./ready-probe.ts"
import { scrape } from "./scrape.ts"

/** The metrics listener could not bind its port. */
export class MetricsListenError extends Data.TaggedError("MetricsListenError")<{ readonly message: string }> {}

/** A scraper's request must be whole within this long; a slow peer is cut off. */
const REQUEST_TIMEOUT_MS = 5_000
/** How often Node looks for requests past their timeout (its default, 30 s, would let one stay that long). */
const TIMEOUT_CHECK_MS = 1_000

const plain = (response: ServerResponse, status: number, text: string) => {
  response.writeHead(status, { "content-type": "text/plain; charset=utf-8", "content-length": Buffer.byteLength(text) })
  response.end(text)
}

/** The running metrics listener's address, `http://host:port`. */
export class MetricsListener extends Context.Service<MetricsListener, { readonly url: string }>()("hedgerow/http-server/MetricsListener") {}

/**
 * A listener of its own for `GET /metrics` (Prometheus's text format) and `GET /_ready`, apart from the
 * API's port so that tenants' project ids and flag keys reach only whoever can reach this one. It lives
 * from before the store is opened to after the API's server has closed, so that a probe sees every
 * phase.
 */
export const layer = (observatory: Observatory["Service"], settings: MetricsListenerSettings) =>
  Layer.effect(MetricsListener, Effect.gen(function*() {
    const processSeries = yield* Effect.acquireRelease(Effect.sync(processMetrics), (metrics) => Effect.sync(metrics.stop))
    const server: Server = createServer({
      requestTimeout: REQUEST_TIMEOUT_MS,
      headersTimeout: REQUEST_TIMEOUT_MS,
      connectionsCheckingInterval: TIMEOUT_CHECK_MS
    }, (request, response) => {
      // A body is never read: the request is answered and the rest dropped.
      const path = request.url ?? ""
      if (request.method !== "GET" && request.method !== "HEAD") return plain(response, 405, "Method Not Allowed\n")
      if (isReadyPath(path)) return answerReady(observatory.readiness, response)
      if (path !== "/metrics" && !path.startsWith("/metrics?")) return plain(response, 404, "Not Found\n")
      scrape(observatory, processSeries).then(
        (text) => {
          response.writeHead(200, { "content-type": CONTENT_TYPE, "content-length": Buffer.byteLength(text), "cache-control": "no-store" })
          response.end(request.method === "HEAD" ? undefined : text)
        },
        () => plain(response, 500, "The metrics could not be read.\n")
      )
    })
    yield* Effect.acquireRelease(
      Effect.callback<void, MetricsListenError>((resume) => {
        server.once("error", (error) => {
          const message = `cannot listen on ${settings.host}:${settings.port} for metrics: ${error.message}`
          resume(Effect.fail(new MetricsListenError({ message })))
        })
        server.listen(settings.port, settings.host, () => resume(Effect.void))
      }),
      () =>
        Effect.callback<void>((resume) => {
          server.close(() => resume(Effect.void))
          server.closeAllConnections()
        })
    )
    const { address, family, port } = server.address() as AddressInfo
    return MetricsListener.of({ url: `http://${family === "IPv6" ? `[${address}]` : address}:${port}` })
  }))
