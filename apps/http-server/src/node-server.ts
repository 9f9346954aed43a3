import { envelopeOf, HeadersTooLarge, ParseError } from "@hedgerow/core"
import { createServer, type Server, STATUS_CODES } from "node:http"
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

export const createNodeServer = (): Server => {
  const server = createServer()
  server.on("clientError", onClientError)
  return server
}
