import { ManagedRuntime } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll, expect, it } from "vitest"
import { baseUrl, HedgerowServer } from "../src/index.ts"

let runtime: ManagedRuntime.ManagedRuntime<any, any>
let port = 0

beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer({ port: 0, host: "127.0.0.1", store: {} }))
  port = Number(new URL(await runtime.runPromise(baseUrl)).port)
})
afterAll(() => runtime.dispose())

/** Writes raw bytes to the server and returns everything it answers before closing. */
const exchange = (request: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => socket.end(request))
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
