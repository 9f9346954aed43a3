import { HttpServerResponse } from "effect/http"
import type { Reply } from "./answer.ts"
import { cookiesOf } from "./cookies.ts"

/** A reply as Effect's HTTP server sends it: its status, its headers and cookies, its JSON text or no body. */
export const responseOf = (reply: Reply): HttpServerResponse.HttpServerResponse => {
  const cookies = reply.cookies === undefined || reply.cookies.length === 0 ? {} : { cookies: cookiesOf(reply.cookies) }
  if (reply.json === undefined) return HttpServerResponse.empty({ status: reply.status, headers: reply.headers, ...cookies })
  const options = { status: reply.status, headers: reply.headers, contentType: "application/json", ...cookies }
  return typeof reply.json === "string" ? HttpServerResponse.text(reply.json, options) : HttpServerResponse.uint8Array(reply.json, options)
}
