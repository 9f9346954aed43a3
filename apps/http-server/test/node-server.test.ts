import { Bootstrap } from "@hedgerow/core"
import { forEachBackend } from "@hedgerow/store/testing"
import { ManagedRuntime } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

forEachBackend((backend) => describe(`the Node server on ${backend.name}`, () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let port = 0
  let key = ""

  beforeAll(async () => {
    runtime = ManagedRuntime.make(backend.on((store) => HedgerowServer.layer({ port: 0, host: "127.0.0.1", store })))
    port = Number(new URL(await runtime.runPromise(HedgerowServer.baseUrl)).port)
    key = (await runtime.runPromise(Bootstrap.use((b) => b.run({})))).personal_api_key
  })
  afterAll(() => runtime.dispose())

  /** Writes raw bytes to the server and returns everything it answers before it closes the connection. */
  const exchange = (request: string) =>
    new Promise<string>((resolve, reject) => {
      // Written, not ended: Node's server drops a request whose client half-closes before the answer is
      // ready (on PostgreSQL it is not, yet). Every request here makes the server close the connection.
      const socket = connect(port, "127.0.0.1", () => socket.write(request))
      let answer = ""
      socket.on("data", (chunk) => (answer += chunk))
      socket.on("close", () => resolve(answer))
      socket.on("error", reject)
    })

  const parse = (answer: string) => {
    const [head, body] = answer.split("\r\n\r\n")
    return { status: head!.split(" ")[1], contentType: /content-type: ([^\r]+)/i.exec(head!)?.[1], body: JSON.parse(body!) }
  }

  it("answers requests Node cannot parse with the envelope, not an empty 400", async () => {
    expect(parse(await exchange("FOO /api/organizations/ HTTP/1.1\r\nHost: x\r\n\r\n"))).toEqual({
      status: "400",
      contentType: "application/json",
      body: { type: "invalid_request", code: "parse_error", detail: "Malformed HTTP request.", attr: null }
    })
  })

  it("answers a Host header that is not a host with 400, not a 500, and ignores an absolute request URL's host", async () => {
    for (const host of ["a b", "[::1", "evil/path"]) {
      const answer = parse(await exchange(`GET /api/projects/?limit=1 HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`))
      expect(answer).toEqual({
        status: "400",
        contentType: "application/json",
        body: { type: "invalid_request", code: "parse_error", detail: "Invalid Host header.", attr: null }
      })
    }
    const absolute = parse(await exchange(
      `GET http://evil.example:99999/api/projects/?limit=1 HTTP/1.1\r\nHost: hedgerow.test\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n\r\n`
    ))
    expect(absolute.status).toBe("200")
    expect(absolute.body.previous).toBe(null)
    expect(absolute.body.next === null || absolute.body.next.startsWith("http://hedgerow.test/api/projects/")).toBe(true)
  })

  it("answers oversized headers with 431 and the envelope", async () => {
    const answer = parse(await exchange(`GET /api/organizations/ HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(100_000)}\r\n\r\n`))
    expect(answer.status).toBe("431")
    expect(answer.body).toEqual({
      type: "invalid_request",
      code: "request_header_fields_too_large",
      detail: "Request headers are too large.",
      attr: null
    })
  })
}))
