import { type ApiFailure, envelopeOf, NotFound } from "@hedgerow/core"
import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * A `node:http` request listener, with the `next` of connect and Express: called for a request the
 * listener leaves to the rest of the application.
 */
export type NodeListener = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void

/**
 * A base path as the mount compares it: "" for the whole server, else "/a/b" with no trailing slash;
 * undefined for what is not a plain path (no leading slash, a query, a fragment, a space, an escape).
 */
export const normalizeBasePath = (basePath: string): string | undefined =>
  typeof basePath === "string" && basePath.startsWith("/") && !/[?#\s%]/.test(basePath) ? basePath.replace(/\/+$/, "") : undefined

/** The path and query of a request target; a proxy's absolute form is read for them, `*` has none. */
const originForm = (url: string): string | undefined => {
  if (url.startsWith("/")) return url
  if (!URL.canParse(url)) return undefined
  const { protocol, pathname, search } = new URL(url)
  return protocol === "http:" || protocol === "https:" ? pathname + search : undefined
}

/**
 * The target `url` names below `basePath` ("/hedgerow/api/x?y" below "/hedgerow" is "/api/x?y", and
 * "/hedgerow" itself is "/"), or undefined when it is not below it: "/hedgerowx" is not.
 */
export const targetBelow = (basePath: string, url: string): string | undefined => {
  const target = originForm(url)
  if (target === undefined || !target.startsWith(basePath)) return undefined
  const rest = target.slice(basePath.length)
  if (rest === "" || rest.startsWith("?")) return `/${rest}`
  return rest.startsWith("/") ? rest : undefined
}

/** An answer the mount gives itself, in Hedgerow's envelope. */
export const sendFailure = (response: ServerResponse, failure: ApiFailure, status?: number) => {
  const envelope = envelopeOf(failure)
  const text = JSON.stringify(envelope.body)
  response.writeHead(status ?? envelope.status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text)
  })
  response.end(text)
}

/**
 * `serve` under `basePath`: a request below it reaches `serve` with the base path taken off its URL;
 * any other goes to `next`, or without one is answered 404 in the envelope.
 */
export const mountAt = (basePath: string, serve: (request: IncomingMessage, response: ServerResponse) => void): NodeListener =>
(request, response, next) => {
  const target = targetBelow(basePath, request.url ?? "/")
  if (target === undefined) return next === undefined ? sendFailure(response, NotFound.default()) : next()
  request.url = target
  serve(request, response)
}
