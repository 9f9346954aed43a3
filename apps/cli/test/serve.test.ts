import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs"
import { createServer, request } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { lines, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-lifecycle-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

const start = (port = "0", dir = dataDir) => startServe({ PORT: port, HEDGEROW_DATA_DIR: dir })

/** The environment a running process was started with (Linux). */
const environmentOf = (pid: number) => readFileSync(`/proc/${pid}/environ`, "utf8").split("\0")
/** The arguments a running process was started with (Linux). */
const commandLineOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0")

describe("hedgerow serve (what npm start runs)", () => {
  let key = ""
  let url = ""
  let organization = ""

  it("bootstraps an empty store on first start and prints the key once with a curl command", async () => {
    const server = start()
    url = await servingUrl(server)
    await waitFor(server, /Ctrl-C/)
    key = /Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)/.exec(server.output())![1]!
    organization = /created organization ([0-9a-f-]{36})/.exec(server.output())![1]!
    expect(server.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${url}/api/organizations/${organization}/projects/`)
    const health = await fetch(`${url}/_health`)
    expect(health.status).toBe(200)
    // glibc's mmap threshold is fixed for the server's life (see bin/start.mjs), in the same process.
    expect(environmentOf(server.child.pid!)).toContain("MALLOC_MMAP_THRESHOLD_=131072")
    // So is V8's initial old generation, below which the memory-saving mode collects nothing.
    expect(commandLineOf(server.child.pid!)).toContain("--initial-old-space-size=64")
    // The web console, built by the same build, is served at / beside the API.
    expect(server.output()).toContain(`Web console: ${url}/\n`)
    // A new store has no domain with SAML set up, so the start says nothing of SAML, even on plain http.
    expect(server.output()).not.toContain("SAML")
    // The suites' fast password hashing (vitest.shared.ts) is said at every start it is on.
    expect(server.output()).toContain(
      "HEDGEROW_INSECURE_FAST_PASSWORD_HASHING is on: new passwords are hashed with about a hundredth of the usual work. For test suites only, never for people's passwords.\n"
    )
    const page = await fetch(`${url}/`)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(await page.text()).toContain(`<div id="root"></div>`)

    // While it runs, a second process on the same data dir is refused, naming the holder.
    const second = start()
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain(`is in use by process ${server.child.pid}`)

    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
  })

  it("lets an in-flight request finish when told to stop, then closes cleanly", async () => {
    // An operator's own malloc threshold is kept.
    const server = startServe({ PORT: "0", HEDGEROW_DATA_DIR: dataDir, MALLOC_MMAP_THRESHOLD_: "262144", HEDGEROW_INSECURE_FAST_PASSWORD_HASHING: "false" })
    url = await servingUrl(server)
    await waitFor(server, /Ctrl-C/)
    expect(server.output()).not.toContain("phx_")
    expect(server.output()).not.toContain("INSECURE")
    expect(environmentOf(server.child.pid!)).toContain("MALLOC_MMAP_THRESHOLD_=262144")
    expect(commandLineOf(server.child.pid!)).toContain("--initial-old-space-size=64")

    const body = JSON.stringify({ name: "Made during shutdown" })
    const reply = new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${url}/api/organizations/${organization}/projects/`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json", "content-length": Buffer.byteLength(body) }
      }, (res) => {
        let text = ""
        res.on("data", (chunk) => (text += chunk))
        res.on("end", () => resolve({ status: res.statusCode!, body: text }))
      })
      req.on("error", reject)
      // Half the body now, SIGTERM once the server has surely taken the connection, the rest after: the
      // request is in flight while the server stops. The pauses are generous so a busy CI machine agrees.
      req.write(body.slice(0, 10))
      setTimeout(() => {
        server.child.kill("SIGTERM")
        setTimeout(() => req.end(body.slice(10)), 700)
      }, 1000)
    })
    const answered = await reply
    expect(answered.status).toBe(201)
    expect(JSON.parse(answered.body).name).toBe("Made during shutdown")
    expect(await server.exited).toBe(0)
  })

  it("keeps the initial heap an operator gives node, and then adds no flag of its own", async () => {
    const server = startServe({ PORT: "0", HEDGEROW_DATA_DIR: dataDir }, { nodeFlags: ["--initial-heap-size=96"] })
    await servingUrl(server)
    const flags = commandLineOf(server.child.pid!)
    expect(flags).toContain("--initial-heap-size=96")
    expect(flags.filter((arg) => arg.startsWith("--initial-old-space-size"))).toEqual([])
    expect(environmentOf(server.child.pid!)).toContain("MALLOC_MMAP_THRESHOLD_=131072")
    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
  })

  it("is a server, restarted with its settings, behind a global flag's value (--log-level warn serve)", async () => {
    const server = startServe({ PORT: "0", HEDGEROW_DATA_DIR: dataDir }, { globalFlags: ["--log-level", "warn"] })
    await servingUrl(server)
    expect(commandLineOf(server.child.pid!)).toContain("--initial-old-space-size=64")
    expect(environmentOf(server.child.pid!)).toContain("MALLOC_MMAP_THRESHOLD_=131072")
    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
  })

  it("refuses, on one line with exit 1, to start on a port that is taken", async () => {
    const holder = createServer()
    await new Promise<void>((resolve) => holder.listen(0, "127.0.0.1", resolve))
    const taken = String((holder.address() as AddressInfo).port)
    const otherDir = mkdtempSync(path.join(tmpdir(), "hedgerow-port-"))
    try {
      const server = start(taken, otherDir)
      expect(await server.exited).toBe(1)
      expect(server.output()).toMatch(new RegExp(`^error: cannot listen on 127\\.0\\.0\\.1:${taken}: .*EADDRINUSE`, "m"))
    } finally {
      holder.close()
      rmSync(otherDir, { recursive: true, force: true })
    }
  })

  it("refuses, on one line with exit 1, to start with a timeout it cannot use, before opening the store", async () => {
    const otherDir = mkdtempSync(path.join(tmpdir(), "hedgerow-timeout-"))
    try {
      const refused = startServe({ HEDGEROW_DATA_DIR: otherDir, HEDGEROW_REQUEST_TIMEOUT_MS: "30s" })
      expect(await refused.exited).toBe(1)
      expect(lines(refused.output())).toEqual([
        `error: HEDGEROW_REQUEST_TIMEOUT_MS must be a whole number of milliseconds from 1 to 2147483647, not "30s"`
      ])
      expect(readdirSync(otherDir)).toEqual([])
    } finally {
      rmSync(otherDir, { recursive: true, force: true })
    }
  })

  it("keeps every acknowledged write across restarts", async () => {
    const server = start()
    url = await servingUrl(server)
    const listed = await fetch(`${url}/api/organizations/${organization}/projects/`, { headers: { authorization: `Bearer ${key}` } })
    const names = (await listed.json()).results.map((p: { name: string }) => p.name)
    expect(names).toContain("Made during shutdown")
    server.child.kill("SIGINT")
    expect(await server.exited).toBe(0)
  })
})
