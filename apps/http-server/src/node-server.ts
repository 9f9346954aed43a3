import { envelopeOf, HeadersTooLarge, ParseError } from "@hedgerow/core"
import {
  createServer,
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  type Server,
  ServerResponse,
  STATUS_CODES
} from "node:http"
import type { Duplex } from "node:stream"

/**
 * Requests Node's HTTP parser rejects before any route sees them (an unknown method, bytes that are not
 * HTTP, headers over Node's limit) still get the envelope instead of an empty 400.
 */
const onClientError = (error: Error & { code?: string }, socket: Duplex) => {
  if (!socket.writable) return socket.destroy()
  const { status, body } = envelopeOf(
    error.code === "HPE_HEADER_OVERFLOW"
      ? new HeadersTooLarge({ detail: "Request headers are too large." })
      : new ParseError({ detail: "Malformed HTTP request." })
  )
  const text = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
  )
}

type OutgoingHeaders = OutgoingHttpHeaders | Array<OutgoingHttpHeader>

/** A body in chunks, still arriving: how much of it is left is unknown. */
const unreadBodyOfUnknownLength = (request: IncomingMessage | undefined) =>
  request !== undefined && !request.complete && request.headers["transfer-encoding"] !== undefined

/**
 * An answer sent before the request body has arrived drops the rest of it. @effect/platform-node reads
 * and drops up to 256 KiB, closing the connection past that, but says `Connection: close` beforehand only
 * when a Content-Length tells it the rest is larger: for a body in chunks the answer said `keep-alive`
 * and the connection was closed anyway, failing the client's next request on it. Such an answer says
 * `close` here, and the adapter then closes the connection once it is sent, as for a Content-Length.
 */
class ClosingResponse extends ServerResponse {
  override writeHead(statusCode: number, message?: string | OutgoingHeaders, headers?: OutgoingHeaders): this {
    if (unreadBodyOfUnknownLength(this.req)) this.shouldKeepAlive = false
    return super.writeHead(statusCode, message as string, headers)
  }
}

export const createNodeServer = (): Server => {
  const server = createServer({ ServerResponse: ClosingResponse as typeof ServerResponse })
  server.on("clientError", onClientError)
  return server
}
