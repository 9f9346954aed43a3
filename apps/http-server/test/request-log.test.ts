import { Bootstrap } from "@hedgerow/core"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { formatEntryLine } from "../src/log/entry-line.ts"
import { batchedLineWriter, BLOCK_BYTES, heldByteWriter } from "../src/log/line-writer.ts"
import { type RequestLine, requestLineBound, requestLineEncoder } from "../src/log/request-line.ts"
import type { LogFormat } from "../src/log/settings.ts"

/** A request line as the held writer puts it in its block, read back. */
const requestLineText = (format: LogFormat, line: RequestLine) => {
  const block = Buffer.alloc(BLOCK_BYTES)
  const start = 100
  const end = requestLineEncoder(format)(line, block, start)
  expect(end - start).toBeLessThanOrEqual(requestLineBound(line))
  return block.toString("utf8", start, end)
}

describe("the request log's lines", () => {
  const line = {
    method: "GET",
    path: "/api/projects/:project_id/feature_flags/:id/",
    status: 404,
    durationMs: 3.14159,
    requestId: "5b0f6c58-8a2b-4a3e-9d55-0d8c1a7f2e11",
    keyId: undefined
  }

  it("are text, or one JSON object, with the level the status makes and no key id when there is none", () => {
    expect(requestLineText("text", line)).toMatch(
      /^\S+Z warn GET \/api\/projects\/:project_id\/feature_flags\/:id\/ 404 3\.1ms request_id=5b0f6c58-8a2b-4a3e-9d55-0d8c1a7f2e11\n$/
    )
    const json = requestLineText("json", { ...line, status: 200, keyId: "0e9d2c4b-1f3a-4c5d-8e6f-7a8b9c0d1e2f" })
    expect(json.endsWith("}\n")).toBe(true)
    expect(JSON.parse(json)).toEqual({
      time: expect.any(String),
      level: "info",
      method: "GET",
      path: line.path,
      status: 200,
      duration_ms: 3.1,
      request_id: line.requestId,
      key_id: "0e9d2c4b-1f3a-4c5d-8e6f-7a8b9c0d1e2f"
    })
  })

  it("carry the time in UTC to the millisecond, and the duration rounded to a tenth of a millisecond", () => {
    const before = Date.now()
    const text = requestLineText("text", { ...line, durationMs: 0 })
    const after = Date.now()
    const time = text.split(" ")[0]!
    expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/)
    expect(new Date(time).toISOString()).toBe(time)
    expect(Date.parse(time)).toBeGreaterThanOrEqual(before)
    expect(Date.parse(time)).toBeLessThanOrEqual(after)
    const durationOf = (durationMs: number) => requestLineText("text", { ...line, durationMs }).split(" ")[5]
    expect([0, 0.04, 0.05, 9.96, 10, 12_345.67, 86_400_000].map(durationOf)).toEqual(
      ["0.0ms", "0.0ms", "0.1ms", "10.0ms", "10.0ms", "12345.7ms", "86400000.0ms"]
    )
    expect(JSON.parse(requestLineText("json", { ...line, durationMs: 9.96 })).duration_ms).toBe(10)
  })

  it("stay valid UTF-8 within their bound, should a value ever hold more than ASCII", () => {
    expect(requestLineText("text", { ...line, path: "/é/€/😀/" })).toContain(" /é/€/😀/ 404 ")
    expect(JSON.parse(requestLineText("json", { ...line, path: "/€".repeat(40) })).path).toBe("/€".repeat(40))
  })

  it("put an entry's cause under it, indented, in text", () => {
    const text = formatEntryLine("text", {
      level: "error",
      message: "Unhandled failure",
      fields: { request_id: "r1", path: "/api/projects/" },
      cause: "Error: boom\n    at somewhere"
    })
    expect(text).toMatch(/^\S+Z error Unhandled failure request_id=r1 path=\/api\/projects\/\n {2}Error: boom\n {6}at somewhere\n$/)
  })

  it("reach the sink once per turn of the event loop, however many were written in it", async () => {
    const chunks: Array<string> = []
    const writer = batchedLineWriter((text) => chunks.push(text))
    writer.write("a\n")
    writer.write("b\n")
    writer.write("c\n")
    expect(chunks).toEqual([])
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks).toEqual(["a\nb\nc\n"])
  })

  it("held for stdout: reach the sink as bytes together once the hold is over, or as soon as the next would not fit", async () => {
    const blocks: Array<string> = []
    const writer = heldByteWriter((bytes) => blocks.push(Buffer.from(bytes).toString("utf8")), 30)
    writer.write("a é\n")
    await new Promise((resolve) => setImmediate(resolve))
    writer.write("b\n")
    expect(blocks).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(blocks).toEqual(["a é\nb\n"])
    // Three of these fill all but one byte of the block.
    const third = "x".repeat((BLOCK_BYTES - 1) / 3 - 1) + "\n"
    writer.write(third)
    writer.write(third)
    writer.write(third)
    // A fourth would not fit the block: the three go first.
    writer.write("c\n")
    expect(blocks).toEqual(["a é\nb\n", third + third + third])
    const long = "y".repeat(BLOCK_BYTES) + "\n"
    writer.write(long)
    expect(blocks).toEqual(["a é\nb\n", third + third + third, "c\n", long])
    writer.write("d\n")
    writer.flush()
    expect(blocks.at(-1)).toBe("d\n")
    // Nothing is left for the timer that the flush cancelled.
    await new Promise((resolve) => setTimeout(resolve, 60))
    expect(blocks).toHaveLength(5)
    // Closed, it writes each line at once.
    writer.write("e\n")
    writer.close()
    writer.write("f\n")
    expect(blocks.slice(5)).toEqual(["e\n", "f\n"])
  })

  it("written by an encoder: go into the held block with the other lines, or as a string to a caller's sink", async () => {
    const blocks: Array<string> = []
    const held = heldByteWriter((bytes) => blocks.push(Buffer.from(bytes).toString("utf8")), 1_000)
    const encoded = requestLineText("text", line)
    held.write("a\n")
    held.writeEncoded(requestLineEncoder("text"), line, requestLineBound(line))
    held.flush()
    expect(blocks).toHaveLength(1)
    expect(blocks[0]!.slice(0, 2)).toBe("a\n")
    // The line's time is read again when it is written; everything after it is the same.
    expect(blocks[0]!.slice(2).split(" ").slice(1)).toEqual(encoded.split(" ").slice(1))
    // A line whose bound would pass the block's end starts a new block.
    held.write("x".repeat(BLOCK_BYTES - 100) + "\n")
    held.writeEncoded(requestLineEncoder("text"), line, requestLineBound(line))
    expect(blocks).toHaveLength(2)
    held.close()
    expect(blocks).toHaveLength(3)
    expect(blocks[2]!.endsWith(` request_id=${line.requestId}\n`)).toBe(true)

    const chunks: Array<string> = []
    const batched = batchedLineWriter((text) => chunks.push(text))
    batched.writeEncoded(requestLineEncoder("json"), line, requestLineBound(line))
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks).toHaveLength(1)
    expect(JSON.parse(chunks[0]!)).toMatchObject({ path: line.path, status: 404, request_id: line.requestId })
    // The caller's sink gets the same UTF-8 as stdout would.
    const unusual = { ...line, path: "/é/€/😀/" }
    batched.writeEncoded(requestLineEncoder("text"), unusual, requestLineBound(unusual))
    await new Promise((resolve) => setImmediate(resolve))
    expect(chunks[1]).toContain(" /é/€/😀/ 404 ")
  })

  it("held for stdout: a small batch is handed over as a copy, so a queue that keeps it does not keep a whole block", () => {
    const handed: Array<Uint8Array> = []
    const writer = heldByteWriter((bytes) => handed.push(bytes), 1_000)
    writer.write("a line\n")
    writer.flush()
    writer.write("x".repeat(BLOCK_BYTES / 2) + "\n")
    writer.flush()
    expect(handed.map((bytes) => bytes.byteLength)).toEqual([7, BLOCK_BYTES / 2 + 1])
    expect(handed[0]!.buffer.byteLength).toBeLessThan(BLOCK_BYTES)
    // The writer goes on in a block of its own: what it handed over is never written again.
    writer.write("b\n")
    writer.close()
    expect(Buffer.from(handed[0]!).toString()).toBe("a line\n")
    expect(Buffer.from(handed[2]!).toString()).toBe("b\n")
  })
})

/**
 * A server on an in-memory store whose log, JSON at `info`, goes to `written`: started before the tests of
 * the describe that asks for it, stopped after them.
 */
const servedWithLog = () => {
  const served = { written: [] as Array<string>, url: "", runtime: undefined as unknown as ManagedRuntime.ManagedRuntime<any, any> }
  beforeAll(async () => {
    served.runtime = ManagedRuntime.make(HedgerowServer.layer({
      port: 0,
      host: "127.0.0.1",
      store: {},
      log: { level: "info", format: "json", sink: (text) => void served.written.push(text) }
    }))
    served.url = await served.runtime.runPromise(HedgerowServer.baseUrl)
  })
  afterAll(() => served.runtime.dispose())
  return served
}

describe("an unexpected failure in the server", () => {
  const served = servedWithLog()
  let key = ""
  let project = 0

  beforeAll(async () => {
    const boot = await served.runtime.runPromise(Bootstrap.use((b) => b.run({})))
    key = boot.personal_api_key
    project = boot.project_id
  })

  it("is logged with its cause in the log's format, then its request's 500 line, and neither holds the key", async () => {
    // The keys' table gone: authentication fails in a way no endpoint declares.
    await served.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE personal_api_keys RENAME TO gone`))
    const response = await fetch(`${served.url}/api/projects/${project}/feature_flags/7/?personal_api_key=${key}`, {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(response.status).toBe(500)
    const requestId = response.headers.get("x-request-id")!
    await new Promise((resolve) => setImmediate(resolve))

    const entries = served.written.join("").split("\n").filter((text) => text !== "").map((text) => JSON.parse(text))
    expect(entries).toHaveLength(2)
    const [failure, request] = entries
    expect(failure).toMatchObject({
      level: "error",
      message: "Unhandled failure",
      request_id: requestId,
      method: "GET",
      path: "/api/projects/:project_id/feature_flags/:id/"
    })
    expect(failure.cause).toContain("personal_api_keys")
    expect(request).toMatchObject({
      level: "error",
      method: "GET",
      path: "/api/projects/:project_id/feature_flags/:id/",
      status: 500,
      request_id: requestId
    })
    expect(request.key_id).toBeUndefined()
    expect(served.written.join("")).not.toContain(key)
  })
})

describe("the request log of a running server", () => {
  const served = servedWithLog()

  it("has one line for each request, a CORS preflight answered before any route and an unmatched path too", async () => {
    const preflight = await fetch(`${served.url}/flags/?v=2`, { method: "OPTIONS", headers: { origin: "https://app.example.com" } })
    const health = await fetch(`${served.url}/_health`)
    const unmatched = await fetch(`${served.url}/api/nothing-here/`)
    expect([preflight.status, health.status, unmatched.status]).toEqual([204, 200, 404])
    await new Promise((resolve) => setImmediate(resolve))

    const entries = served.written.join("").split("\n").filter((text) => text !== "").map((text) => JSON.parse(text))
    expect(entries.map(({ level, method, path, status, request_id }) => ({ level, method, path, status, request_id }))).toEqual([
      // CORS answers a preflight before the envelope, which gives the other answers their id.
      { level: "info", method: "OPTIONS", path: "/flags/", status: 204, request_id: undefined },
      { level: "info", method: "GET", path: "/_health", status: 200, request_id: health.headers.get("x-request-id") },
      { level: "warn", method: "GET", path: "<unmatched>", status: 404, request_id: unmatched.headers.get("x-request-id") }
    ])
  })
})
