import { ManagedRuntime } from "effect"
import { connect, type Socket } from "node:net"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { threadMillis } from "./thread-time.ts"

/**
 * The docs page (megabytes) and the OpenAPI document (half a megabyte) are open to anyone. Clients that
 * ask for them and never read the answer must add little to the server's memory and leave it answering
 * everyone else. Clients and server share this process, so its resident memory is the server's and
 * theirs together.
 */

const CLIENTS = 500
const MAX_GROWTH_BYTES = 50 * 2 ** 20
const HEALTH_MS = 100

setFlagsFromString("--expose-gc")
const gc = runInNewContext("gc") as () => void

let runtime: ManagedRuntime.ManagedRuntime<any, any>
let url = ""
beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  url = await runtime.runPromise(HedgerowServer.baseUrl)
})
afterAll(() => runtime.dispose())

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
