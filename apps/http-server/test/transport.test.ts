import { Bootstrap } from "@hedgerow/core"
import { ManagedRuntime } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

// The transport does not depend on the store: these suites run on the embedded one only.

/** A bootstrapped server. */
const start = async () => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  const port = Number(new URL(await runtime.runPromise(HedgerowServer.baseUrl)).port)
  const first = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
  return { runtime, port, key: first.personal_api_key, projects: `/api/organizations/${first.organization_id}/projects/` }
}

/** What came back on a raw connection by the time it closed, and how it closed. */
interface Closed {
  readonly text: string
  /** The server ended the connection (FIN), rather than the connection failing. */
  readonly endedByServer: boolean
  readonly ms: number
}

/** A raw connection: what the test writes is sent as is, and everything answered is kept. */
const open = (port: number) => {
  const socket = connect(port, "127.0.0.1")
  const started = Date.now()
  let text = ""
  let endedByServer = false
  socket.on("data", (chunk) => (text += chunk))
  socket.on("end", () => (endedByServer = true))
  // A reset shows as a close without the server's end; the assertions judge it.
  socket.on("error", () => {})
  const closed = new Promise<Closed>((resolve) =>
    socket.on("close", () => resolve({ text, endedByServer, ms: Date.now() - started }))
  )
  /** The next whole response (head and Content-Length body) after `from` characters of the answer. */
  const response = async (from = 0) => {
    for (;;) {
      const rest = text.slice(from)
      const head = rest.indexOf("\r\n\r\n")
      const length = Number(/content-length: (\d+)/i.exec(rest.slice(0, head))?.[1] ?? NaN)
      if (head >= 0 && rest.length >= head + 4 + length) return parse(rest.slice(0, head + 4 + length))
      if (socket.closed) throw new Error(`closed before a whole response: ${JSON.stringify(rest.slice(0, 300))}`)
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  return { socket, closed, response, length: () => text.length }
}

const parse = (response: string) => {
  const [head, body] = [response.slice(0, response.indexOf("\r\n\r\n")), response.slice(response.indexOf("\r\n\r\n") + 4)]
  const header = (name: string) => new RegExp(`^${name}: ([^\r]+)`, "im").exec(head)?.[1]
  return { status: Number(head.split(" ")[1]), connection: header("connection")?.toLowerCase(), body: JSON.parse(body), raw: response }
}

const tooLarge = { type: "invalid_request", code: "payload_too_large", detail: "Request body is larger than the 1 MiB limit.", attr: null }

/** `bytes` of body as chunks of 64 KiB, and the last chunk. */
const chunked = (bytes: number) => {
  const chunk = Buffer.alloc(64 * 1024, "a")
  const chunks: Array<string> = []
  for (let sent = 0; sent < bytes; sent += chunk.length) chunks.push(`${chunk.length.toString(16)}\r\n${chunk}\r\n`)
  return chunks.join("") + "0\r\n\r\n"
}

describe("a body over 1 MiB", () => {
  let server: Awaited<ReturnType<typeof start>>
  beforeAll(async () => (server = await start()))
  afterAll(() => server.runtime.dispose())

  const post = (framing: string) =>
    `POST ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\nContent-Type: application/json\r\n${framing}\r\n`

  /** A new connection serves requests, and says it stays open. */
  const expectServing = async () => {
    const next = open(server.port)
    next.socket.write(`GET ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n\r\n`)
    const answer = await next.response()
    expect(answer.status).toBe(200)
    expect(answer.connection).toBe("keep-alive")
    next.socket.destroy()
  }

  it("in chunks is answered 413 with Connection: close, then the server ends the connection and a new one serves", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const connection = open(server.port)
      connection.socket.write(post("Transfer-Encoding: chunked\r\n") + chunked(2 * 1024 * 1024))
      const answer = await connection.response()
      expect(answer.status).toBe(413)
      expect(answer.connection).toBe("close")
      expect(answer.body).toEqual(tooLarge)
      const closed = await connection.closed
      expect(closed.endedByServer).toBe(true)
      // Nothing follows the 413 on this connection.
      expect(closed.text).toBe(answer.raw)
      await expectServing()
    }
  })

  it("with a Content-Length is answered the same way", async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const connection = open(server.port)
      const bytes = 2 * 1024 * 1024
      connection.socket.write(post(`Content-Length: ${bytes}\r\n`))
      connection.socket.write(Buffer.alloc(bytes, "a"))
      const answer = await connection.response()
      expect(answer.status).toBe(413)
      expect(answer.connection).toBe("close")
      expect(answer.body).toEqual(tooLarge)
      const closed = await connection.closed
      expect(closed.endedByServer).toBe(true)
      expect(closed.text).toBe(answer.raw)
      await expectServing()
    }
  })

  it("in chunks is answered before it is read, as without a key, with Connection: close too", async () => {
    const connection = open(server.port)
    connection.socket.write(
      `POST ${server.projects} HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n` +
        chunked(2 * 1024 * 1024)
    )
    const answer = await connection.response()
    expect(answer.status).toBe(401)
    expect(answer.connection).toBe("close")
    expect((await connection.closed).endedByServer).toBe(true)
    await expectServing()
  })

  it("leaves a chunked body read to its end alone: the connection stays open for the next request", async () => {
    const connection = open(server.port)
    const body = JSON.stringify({ name: "Sent in chunks" })
    connection.socket.write(post("Transfer-Encoding: chunked\r\n") + `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`)
    const created = await connection.response()
    expect(created.status).toBe(201)
    expect(created.connection).toBe("keep-alive")
    const seen = created.raw.length
    connection.socket.write(`GET ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n\r\n`)
    expect((await connection.response(seen)).status).toBe(200)
    connection.socket.destroy()
  })
})
