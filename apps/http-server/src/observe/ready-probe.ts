import type { IncomingMessage, ServerResponse } from "node:http"
import type { Readiness } from "./readiness.ts"

/** The readiness path, on the API's port and on the metrics listener. */
export const READY_PATH = "/_ready"

/** Whether a request URL asks for the readiness path (a query is ignored). */
export const isReadyPath = (url: string | undefined): boolean =>
  url !== undefined && url.startsWith(READY_PATH) && (url.length === READY_PATH.length || url[READY_PATH.length] === "?")

/** 200 `{"status":"ready"}`, else 503 with the reason as its status, never cached. */
export const answerReady = (readiness: Readiness, response: ServerResponse): void => {
  const status = readiness.status()
  const body = JSON.stringify({ status })
  response.writeHead(status === "ready" ? 200 : 503, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(body),
    "cache-control": "no-store"
  })
  response.end(body)
}

/**
 * Takes the readiness requests of a Node server before anything else sees them, so that they are answered
 * while the server drains as well: one comparison of the URL for every other request.
 */
export const readyProbe = (readiness: Readiness) => (request: IncomingMessage, response: ServerResponse): boolean => {
  if (!isReadyPath(request.url)) return false
  if (request.method !== "GET" && request.method !== "HEAD") return false
  answerReady(readiness, response)
  return true
}
