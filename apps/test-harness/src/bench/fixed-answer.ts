import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * A node:http request listener answering every request with the same status and bytes, with nothing
 * computed per request: the floor any Node HTTP service on this machine can reach for that answer. A 304
 * has neither body nor length.
 */
export const fixedAnswer = (body: Uint8Array, status: number) => {
  const headers = status === 304 ? {} : { "content-type": "application/json", "content-length": String(body.byteLength) }
  return (_request: IncomingMessage, response: ServerResponse) => {
    response.writeHead(status, headers)
    response.end(body)
  }
}
