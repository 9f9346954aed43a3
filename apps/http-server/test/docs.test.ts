import { HedgerowApi } from "@hedgerow/api"
import { ManagedRuntime } from "effect"
import { HttpRouter } from "effect/http"
import { HttpApiScalar, OpenApi } from "effect/http-api"
import { connect, type Socket } from "node:net"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { threadMillis } from "../../../packages/core/test/thread-slices.ts"

// The docs do not depend on the store: the embedded one serves.
let runtime: ManagedRuntime.ManagedRuntime<any, any>
let url = ""
beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  url = await runtime.runPromise(HedgerowServer.baseUrl)
})
afterAll(() => runtime.dispose())

describe("the rendered docs", () => {
  it("are a page of Scalar's bundled script over the OpenAPI document, at the path with and without its slash, on every visit", async () => {
    const schema = (await (await fetch(`${url}/api/schema/`)).json()) as { readonly info: { readonly title: string } }
    const pages: Array<string> = []
    for (const path of ["/api/docs/", "/api/docs", "/api/docs/"]) {
      const response = await fetch(`${url}${path}`)
      expect(response.status, path).toBe(200)
      expect(response.headers.get("content-type"), path).toMatch(/^text\/html/)
      pages.push(await response.text())
    }
    expect(pages[0]).toContain(`<title>${schema.info.title}</title>`)
    expect(pages[0]).toContain("Scalar.createApiReference")
    // Scalar's script is inline, megabytes of it, rather than fetched from a CDN.
    expect(pages[0]!.length).toBeGreaterThan(1_000_000)
    expect(pages[0]).not.toContain("<script src=")
    expect(new Set(pages).size).toBe(1)
  })

  it("are sent as Effect's own renderings are, byte for byte, with their length: the page and the OpenAPI document as JSON", async () => {
    const scalar = HttpRouter.toWebHandler(HttpApiScalar.layer(HedgerowApi, { path: "/api/docs/" }), { disableLogger: true })
    const rendered = [
      { path: "/api/docs/", type: "text/html", body: await (await scalar.handler(new Request("http://localhost/api/docs/"))).bytes() },
      { path: "/api/schema/", type: "application/json", body: new TextEncoder().encode(JSON.stringify(OpenApi.fromApi(HedgerowApi))) }
    ]
    await scalar.dispose()
    for (const { path, type, body } of rendered) {
      for (let visit = 0; visit < 2; visit++) {
        const response = await fetch(`${url}${path}`)
        expect(response.headers.get("content-type"), path).toBe(type)
        expect(response.headers.get("content-length"), path).toBe(String(body.length))
        expect(Buffer.from(await response.arrayBuffer()).equals(body), path).toBe(true)
      }
    }
  })
})

/**
 * The docs page (megabytes) and the OpenAPI document (half a megabyte) are open to anyone. Clients that
 * ask for them and never read the answer must add little to the server's memory and leave it answering
 * everyone else. Clients and server share this process, so its resident memory is the server's and
 * theirs together.
 */

const CLIENTS = 500
const MAX_GROWTH_BYTES = 50_000_000
const HEALTH_MS = 100

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

// Every stalled connection reads into this one small buffer: its answer's first bytes, kept nowhere.
const firstBytes = Buffer.alloc(64)

/** A raw connection that asks for `path`, takes the first bytes of the answer (its status line) and reads no more. */
const stall = (path: string, sockets: Array<Socket>) =>
  new Promise<string>((resolve, reject) => {
    const { port, hostname } = new URL(url)
    const socket = connect({
      port: Number(port),
      host: hostname,
      onread: {
        buffer: firstBytes,
        callback: (length) => {
          resolve(firstBytes.toString("latin1", 0, length).split("\r\n")[0]!)
          // Pauses the socket: the rest of the answer stays with the server and the kernel.
          return false
        }
      }
    })
    sockets.push(socket)
    socket.on("error", reject)
    socket.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}\r\n\r\n`)
  })

/**
 * A `/_health` answer's wait, in wall time and in the CPU the event loop's thread spent meanwhile: the
 * second is the server's own work before it answered, which a machine busy with other work does not lengthen.
 */
const health = async () => {
  const [wall, cpu] = [performance.now(), threadMillis()]
  const response = await fetch(`${url}/_health`)
  expect(response.status).toBe(200)
  await response.arrayBuffer()
  return { wallMs: performance.now() - wall, cpuMs: threadMillis() - cpu }
}

describe(`${CLIENTS} clients that never read their answer`, () => {
  for (const path of ["/api/docs/", "/api/schema/"]) {
    it(`of ${path} add under 50 MB to the server, which answers /_health within ${HEALTH_MS} ms meanwhile`, async () => {
      // The first visit makes the answer, once for the process; then a settled heap to measure from.
      await (await fetch(`${url}${path}`)).arrayBuffer()
      await health()
      gc()
      const before = process.memoryUsage.rss()
      let peak = before
      const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 5)
      const sockets: Array<Socket> = []
      try {
        let answered = false
        const statuses = Promise.all(Array.from({ length: CLIENTS }, () => stall(path, sockets)))
        void statuses.finally(() => (answered = true))
        // While the server takes the connections and starts each answer.
        const arriving: Array<number> = []
        while (!answered) arriving.push((await health()).cpuMs)
        expect(new Set(await statuses)).toEqual(new Set(["HTTP/1.1 200 OK"]))
        // Every connection now holds an answer it does not read.
        const hanging: Array<number> = []
        for (let i = 0; i < 5; i++) hanging.push((await health()).wallMs)
        peak = Math.max(peak, process.memoryUsage.rss())
        expect(Math.max(...arriving), "CPU ms before /_health answered while they arrived").toBeLessThan(HEALTH_MS)
        expect(Math.max(...hanging), "ms before /_health answered while they hung").toBeLessThan(HEALTH_MS)
        expect(peak - before, "bytes the process grew by").toBeLessThan(MAX_GROWTH_BYTES)
      } finally {
        clearInterval(sampler)
        for (const socket of sockets) socket.destroy()
      }
    })
  }
})
