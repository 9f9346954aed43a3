import { hostOf, isPublicAddress, WebhookSendError, WebhookTransport } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { lookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns"
import { Resolver } from "node:dns/promises"
import * as http from "node:http"
import * as https from "node:https"
import { isIP } from "node:net"

/** The part of a receiver's reply body kept for the attempt's record. */
const EXCERPT_BYTES = 1024
/** A host name that does not resolve in this long counts as unresolvable. */
const RESOLVE_TIMEOUT_MS = 5_000
/** Each DNS query is asked twice at most, waiting this long for the first answer (c-ares doubles it for the second). */
const QUERY_TIMEOUT_MS = 1_500

const blocked = (address: string) => `refused to connect to ${address}: not a public address`

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | ReadonlyArray<LookupAddress>, family?: number) => void

/**
 * A receiver's name resolved by DNS queries the event loop waits for (c-ares), never by the system's
 * resolver: its calls each hold one of libuv's four shared threads until it gives up, so a tenant's names
 * whose DNS never answers would stall the file system, backups and password hashing of every tenant.
 * Names in /etc/hosts alone do not resolve this way; with private addresses allowed, the operator's
 * choice, names resolve as the system does.
 */
export const resolveByDns = async (resolver: Resolver, hostname: string): Promise<Array<LookupAddress>> => {
  const family = isIP(hostname)
  if (family !== 0) return [{ address: hostname, family }]
  // Loopback by definition (RFC 6761), whatever a name server would say.
  if (/(^|\.)localhost\.?$/i.test(hostname)) return [{ address: "127.0.0.1", family: 4 }, { address: "::1", family: 6 }]
  const [v4, v6] = await Promise.allSettled([resolver.resolve4(hostname), resolver.resolve6(hostname)])
  const addresses = [
    ...(v4.status === "fulfilled" ? v4.value.map((address) => ({ address, family: 4 })) : []),
    ...(v6.status === "fulfilled" ? v6.value.map((address) => ({ address, family: 6 })) : [])
  ]
  if (addresses.length === 0) throw v4.status === "rejected" ? v4.reason : new Error(`${hostname} has no address`)
  return addresses
}

const systemLookup = (hostname: string) =>
  new Promise<Array<LookupAddress>>((resolve, reject) =>
    lookup(hostname, { all: true } as LookupAllOptions, (error, addresses) => error === null ? resolve(addresses) : reject(error))
  )

/**
 * Resolves the receiver's name, then refuses the connection unless every address is public (or private
 * ones are allowed): the check is on the addresses the socket is given, so DNS answering differently now
 * than when the URL was accepted changes nothing.
 */
const checkedLookup = (resolver: Resolver, allowPrivate: boolean) => (hostname: string, options: LookupOptions, callback: LookupCallback) => {
  const resolved = allowPrivate ? systemLookup(hostname) : resolveByDns(resolver, hostname)
  resolved.then((addresses) => {
    const refused = allowPrivate ? undefined : addresses.find((entry) => !isPublicAddress(entry.address))
    if (refused !== undefined) return callback(Object.assign(new Error(blocked(refused.address)), { code: "EBLOCKED" }), [])
    const first = addresses[0]
    if (first === undefined) return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), [])
    return options.all === true ? callback(null, addresses) : callback(null, first.address, first.family)
  }, (error: NodeJS.ErrnoException) => callback(error, []))
}

const reasonOf = (error: unknown): string => {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined
  const message = error instanceof Error ? error.message : String(error)
  return typeof code === "string" && !message.includes(code) ? `${code}: ${message}` : message
}

/**
 * One POST, answered by the status and the first bytes of the reply: the rest is not read. The deadline
 * covers everything from the lookup to the last byte kept, so a receiver that trickles its reply is cut
 * off like one that never answers. No redirect is followed (a 3xx is a failed attempt).
 */
const post = (resolver: Resolver) => (request: Parameters<WebhookTransport["Service"]["send"]>[0]) =>
  Effect.callback<{ status: number; excerpt: string }, WebhookSendError>((resume) => {
    const url = new URL(request.url)
    const host = hostOf(url)
    // An address in the URL is connected to without a lookup, so it is checked here.
    if (!request.allowPrivate && isIP(host) !== 0 && !isPublicAddress(host)) {
      return resume(Effect.fail(new WebhookSendError({ message: blocked(host) })))
    }
    const client = url.protocol === "https:" ? https : http
    let settled = false
    const settle = (outcome: Effect.Effect<{ status: number; excerpt: string }, WebhookSendError>) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      outgoing.destroy()
      resume(outcome)
    }
    const fail = (error: unknown) => settle(Effect.fail(new WebhookSendError({ message: reasonOf(error) })))
    const outgoing = client.request(url, {
      method: "POST",
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup: checkedLookup(resolver, request.allowPrivate) as never,
      agent: false
    }, (reply) => {
      const chunks: Array<Buffer> = []
      let kept = 0
      const done = () =>
        settle(Effect.succeed({ status: reply.statusCode ?? 0, excerpt: Buffer.concat(chunks).toString("utf8").slice(0, EXCERPT_BYTES) }))
      reply.on("data", (chunk: Buffer) => {
        chunks.push(chunk)
        kept += chunk.length
        if (kept >= EXCERPT_BYTES) done()
      })
      reply.on("end", done)
      reply.on("error", fail)
    })
    const timer = setTimeout(() => fail(new Error(`no answer within ${request.timeoutMillis} ms`)), request.timeoutMillis)
    outgoing.on("error", fail)
    outgoing.end(request.body)
    return Effect.sync(() => {
      settled = true
      clearTimeout(timer)
      outgoing.destroy()
    })
  })

/** The transport, resolving public names with `resolver` (by default the system's name servers). */
export const layerWith = (resolver: Resolver) =>
  Layer.succeed(
    WebhookTransport,
    WebhookTransport.of({
      resolve: (host) =>
        Effect.tryPromise({
          try: () => resolveByDns(resolver, host).then((addresses) => addresses.map((entry) => entry.address)),
          catch: (error) => new WebhookSendError({ message: reasonOf(error) })
        }).pipe(
          Effect.timeoutOrElse({
            duration: RESOLVE_TIMEOUT_MS,
            orElse: () => Effect.fail(new WebhookSendError({ message: `${host} did not resolve in time` }))
          })
        ),
      send: post(resolver)
    })
  )

export const layer = Layer.suspend(() => layerWith(new Resolver({ timeout: QUERY_TIMEOUT_MS, tries: 2 })))
