import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Layer, ManagedRuntime, Option, Tracer } from "effect"
import { expect, it } from "vitest"
import { Embedding, layer } from "../src/embed/embedding.ts"

/** A tracer an application would give, keeping every span it makes. */
const recordingTracer = () => {
  const spans: Array<Tracer.NativeSpan> = []
  const tracer = Tracer.make({
    span: (options) => {
      const span = new Tracer.NativeSpan(options)
      spans.push(span)
      return span
    }
  })
  return { spans, tracer }
}

it("core's spans belong to the trace of the request they answer", async () => {
  const { spans, tracer } = recordingTracer()
  const runtime = ManagedRuntime.make(layer({ store: {}, basePath: "/" }).pipe(Layer.provide(Layer.succeed(Tracer.Tracer, tracer))))
  const embedding = await runtime.runPromise(Effect.service(Embedding))
  const server = createServer((request, response) => embedding.handler(request, response))
  try {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const reply = await fetch(`${url}/api/projects/${embedding.project.id}/feature_flags/`, {
      method: "POST",
      headers: { authorization: `Bearer ${Option.getOrThrow(embedding.bootstrapped).personal_api_key}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "traced" })
    })
    expect(reply.status).toBe(201)
    const request = spans.find((span) => span.name === "POST" && span.kind === "server")
    const create = spans.find((span) => span.name === "FeatureFlagService.create")
    expect(request).toBeDefined()
    expect(create?.parent).toEqual(Option.some(request))
    expect(create?.traceId).toBe(request?.traceId)
    // The SDKs' evaluation, which the SDK lane would answer without a span, is traced too.
    const token = embedding.project.api_token
    const evaluated = await fetch(`${url}/flags/?v=2`, { method: "POST", body: JSON.stringify({ token, distinct_id: "someone" }) })
    expect(evaluated.status).toBe(200)
    expect(spans.some((span) => span.name === "POST" && span.kind === "server" && span !== request)).toBe(true)
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await runtime.dispose()
  }
})
