import { WebhookTransport } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pbkdf2 } from "node:crypto"
import { Resolver } from "node:dns/promises"
import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { layerWith } from "../src/network/webhook-transport.ts"
import { startDnsServer } from "../src/testing/dns-server.ts"
import { startReceiver } from "../src/testing/webhook-receiver.ts"

const dns = await startDnsServer({
  "receiver.test": ["127.0.0.1"],
  "public.test": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"],
  "silent.test": "silent"
})
const resolver = new Resolver({ timeout: 1_500, tries: 1 })
resolver.setServers([dns.address])
const transport = layerWith(resolver)

const send = (url: string, allowPrivate: boolean, timeoutMillis = 2000) =>
  Effect.runPromise(
    WebhookTransport.use((t) => t.send({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMillis, allowPrivate })).pipe(
      Effect.result,
      Effect.provide(transport)
    )
  )

const resolve = (host: string) => Effect.runPromise(WebhookTransport.use((t) => t.resolve(host)).pipe(Effect.result, Effect.provide(transport)))

describe("the webhook transport", () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>
  let special: http.Server
  let specialUrl = ""
  beforeAll(async () => {
    receiver = await startReceiver(() => 200)
    // Redirects elsewhere, or answers a large body a little at a time.
    special = http.createServer((request, response) => {
      if (request.url === "/redirect") return void response.writeHead(302, { location: receiver.url("/redirected") }).end()
      response.writeHead(200)
      const timer = setInterval(() => response.write("x".repeat(300)), 5)
      response.on("close", () => clearInterval(timer))
    })
    await new Promise<void>((resolve) => special.listen(0, "127.0.0.1", resolve))
    specialUrl = `http://127.0.0.1:${(special.address() as AddressInfo).port}`
  })
  afterAll(async () => {
    await receiver.close()
    special.closeAllConnections()
    await new Promise((resolve) => special.close(resolve))
    await dns.close()
  })

  it("refuses, at send time, a host that resolves to loopback, and a loopback address given as such", async () => {
    const port = new URL(receiver.url("/")).port
    for (const url of [`http://receiver.test:${port}/by-name`, `http://localhost:${port}/local`, `http://127.0.0.1:${port}/by-address`, `http://[::ffff:127.0.0.1]:${port}/mapped`]) {
      const outcome = await send(url, false)
      expect(outcome._tag).toBe("Failure")
      expect(outcome._tag === "Failure" && outcome.failure.message).toMatch(/^(EBLOCKED: )?refused to connect to (127\.0\.0\.1|::1|::ffff:7f00:1): not a public address$/)
    }
    expect(receiver.received).toEqual([])
    const allowed = await send(`http://localhost:${port}/allowed`, true)
    expect(allowed._tag === "Success" && allowed.success).toEqual({ status: 200, excerpt: "answer 200 to request 0" })
  })

  it("resolves a receiver's name by DNS on the event loop: names whose DNS never answers hold none of the threads the file system and hashing share", async () => {
    const names = await resolve("public.test")
    expect(names._tag === "Success" && names.success).toEqual(["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"])
    const unknown = await resolve("nowhere.test")
    expect(unknown._tag).toBe("Failure")
    const before = dns.queries()
    // More unanswered names at once than libuv has threads.
    const pending = [
      ...Array.from({ length: 8 }, (_, i) => send(`http://silent.test:${1000 + i}/`, false)),
      ...Array.from({ length: 8 }, () => resolve("silent.test"))
    ]
    const started = performance.now()
    await Promise.all(Array.from({ length: 8 }, () =>
      new Promise((done, fail) => pbkdf2("password", "salt", 1, 32, "sha256", (error, key) => error === null ? done(key) : fail(error)))))
    // Waiting on a held thread would take as long as the resolver waits for its answer.
    expect(performance.now() - started).toBeLessThan(1_000)
    const outcomes = await Promise.all(pending)
    expect(outcomes.every((outcome) => outcome._tag === "Failure")).toBe(true)
    expect(dns.queries() - before).toBeGreaterThanOrEqual(16)
  })

  it("follows no redirect, and keeps only the start of an endless reply", async () => {
    const redirect = await send(`${specialUrl}/redirect`, true)
    expect(redirect._tag === "Success" && redirect.success.status).toBe(302)
    expect(receiver.on("/redirected")).toEqual([])
    const started = Date.now()
    const endless = await send(`${specialUrl}/endless`, true)
    expect(endless._tag === "Success" && endless.success.excerpt.length).toBe(1024)
    expect(Date.now() - started).toBeLessThan(1000)
  })

  it("gives up on a receiver that never answers at the deadline", async () => {
    const silent = http.createServer(() => {})
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve))
    const started = Date.now()
    const outcome = await send(`http://127.0.0.1:${(silent.address() as AddressInfo).port}/`, true, 300)
    expect(outcome._tag === "Failure" && outcome.failure.message).toBe("no answer within 300 ms")
    expect(Date.now() - started).toBeLessThan(1000)
    silent.closeAllConnections()
    await new Promise((resolve) => silent.close(resolve))
  })
})
