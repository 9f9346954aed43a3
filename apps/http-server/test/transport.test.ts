import { Bootstrap } from "@hedgerow/core"
import { ConfigProvider, Effect, Exit, Layer, ManagedRuntime } from "effect"
import { connect, Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { DEFAULT_TIMEOUTS, timeoutsFromConfig } from "../src/settings/timeouts.ts"

// The transport does not depend on the store: these suites run on the embedded one only.

/** A server configured by `env` as a deployment's environment would configure it, bootstrapped. */
const start = async (env: Record<string, string>) => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }).pipe(
    Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env })))
  ))
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
  beforeAll(async () => (server = await start({})))
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

describe("a client too slow to send its request", () => {
  const REQUEST_TIMEOUT_MS = 500
  const HEADERS_TIMEOUT_MS = 200
  let server: Awaited<ReturnType<typeof start>>
  beforeAll(async () => (server = await start({
    HEDGEROW_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HEDGEROW_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS)
  })))
  afterAll(() => server.runtime.dispose())

  const timedOut = { type: "invalid_request", code: "request_timeout", detail: "The request was not received in time.", attr: null }

  it("that promises 100 bytes and sends 10 is answered 408 once the request timeout passes, and others are served meanwhile", async () => {
    const slow = open(server.port)
    slow.socket.write(
      `POST ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":"x`
    )
    // While it waits, other requests are answered.
    const others = await Promise.all(Array.from({ length: 3 }, () =>
      fetch(`http://127.0.0.1:${server.port}${server.projects}`, { headers: { authorization: `Bearer ${server.key}` } })
    ))
    expect(others.map((response) => response.status)).toEqual([200, 200, 200])
    expect(slow.socket.closed).toBe(false)
    const closed = await slow.closed
    expect(parse(closed.text)).toMatchObject({ status: 408, connection: "close", body: timedOut })
    expect(closed.endedByServer).toBe(true)
    expect(closed.ms).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50)
    // Node looks for expired requests every quarter of the headers timeout here; the rest is slack for a busy machine.
    expect(closed.ms).toBeLessThan(REQUEST_TIMEOUT_MS + 1_000)
  })

  it("that sends the rest of its body once told 408 does not reach the route: nothing is created", async () => {
    const body = JSON.stringify({ name: "Finished after its 408" })
    // Half-open: it goes on writing after the server's end, as a careless or hostile client may.
    const late = new Socket({ allowHalfOpen: true })
    let answer = ""
    late.on("error", () => {})
    late.on("data", (chunk) => {
      answer += chunk
      if (answer.startsWith("HTTP/1.1 408") && !late.writableEnded) late.end(body.slice(10))
    })
    const closed = new Promise((resolve) => late.on("close", resolve))
    late.connect(server.port, "127.0.0.1", () =>
      late.write(
        `POST ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n` +
          `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 10)}`
      ))
    await closed
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
    const listed = await fetch(`http://127.0.0.1:${server.port}${server.projects}`, { headers: { authorization: `Bearer ${server.key}` } })
    expect((await listed.json()).results.map((project: { name: string }) => project.name)).not.toContain("Finished after its 408")
  })

  it("whose headers never end is answered 408 once the headers timeout passes", async () => {
    const slow = open(server.port)
    slow.socket.write(`GET ${server.projects} HTTP/1.1\r\nHost: x\r\nX-Slow: 1`)
    const closed = await slow.closed
    expect(parse(closed.text)).toMatchObject({ status: 408, connection: "close", body: timedOut })
    expect(closed.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50)
    // Sooner than the request timeout: it is the headers timeout that ended it.
    expect(closed.ms).toBeLessThan(REQUEST_TIMEOUT_MS)
  })

  it("leaves a connection idle between requests to the keep-alive timeout, not the request timeout", async () => {
    const connection = open(server.port)
    connection.socket.write(`GET ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n\r\n`)
    expect((await connection.response()).status).toBe(200)
    // Idle past the request timeout, but within keep-alive: the connection still serves.
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS + 300))
    const seen = connection.length()
    connection.socket.write(`GET ${server.projects} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.key}\r\n\r\n`)
    expect((await connection.response(seen)).status).toBe(200)
    connection.socket.destroy()
  })
})

describe("the timeout settings", () => {
  const read = (env: Record<string, string>) =>
    Effect.runPromise(Effect.exit(timeoutsFromConfig.pipe(Effect.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))))

  it("default to 10 s for the headers, 30 s for the whole request and 5 s between requests", async () => {
    expect(await read({})).toEqual(Exit.succeed(DEFAULT_TIMEOUTS))
    expect(DEFAULT_TIMEOUTS).toEqual({ headersMs: 10_000, requestMs: 30_000, keepAliveMs: 5_000 })
    expect(await read({ HEDGEROW_REQUEST_TIMEOUT_MS: "4000", HEDGEROW_KEEP_ALIVE_TIMEOUT_MS: "65000" }))
      .toEqual(Exit.succeed({ headersMs: 4_000, requestMs: 4_000, keepAliveMs: 65_000 }))
  })

  it("refuse what is not a whole number of milliseconds from 1 to 2^31 - 1, naming the variable", async () => {
    for (const [name, value] of [
      ["HEDGEROW_HEADERS_TIMEOUT_MS", "0"],
      ["HEDGEROW_REQUEST_TIMEOUT_MS", "30s"],
      ["HEDGEROW_REQUEST_TIMEOUT_MS", "-1"],
      ["HEDGEROW_KEEP_ALIVE_TIMEOUT_MS", "1.5"],
      ["HEDGEROW_REQUEST_TIMEOUT_MS", "2147483648"]
    ] as const) {
      const exit = await read({ [name]: value })
      expect(Exit.isFailure(exit) && Exit.findErrorOption(exit)).toMatchObject({
        value: {
          _tag: "TimeoutConfigError",
          message: `${name} must be a whole number of milliseconds from 1 to 2147483647, not "${value}"`
        }
      })
    }
  })

  it("refuse a headers timeout longer than the request timeout", async () => {
    const exit = await read({ HEDGEROW_HEADERS_TIMEOUT_MS: "40000" })
    expect(Exit.isFailure(exit) && Exit.findErrorOption(exit)).toMatchObject({
      value: {
        message: "HEDGEROW_HEADERS_TIMEOUT_MS (40000) may not exceed HEDGEROW_REQUEST_TIMEOUT_MS (30000, its default): the headers are part of the request"
      }
    })
  })

  it("keep the server from starting", async () => {
    const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }).pipe(
      Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HEDGEROW_REQUEST_TIMEOUT_MS: "soon" } })))
    ))
    await expect(runtime.runPromise(HedgerowServer.baseUrl)).rejects.toMatchObject({ _tag: "TimeoutConfigError" })
    await runtime.dispose()
  })
})
