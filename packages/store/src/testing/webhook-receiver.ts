import * as http from "node:http"
import type { AddressInfo } from "node:net"

/** A request a receiver got: its headers and body as sent. */
export interface Received {
  readonly path: string
  readonly headers: Record<string, string>
  readonly body: string
}

/** What a receiver does with the n-th request on a path (from 0): answer a status (and a body), or never answer. */
export type Behaviour = (path: string, n: number) => number | { readonly status: number; readonly body: string } | "hang"

/** A real HTTP receiver on loopback that records every request and answers as `behaviour` says. */
export const startReceiver = async (behaviour: Behaviour) => {
  const received: Array<Received> = []
  const counts = new Map<string, number>()
  const hanging = new Set<http.ServerResponse>()
  const server = http.createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const path = request.url ?? "/"
      const n = counts.get(path) ?? 0
      counts.set(path, n + 1)
      received.push({ path, headers: request.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") })
      const answer = behaviour(path, n)
      if (answer === "hang") return void hanging.add(response)
      const { status, body } = typeof answer === "number" ? { status: answer, body: `answer ${answer} to request ${n}` } : answer
      response.writeHead(status, { "content-type": "text/plain" }).end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    received,
    on: (path: string) => received.filter((one) => one.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}

/** Polls `check` until it returns a value, or fails after `ms`. */
export const eventually = async <A>(check: () => A | undefined | Promise<A | undefined>, ms = 10_000): Promise<A> => {
  const until = Date.now() + ms
  for (;;) {
    const value = await check()
    if (value !== undefined) return value
    if (Date.now() > until) throw new Error(`not within ${ms} ms`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}
