import { WebhookTransport } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { layer } from "../src/network/webhook-transport.ts"
import { startReceiver } from "../src/testing/webhook-receiver.ts"
import * as http from "node:http"
import type { AddressInfo } from "node:net"

const send = (url: string, allowPrivate: boolean, timeoutMillis = 2000) =>
  Effect.runPromise(
    WebhookTransport.use((t) => t.send({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMillis, allowPrivate })).pipe(
      Effect.result,
      Effect.provide(layer)
    )
  )

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
  })

  it("refuses, at send time, a host that resolves to loopback, and a loopback address given as such", async () => {
    const port = new URL(receiver.url("/")).port
    for (const url of [`http://localhost:${port}/by-name`, `http://127.0.0.1:${port}/by-address`, `http://[::ffff:127.0.0.1]:${port}/mapped`]) {
      const outcome = await send(url, false)
      expect(outcome._tag).toBe("Failure")
      expect(outcome._tag === "Failure" && outcome.failure.message).toMatch(/^(EBLOCKED: )?refused to connect to (127\.0\.0\.1|::1|::ffff:7f00:1): not a public address$/)
    }
    expect(receiver.received).toEqual([])
    const allowed = await send(`http://localhost:${port}/allowed`, true)
    expect(allowed._tag === "Success" && allowed.success).toEqual({ status: 200, excerpt: "answer 200 to request 0" })
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
