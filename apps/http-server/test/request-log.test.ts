import { Bootstrap } from "@hedgerow/core"
import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { formatEntryLine, formatRequestLine } from "../src/log/format.ts"
import { batchedLineWriter, BLOCK_BYTES, heldByteWriter } from "../src/log/line-writer.ts"

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
    expect(formatRequestLine("text", line)).toMatch(
      /^\S+Z warn GET \/api\/projects\/:project_id\/feature_flags\/:id\/ 404 3\.1ms request_id=5b0f6c58-8a2b-4a3e-9d55-0d8c1a7f2e11\n$/
    )
    const json = formatRequestLine("json", { ...line, status: 200, keyId: "0e9d2c4b-1f3a-4c5d-8e6f-7a8b9c0d1e2f" })
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

describe("an unexpected failure in the server", () => {
  const written: Array<string> = []
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  let key = ""
  let project = 0

  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({
      port: 0,
      host: "127.0.0.1",
      store: {},
      log: { level: "info", format: "json", sink: (text) => void written.push(text) }
    }))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    key = boot.personal_api_key
    project = boot.project_id
  })
  afterAll(() => runtime.dispose())

  it("is logged with its cause in the log's format, then its request's 500 line, and neither holds the key", async () => {
    // The keys' table gone: authentication fails in a way no endpoint declares.
    await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`ALTER TABLE personal_api_keys RENAME TO gone`))
    const response = await fetch(`${url}/api/projects/${project}/feature_flags/7/?personal_api_key=${key}`, {
      headers: { authorization: `Bearer ${key}` }
    })
    expect(response.status).toBe(500)
    const requestId = response.headers.get("x-request-id")!
    await new Promise((resolve) => setImmediate(resolve))

    const entries = written.join("").split("\n").filter((text) => text !== "").map((text) => JSON.parse(text))
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
    expect(written.join("")).not.toContain(key)
  })
})
