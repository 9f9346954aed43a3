import type { Resolver } from "node:dns/promises"
import * as http from "node:http"
import * as https from "node:https"
import { resolveByDns } from "./webhook-transport.ts"

/** One request to a provider, answered in full or not at all. */
export interface BoundedRequest {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string
  /** From the lookup to the last byte of the answer. */
  readonly timeoutMillis: number
  /** An answer longer than this is refused, not read. */
  readonly maxBytes: number
}

export interface BoundedAnswer {
  readonly status: number
  readonly body: string
}

/**
 * One HTTP exchange that cannot hold the server: the host is resolved by DNS queries the event loop waits
 * for (c-ares), never on libuv's shared threads; a deadline covers everything, so a peer that trickles its
 * answer is cut off like one that never answers; the answer is refused past `maxBytes`; no redirect is
 * followed (a 3xx is an answer like any other, which the caller refuses). Fails with an Error whose
 * message names the cause, never a header or body sent.
 */
export const boundedRequest = (resolver: Resolver, request: BoundedRequest): Promise<BoundedAnswer> =>
  new Promise((resolve, reject) => {
    const url = new URL(request.url)
    const client = url.protocol === "https:" ? https : http
    let settled = false
    const finish = (outcome: () => void) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      outgoing.destroy()
      outcome()
    }
    const fail = (message: string) => finish(() => reject(new Error(message)))
    const lookup = (hostname: string, options: { all?: boolean }, callback: (...args: Array<unknown>) => void) => {
      resolveByDns(resolver, hostname).then((addresses) => {
        const first = addresses[0]!
        return options.all === true ? callback(null, addresses) : callback(null, first.address, first.family)
      }, (error: Error) => callback(error, []))
    }
    const outgoing = client.request(url, {
      method: request.method,
      headers: request.body === undefined
        ? request.headers
        : { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup: lookup as never,
      agent: false
    }, (reply) => {
      const chunks: Array<Buffer> = []
      let length = 0
      reply.on("data", (chunk: Buffer) => {
        length += chunk.length
        if (length > request.maxBytes) return fail(`${url.host} answered more than ${request.maxBytes} bytes`)
        chunks.push(chunk)
      })
      reply.on("end", () => finish(() => resolve({ status: reply.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") })))
      reply.on("error", (error) => fail(`${url.host}: ${error.message}`))
    })
    const timer = setTimeout(() => fail(`${url.host} did not answer within ${request.timeoutMillis} ms`), request.timeoutMillis)
    outgoing.on("error", (error: NodeJS.ErrnoException) => fail(`${url.host}: ${error.code ?? error.message}`))
    outgoing.end(request.body)
  })
