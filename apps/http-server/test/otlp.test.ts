import { ConfigProvider, Effect, Layer, ManagedRuntime, Option } from "effect"
import { createServer, type IncomingHttpHeaders } from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { tracingFromConfig } from "../src/observe/tracing.ts"

interface Received {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: Buffer
}

/** An OTLP/HTTP receiver on loopback: keeps every export it is sent and answers it as a collector does. */
const startReceiver = async () => {
  const received: Array<Received> = []
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      received.push({ path: request.url ?? "", headers: request.headers, body: Buffer.concat(chunks) })
      response.writeHead(200, { "content-type": "application/json" })
      response.end("{}")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { url, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

interface OtlpSpan {
  readonly traceId: string
  readonly spanId: string
  readonly parentSpanId?: string
  readonly name: string
  readonly kind: number
}

/** Every span of JSON exports, with the service name of its resource. */
const spansOf = (received: ReadonlyArray<Received>) =>
  received.flatMap((one) => {
    const body = JSON.parse(one.body.toString()) as {
      resourceSpans: Array<{ resource: { attributes: Array<{ key: string; value: { stringValue?: string } }> }; scopeSpans: Array<{ spans: Array<OtlpSpan> }> }>
    }
    return body.resourceSpans.flatMap((resource) => {
      const service = resource.resource.attributes.find((attribute) => attribute.key === "service.name")?.value.stringValue
      return resource.scopeSpans.flatMap((scope) => scope.spans.map((span) => ({ ...span, service })))
    })
  })

/** A server traced as `env` says, run until `use` is done, then stopped (which sends what is left). */
const withTracedServer = async (env: Record<string, string>, use: (api: string, key: string, project: string) => Promise<void>) => {
  const tracing = await Effect.runPromise(tracingFromConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))))
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }).pipe(Layer.provide(tracing), Layer.orDie))
  try {
    const api = await runtime.runPromise(HedgerowServer.baseUrl)
    const first = Option.getOrThrow(await runtime.runPromise(HedgerowServer.bootstrapIfEmpty()))
    await use(api, first.personal_api_key, String(first.project_id))
  } finally {
    await runtime.dispose()
  }
}

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
const PARENT_ID = "00f067aa0ba902b7"

describe("traces over OTLP/HTTP", () => {
  it("exports a span per request named by its route, continuing traceparent, with core and SQL beneath", async () => {
    const receiver = await startReceiver()
    try {
      await withTracedServer({
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "hedgerow-test",
        OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=s%3Dcret"
      }, async (api, key, project) => {
        const created = await fetch(`${api}/api/projects/${project}/feature_flags/`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json", traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` },
          body: JSON.stringify({ key: "traced" })
        })
        expect(created.status).toBe(201)
        // The SDKs' evaluation, which the SDK lane answers when nothing is traced, gets its span too.
        const token = (await (await fetch(`${api}/api/projects/${project}/`, { headers: { authorization: `Bearer ${key}` } })).json() as { api_token: string }).api_token
        expect((await fetch(`${api}/flags/?v=2`, { method: "POST", body: JSON.stringify({ token, distinct_id: "ann" }) })).status).toBe(200)
      })
      expect(receiver.received.length).toBeGreaterThan(0)
      for (const one of receiver.received) {
        expect(one.path).toBe("/v1/traces")
        expect(one.headers["content-type"]).toBe("application/json")
        expect(one.headers["x-collector-key"]).toBe("s=cret")
      }
      const spans = spansOf(receiver.received)
      const request = spans.find((span) => span.name === "POST /api/projects/:project_id/feature_flags/")
      expect(request).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, kind: 2, service: "hedgerow-test" })
      const create = spans.find((span) => span.name === "FeatureFlagService.create")
      expect(create).toMatchObject({ traceId: TRACE_ID, parentSpanId: request!.spanId })
      // SQL statements are spans of the same trace, beneath the request.
      const sql = spans.filter((span) => span.traceId === TRACE_ID && span.kind === 3)
      expect(sql.length).toBeGreaterThan(0)
      expect(spans.some((span) => span.name === "POST /flags/" && span.kind === 2)).toBe(true)
      // The exporter's own calls are not traced.
      expect(spans.some((span) => span.name.includes("/v1/traces"))).toBe(false)
    } finally {
      await receiver.close()
    }
  }, 30_000)

  it("sends protobuf by default, to a traces endpoint given as it is", async () => {
    const receiver = await startReceiver()
    try {
      await withTracedServer({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${receiver.url}/custom/traces` }, async (api) => {
        expect((await fetch(`${api}/_health`)).status).toBe(200)
      })
      expect(receiver.received.length).toBeGreaterThan(0)
      expect(receiver.received.map((one) => [one.path, one.headers["content-type"]])).toContainEqual(["/custom/traces", "application/x-protobuf"])
      // The service name defaults to hedgerow; protobuf carries it as the bytes of the string.
      expect(Buffer.concat(receiver.received.map((one) => one.body)).includes("hedgerow")).toBe(true)
    } finally {
      await receiver.close()
    }
  }, 30_000)

  it("keeps serving, and stops promptly, when the collector cannot be reached", async () => {
    // A port nothing listens on: every export fails.
    const closed = await startReceiver()
    await closed.close()
    const started = Date.now()
    await withTracedServer({ OTEL_EXPORTER_OTLP_ENDPOINT: closed.url }, async (api, key, project) => {
      for (let i = 0; i < 20; i++) {
        expect((await fetch(`${api}/api/projects/${project}/`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
      }
    })
    expect(Date.now() - started).toBeLessThan(15_000)
  }, 30_000)

  it("exports nothing when no endpoint is set, or when the variables turn traces off", async () => {
    for (const env of [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_SDK_DISABLED: "true" }, { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9", OTEL_TRACES_EXPORTER: "none" }]) {
      const layer = await Effect.runPromise(tracingFromConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env }))))
      expect(layer).toBe(Layer.empty)
    }
  })

  it("refuses variables it cannot honour, naming them", async () => {
    const cases: ReadonlyArray<readonly [Record<string, string>, string]> = [
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://collector" }, "OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, not \"ftp://collector/v1/traces\""],
      [{ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "not a url" }, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT must be an http(s) URL, not \"not a url\""],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "zipkin" }, "OTEL_TRACES_EXPORTER must be otlp or none, not \"zipkin\""],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, "OTEL_EXPORTER_OTLP_PROTOCOL must be http/protobuf or http/json, not \"grpc\""],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_HEADERS: "novalue" }, "OTEL_EXPORTER_OTLP_HEADERS must be key=value pairs separated by commas"],
      [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_TRACES_HEADERS: "k=%zz" }, "OTEL_EXPORTER_OTLP_TRACES_HEADERS holds a value that is not percent-encoded text"]
    ]
    for (const [env, message] of cases) {
      const failed = await Effect.runPromise(Effect.flip(tracingFromConfig.pipe(Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env })))))
      expect([failed._tag, failed.message]).toEqual(["TracingConfigError", message])
    }
  })
})
