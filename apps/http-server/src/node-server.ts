import { envelopeOf, HeadersTooLarge, ParseError, RequestTimeout } from "@hedgerow/core"
import {
  type IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  Server,
  type ServerOptions,
  ServerResponse,
  STATUS_CODES
} from "node:http"
import type { Duplex } from "node:stream"
import { NotedRequest } from "./middleware/request-log.ts"
import type { SdkLane } from "./sdk-lane/lane.ts"
import type { ConnectionTimeouts } from "./settings/timeouts.ts"

// Time a client gets to read a refusal after the server's FIN. Destroying the socket at once, with
// the client's bytes still unread, sends a reset that can make the client drop the refusal.
const CLOSE_GRACE_MS = 500

const failureOf = (code: string | undefined) => {
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return new HeadersTooLarge({ detail: "Request headers are too large." })
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return new RequestTimeout({ detail: "The request was not received in time." })
    default:
      return new ParseError({ detail: "Malformed HTTP request." })
  }
}

/**
 * Requests Node's HTTP parser rejects before any route sees them (an unknown method, bytes that are not
 * HTTP, headers over Node's limit) and requests not received within the timeouts still get the envelope
 * instead of an empty 400 or 408.
 */
const onClientError = (error: Error & { code?: string }, socket: Duplex) => {
  // A response whose head is out owns the connection: closing it is the only answer left.
  const inFlight = (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage
  if (!socket.writable || inFlight?.headersSent === true) return socket.destroy()
  const { status, body } = envelopeOf(failureOf(error.code))
  const text = JSON.stringify(body)
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      `content-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
  )
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    // After a timeout the parser still reads: the rest of a late body would reach its route although the
    // client was told 408. Closing as soon as the answer is out aborts the request instead; a client
    // that was too slow has no bytes left unread, so the close sends no reset.
    socket.once("finish", () => socket.destroy())
  } else {
    // A client that never closes its side would otherwise hold the socket.
    const timer = setTimeout(() => socket.destroy(), CLOSE_GRACE_MS)
    socket.once("close", () => clearTimeout(timer))
  }
}

type OutgoingHeaders = OutgoingHttpHeaders | Array<OutgoingHttpHeader>

/** A body in chunks, still arriving: how much of it is left is unknown. */
const unreadBodyOfUnknownLength = (request: IncomingMessage | undefined) =>
  request !== undefined && !request.complete && request.headers["transfer-encoding"] !== undefined

/**
 * An answer sent before the request body has arrived drops the rest of it. @effect/platform-node reads
 * and drops up to 256 KiB, closing the connection past that, but says `Connection: close` beforehand only
 * when a Content-Length tells it the rest is larger: for a body in chunks the answer would say
 * `keep-alive` and the connection still close, failing the client's next request on it. Such an answer
 * says `close` here, and the adapter then closes the connection once it is sent, as for a Content-Length.
 */
class ClosingResponse extends ServerResponse {
  override writeHead(statusCode: number, message?: string | OutgoingHeaders, headers?: OutgoingHeaders): this {
    if (unreadBodyOfUnknownLength(this.req)) this.shouldKeepAlive = false
    return super.writeHead(statusCode, message as string, headers)
  }
}

/**
 * A server whose requests go to `lane` first: those it takes are answered there, and the rest reach the
 * request listener, which the HTTP adapter attaches without knowing of the lane.
 */
class ServerWithLane extends Server {
  readonly #lane: SdkLane
  constructor(options: ServerOptions, lane: SdkLane) {
    super(options)
    this.#lane = lane
  }
  override emit(event: string, ...args: Array<unknown>): boolean {
    if (event === "request") {
      // Node emits `request` with the request and its response.
      const listenerArgs = args as [IncomingMessage, ServerResponse]
      if (this.#lane(listenerArgs[0], listenerArgs[1])) return true
    }
    return super.emit(event, ...args)
  }
}

/**
 * Node's HTTP server with the timeouts and the answers above, and the SDK lane before the listener.
 * Node looks for requests past their timeouts only every `connectionsCheckingInterval`, 30 s by default,
 * so a timeout could fire 30 s late: looking every quarter of the headers timeout, and at least every
 * second, keeps each close to its value.
 */
export const createNodeServer = (timeouts: ConnectionTimeouts, lane: SdkLane): Server => {
  const server = new ServerWithLane({
    IncomingMessage: NotedRequest,
    ServerResponse: ClosingResponse as typeof ServerResponse,
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    keepAliveTimeout: timeouts.keepAliveMs,
    connectionsCheckingInterval: Math.max(1, Math.min(1_000, Math.floor(timeouts.headersMs / 4)))
  }, lane)
  server.on("clientError", onClientError)
  return server
}
