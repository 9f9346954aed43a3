import { mkdtempSync, readdirSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { lines, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const dirs: Array<string> = []
const newDir = () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-observe-"))
  dirs.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

/** A port free on loopback now. */
const freePort = (): Promise<number> =>
  new Promise((resolve) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })

describe("hedgerow serve, observed", () => {
  it("serves metrics on HEDGEROW_METRICS_PORT, readiness on both ports, and exports traces to the OTLP endpoint", async () => {
    const exports: Array<string> = []
    const receiver = createServer((request, response) => {
      let body = ""
      request.on("data", (chunk) => (body += chunk))
      request.on("end", () => {
        exports.push(body)
        response.end("{}")
      })
    })
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve))
    const metricsPort = await freePort()
    try {
      const server = startServe({
        HEDGEROW_DATA_DIR: newDir(),
        HEDGEROW_METRICS_PORT: String(metricsPort),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json"
      })
      const url = await servingUrl(server)
      await waitFor(server, /Ctrl-C/)
      const metrics = `http://127.0.0.1:${metricsPort}`
      expect(server.output()).toContain(`Metrics: ${metrics}/metrics   Readiness: ${url}/_ready\n`)
      expect(await (await fetch(`${url}/_ready`)).json()).toEqual({ status: "ready" })
      expect((await fetch(`${url}/_health`)).status).toBe(200)
      const text = await (await fetch(`${metrics}/metrics`)).text()
      expect(text).toContain("hedgerow_ready{status=\"ready\"} 1\n")
      expect(text).toContain("hedgerow_http_request_duration_seconds_count{route=\"/_health\",method=\"GET\",status=\"200\"} 1\n")
      server.child.kill("SIGTERM")
      expect(await server.exited).toBe(0)
      // What was left is sent as the server stops.
      const names = exports.flatMap((body) => [...body.matchAll(/"name":"([^"]+)"/g)].map((match) => match[1]))
      expect(names).toContain("GET /_health")
    } finally {
      receiver.close()
    }
  }, 60_000)

  it("refuses, on one line with exit 1 and before opening the store, a metrics port it cannot use", async () => {
    const dir = newDir()
    const refused = startServe({ HEDGEROW_DATA_DIR: dir, HEDGEROW_METRICS_PORT: "9x" })
    expect(await refused.exited).toBe(1)
    expect(lines(refused.output())).toEqual([`error: HEDGEROW_METRICS_PORT must be a port from 1 to 65535, not "9x"`])
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve))
    const taken = (holder.address() as AddressInfo).port
    try {
      const busy = startServe({ HEDGEROW_DATA_DIR: dir, HEDGEROW_METRICS_PORT: String(taken) })
      expect(await busy.exited).toBe(1)
      expect(busy.output()).toMatch(new RegExp(`^error: cannot listen on 127\\.0\\.0\\.1:${taken} for metrics: .*EADDRINUSE`, "m"))
    } finally {
      holder.close()
    }
    expect(readdirSync(dir)).toEqual([])
  }, 60_000)

  it("refuses, on one line with exit 1, OpenTelemetry variables it cannot honour", async () => {
    const dir = newDir()
    const refused = startServe({ HEDGEROW_DATA_DIR: dir, OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:4318", OTEL_TRACES_EXPORTER: "zipkin" })
    expect(await refused.exited).toBe(1)
    expect(lines(refused.output())).toEqual([`error: OTEL_TRACES_EXPORTER must be otlp or none, not "zipkin"`])
    expect(readdirSync(dir)).toEqual([])
  }, 60_000)
})
