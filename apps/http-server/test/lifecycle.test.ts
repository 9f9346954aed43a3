import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync, rmSync } from "node:fs"
import { request } from "node:http"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, describe, expect, it } from "vitest"

const main = fileURLToPath(new URL("../src/main.ts", import.meta.url))
const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-lifecycle-"))
afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

interface Running {
  readonly child: ChildProcess
  readonly output: () => string
  readonly exited: Promise<number | null>
}

const start = (): Running => {
  const child = spawn(process.execPath, ["--import", "tsx", main], {
    env: { ...process.env, PORT: "0", HOST: "127.0.0.1", HEDGEROW_DATA_DIR: dataDir },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  child.stdout!.on("data", (chunk) => (output += chunk))
  child.stderr!.on("data", (chunk) => (output += chunk))
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)))
  return { child, output: () => output, exited }
}

const waitFor = async (running: Running, pattern: RegExp) => {
  for (let i = 0; i < 600; i++) {
    const match = pattern.exec(running.output())
    if (match) return match
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${pattern}:\n${running.output()}`)
}

describe("the server process", () => {
  let key = ""
  let url = ""
  let organization = ""

  it("bootstraps an empty store on first start and prints the key once with a curl command", async () => {
    const server = start()
    url = (await waitFor(server, /serving the API on (http:\/\/\S+?) /))[1]!
    await waitFor(server, /Ctrl-C/)
    key = /Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)/.exec(server.output())![1]!
    organization = /created organization ([0-9a-f-]{36})/.exec(server.output())![1]!
    expect(server.output()).toContain(`curl -H "Authorization: Bearer ${key}" ${url}/api/organizations/${organization}/projects/`)
    const health = await fetch(`${url}/_health`)
    expect(health.status).toBe(200)

    // While it runs, a second process on the same data dir is refused, naming the holder.
    const second = start()
    expect(await second.exited).toBe(1)
    expect(second.output()).toContain(`is in use by process ${server.child.pid}`)

    server.child.kill("SIGTERM")
    expect(await server.exited).toBe(0)
  })

  it("lets an in-flight request finish when told to stop, then closes cleanly", async () => {
    const server = start()
    url = (await waitFor(server, /serving the API on (http:\/\/\S+?) /))[1]!
    await waitFor(server, /Ctrl-C/)
    expect(server.output()).not.toContain("phx_")

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
      // Half the body now, SIGTERM, the rest after: the request is in flight while the server stops.
      req.write(body.slice(0, 10))
      setTimeout(() => {
        server.child.kill("SIGTERM")
        setTimeout(() => req.end(body.slice(10)), 300)
      }, 300)
    })
    const answered = await reply
    expect(answered.status).toBe(201)
    expect(JSON.parse(answered.body).name).toBe("Made during shutdown")
    expect(await server.exited).toBe(0)
  })

  it("keeps every acknowledged write across restarts", async () => {
    const server = start()
    url = (await waitFor(server, /serving the API on (http:\/\/\S+?) /))[1]!
    const listed = await fetch(`${url}/api/organizations/${organization}/projects/`, { headers: { authorization: `Bearer ${key}` } })
    const names = (await listed.json()).results.map((p: { name: string }) => p.name)
    expect(names).toContain("Made during shutdown")
    server.child.kill("SIGINT")
    expect(await server.exited).toBe(0)
  })
})
