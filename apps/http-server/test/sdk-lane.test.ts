import * as NodeHttpServer from "@effect/platform-node/NodeHttpServer"
import { Bootstrap, PersonalApiKeyService, systemActor } from "@hedgerow/core"
import { Context, Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { createServer, type IncomingMessage, request as httpRequest } from "node:http"
import { connect } from "node:net"
import { compressToBase64 } from "lz-string"
import { gzipSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as App from "../src/app.ts"
import { HedgerowServer } from "../src/index.ts"
import * as ServerLog from "../src/log/server-log.ts"
import { NotedRequest } from "../src/middleware/request-log.ts"
import { laneRequestOf } from "../src/sdk-lane/requests.ts"

type Services = Layer.Success<ReturnType<typeof App.servicesLayer>>

interface Sent {
  readonly method: string
  readonly path: string
  readonly headers?: Record<string, string>
  readonly body?: string | Buffer | undefined
  /** Sent in chunks, without a Content-Length. */
  readonly chunked?: boolean
}

interface Received {
  readonly status: number
  readonly headers: Record<string, string | Array<string> | undefined>
  readonly body: string
}

/** One request as its bytes say, on a connection of its own. */
const send = (port: number, sent: Sent): Promise<Received> =>
  new Promise((resolve, reject) => {
    const body = sent.body === undefined ? undefined : Buffer.from(sent.body)
    const headers: Record<string, string | number> = { ...sent.headers }
    if (body !== undefined && sent.chunked !== true) headers["content-length"] = body.byteLength
    const request = httpRequest({ host: "127.0.0.1", port, method: sent.method, path: sent.path, headers, agent: false }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks).toString() }))
    })
    request.on("error", reject)
    if (body !== undefined) request.write(body)
    request.end()
  })

/** What differs between two answers to the same request by nature: the date, the ids made for it, the time it was evaluated. */
const comparable = (received: Received) => {
  const { date: _date, "x-request-id": requestId, ...headers } = received.headers
  return {
    status: received.status,
    headers: { ...headers, "x-request-id": typeof requestId === "string" ? "<uuid>" : requestId },
    body: received.body
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "<uuid>")
      .replace(/"evaluatedAt":\d+/g, "\"evaluatedAt\":0")
  }
}

/** A log line but for its time, duration and request id. */
const comparableLine = (line: string) => {
  const { time: _time, duration_ms: _duration, request_id: _id, ...rest } = JSON.parse(line)
  return rest
}

/**
 * The same requests to two servers over one store: `hedgerow serve`'s, whose SDK lane answers the
 * evaluations and definitions polls it takes, and the routes alone on a plain node:http server, where
 * HttpApi answers every request. The answers and log lines must be the same.
 */
describe("the SDK lane", () => {
  const laneLog: Array<string> = []
  const plainLog: Array<string> = []
  let lane: ManagedRuntime.ManagedRuntime<any, any>
  let plain: ManagedRuntime.ManagedRuntime<any, any>
  let lanePort = 0
  let plainPort = 0
  let key = ""
  let narrowKey = ""
  let token = ""
  let project = 0
  const portOf = Effect.map(Effect.service(HttpServer.HttpServer), (server) => (server.address as { port: number }).port)

  beforeAll(async () => {
    const sink = (lines: Array<string>) => (text: string) => void lines.push(...text.split("\n").filter((line) => line !== ""))
    lane = ManagedRuntime.make(HedgerowServer.layer({
      port: 0,
      host: "127.0.0.1",
      store: {},
      log: { level: "info", format: "json", sink: sink(laneLog) }
    }))
    const boot = await lane.runPromise(Bootstrap.use((b) => b.run({})))
    key = boot.personal_api_key
    project = boot.project_id
    narrowKey = (await lane.runPromise(PersonalApiKeyService.use((s) =>
      s.create(systemActor, { email: boot.user.email, scopes: ["organization:read"] })
    ))).personal_api_key
    lanePort = await lane.runPromise(portOf)
    // The same services, served by the routes alone on a plain node:http server (whose requests the log
    // notes, as the server's own are): no lane in front of them.
    const services = Context.omit(HttpRouter.HttpRouter)(await lane.runPromise(Effect.context<Services>()))
    plain = ManagedRuntime.make(App.layer(Layer.succeedContext(services)).pipe(
      Layer.provide(ServerLog.layer({ level: "info", format: "json" }, sink(plainLog))),
      Layer.provideMerge(NodeHttpServer.layer(() => createServer({ IncomingMessage: NotedRequest }), { port: 0, host: "127.0.0.1" }))
    ))
    plainPort = await plain.runPromise(portOf)
    const api = (method: string, path: string, body?: unknown) =>
      send(lanePort, {
        method,
        path,
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body)
      })
    token = JSON.parse((await api("GET", `/api/projects/${project}/`)).body).api_token
    const flags = `/api/projects/${project}/feature_flags/`
    await api("POST", flags, { key: "half", filters: { groups: [{ properties: [], rollout_percentage: 50 }] } })
    await api("POST", flags, {
      key: "colours",
      filters: {
        groups: [{ properties: [{ key: "email", type: "person", operator: "icontains", value: "@example.com" }], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "red", rollout_percentage: 50 }, { key: "blue", rollout_percentage: 50 }] },
        payloads: { red: "{\"shade\": 1}" }
      }
    })
  })
  afterAll(async () => {
    await plain?.dispose()
    await lane?.dispose()
  })

  const settled = () => new Promise((resolve) => setTimeout(resolve, 5))
  const evaluation = (body: unknown) => JSON.stringify(body)
  const person = () => ({ token, distinct_id: "person-7", person_properties: { email: "someone@example.com" } })
  const bearer = (k: string) => ({ authorization: `Bearer ${k}` })

  /** Each request, and whether the lane takes it (the others reach HttpApi on both servers). */
  const requests = (): ReadonlyArray<readonly [string, Sent, boolean]> => [
    ["flags v2", { method: "POST", path: "/flags/?v=2", headers: { "content-type": "application/json" }, body: evaluation(person()) }, true],
    ["flags without v or slash", { method: "POST", path: "/flags", body: evaluation(person()) }, true],
    ["flags v1, repeated", { method: "POST", path: "/flags?v=2&v=1", body: evaluation(person()) }, true],
    ["decide v4", { method: "POST", path: "/decide/?v=4", body: evaluation(person()) }, true],
    ["decide v3", { method: "POST", path: "/decide/?v=3", body: evaluation(person()) }, true],
    ["decide v2", { method: "POST", path: "/decide?v=2", body: evaluation(person()) }, true],
    ["decide without v", { method: "POST", path: "/decide/", body: evaluation(person()) }, true],
    ["flags from a browser", {
      method: "POST",
      path: "/flags/?v=2",
      headers: { origin: "https://app.example.com", "user-agent": "Mozilla/5.0", "access-control-request-headers": "traceparent, x-other" },
      body: evaluation(person())
    }, true],
    ["flags gzip by header", { method: "POST", path: "/flags/?v=2", headers: { "content-encoding": "gzip" }, body: gzipSync(evaluation(person())) }, true],
    ["flags gzip-js by query", { method: "POST", path: "/flags/?v=2&compression=gzip-js", body: gzipSync(evaluation(person())) }, true],
    ["flags base64", { method: "POST", path: "/flags/?v=2&compression=base64", body: Buffer.from(evaluation(person())).toString("base64") }, true],
    ["flags form", {
      method: "POST",
      path: "/flags/?v=2",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `data=${encodeURIComponent(Buffer.from(evaluation(person())).toString("base64"))}`
    }, true],
    ["flags as posthog-js sends it: base64 said and in a form", {
      method: "POST",
      path: "/flags/?v=2&compression=base64",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: "https://app.example.com" },
      body: `data=${encodeURIComponent(Buffer.from(evaluation(person())).toString("base64"))}`
    }, true],
    ["flags lz64", { method: "POST", path: "/flags/?v=2&compression=lz64", body: compressToBase64(evaluation(person())) }, true],
    ["flags only some keys", { method: "POST", path: "/flags/?v=2", body: evaluation({ ...person(), flag_keys_to_evaluate: ["colours"] }) }, true],
    ["flags disabled", { method: "POST", path: "/flags/?v=2", body: evaluation({ ...person(), disable_flags: true }) }, true],
    ["flags, body not JSON", { method: "POST", path: "/flags/?v=2", body: "{nope" }, true],
    ["flags, no body at all", { method: "POST", path: "/flags/?v=2" }, true],
    ["flags, a body shaped like an error", { method: "POST", path: "/flags/?v=2", body: evaluation({ ...person(), _tag: "ValidationError", detail: "x" }) }, true],
    ["flags, empty body", { method: "POST", path: "/flags/?v=2", body: "" }, true],
    ["flags, no token", { method: "POST", path: "/flags/?v=2", body: evaluation({ distinct_id: "a" }) }, true],
    ["flags, unknown token", { method: "POST", path: "/flags/?v=2", body: evaluation({ token: "phc_unknown", distinct_id: "a" }) }, true],
    ["flags, no distinct id", { method: "POST", path: "/flags/?v=2", body: evaluation({ token }) }, true],
    ["flags, gzip opening past its limit", { method: "POST", path: "/flags/?v=2", headers: { "content-encoding": "gzip" }, body: gzipSync(Buffer.alloc(11 * 1024 * 1024, 32)) }, true],
    ["flags, not gzip", { method: "POST", path: "/flags/?v=2", headers: { "content-encoding": "gzip" }, body: "plain" }, true],
    ["flags in chunks", { method: "POST", path: "/flags/?v=2", body: evaluation(person()), chunked: true }, false],
    ["flags over 1 MiB", { method: "POST", path: "/flags/?v=2", body: Buffer.alloc(1024 * 1024 + 1, 32) }, false],
    ["flags, a bad Host", { method: "POST", path: "/flags/?v=2", headers: { host: "bad host!" }, body: evaluation(person()) }, false],
    ["flags, GET", { method: "GET", path: "/flags/?v=2" }, false],
    ["flags preflight", { method: "OPTIONS", path: "/flags/", headers: { origin: "https://app.example.com" } }, false],
    ["definitions", { method: "GET", path: `/api/feature_flag/local_evaluation?token=${token}`, headers: bearer(key) }, true],
    ["definitions, newer path", { method: "GET", path: `/flags/definitions?token=${token}&send_cohorts`, headers: bearer(key) }, true],
    ["definitions, project path", { method: "GET", path: `/api/projects/${project}/feature_flags/local_evaluation/`, headers: bearer(key) }, true],
    ["definitions, current project", { method: "GET", path: "/api/feature_flag/local_evaluation/", headers: bearer(key) }, true],
    ["definitions, unknown project", { method: "GET", path: "/api/projects/987654/feature_flags/local_evaluation/", headers: bearer(key) }, true],
    ["definitions, project by a word", { method: "GET", path: "/api/projects/@current/feature_flags/local_evaluation/", headers: bearer(key) }, true],
    ["definitions, unknown token", { method: "GET", path: "/flags/definitions?token=phc_nothing", headers: bearer(key) }, true],
    ["definitions, unknown key", { method: "GET", path: `/flags/definitions?token=${token}`, headers: bearer("phx_unknown") }, true],
    ["definitions, key without the scope", { method: "GET", path: `/flags/definitions?token=${token}`, headers: bearer(narrowKey) }, true],
    ["definitions, scheme in lower case", { method: "GET", path: `/flags/definitions?token=${token}`, headers: { authorization: `bearer  ${key}` } }, true],
    ["definitions, no key", { method: "GET", path: `/flags/definitions?token=${token}` }, false],
    ["definitions, blank key", { method: "GET", path: `/flags/definitions?token=${token}`, headers: { authorization: "Bearer   " } }, false],
    ["definitions, escaped project", { method: "GET", path: `/api/projects/%3${String(project).slice(0, 0)}1/feature_flags/local_evaluation/`, headers: bearer(key) }, false],
    ["definitions, POST", { method: "POST", path: "/flags/definitions/", headers: bearer(key), body: "{}" }, false],
    ["definitions with a body", { method: "GET", path: `/flags/definitions?token=${token}`, headers: bearer(key), body: "unread" }, false]
  ]

  it("takes the SDKs' plain requests and leaves the rest to HttpApi", () => {
    for (const [name, sent, taken] of requests()) {
      const headers: Record<string, string> = { host: "127.0.0.1", ...sent.headers }
      if (sent.body !== undefined && sent.chunked !== true) headers["content-length"] = String(Buffer.byteLength(sent.body))
      if (sent.chunked === true) headers["transfer-encoding"] = "chunked"
      const request = { method: sent.method, url: sent.path, headers } as unknown as IncomingMessage
      expect([name, laneRequestOf(request, { trustProxy: false, basePath: "" }) !== undefined]).toEqual([name, taken])
    }
  })

  it("answers each request as HttpApi does: status, headers and body, and the same log line", async () => {
    for (const [name, sent] of requests()) {
      await settled()
      laneLog.length = 0
      plainLog.length = 0
      const byLane = comparable(await send(lanePort, sent))
      const byPlain = comparable(await send(plainPort, sent))
      expect([name, byLane]).toEqual([name, byPlain])
      // The line is written once the answer is out: give the batched writer its turn.
      await settled()
      expect([name, laneLog.map(comparableLine)]).toEqual([name, plainLog.map(comparableLine)])
    }
  })

  it("logs an evaluation whose client left before its body arrived as HttpApi does", async () => {
    const lines = async (port: number, log: Array<string>) => {
      await settled()
      log.length = 0
      const socket = connect(port, "127.0.0.1")
      await new Promise((resolve) => socket.once("connect", resolve))
      socket.write(`POST /flags/?v=2 HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 100\r\n\r\n{"token":`)
      await new Promise((resolve) => setTimeout(resolve, 50))
      socket.destroy()
      await new Promise((resolve) => setTimeout(resolve, 100))
      return log.map(comparableLine)
    }
    const byLane = await lines(lanePort, laneLog)
    expect(byLane).toEqual([{ level: "error", method: "POST", path: "/flags/", status: 503 }])
    expect(byLane).toEqual(await lines(plainPort, plainLog))
  })

  it("answers 304 to a poll that holds the current definitions, and 200 once a flag changes", async () => {
    const path = `/api/feature_flag/local_evaluation?token=${token}`
    const first = await send(lanePort, { method: "GET", path, headers: bearer(key) })
    const etag = first.headers["etag"] as string
    for (const port of [lanePort, plainPort]) {
      const again = await send(port, { method: "GET", path, headers: { ...bearer(key), "if-none-match": etag } })
      expect(again.status).toBe(304)
      expect(again.body).toBe("")
      expect(again.headers["etag"]).toBe(etag)
    }
    const conditional = { method: "GET", path, headers: { ...bearer(key), "if-none-match": `${etag}, "other"` } }
    expect(comparable(await send(lanePort, conditional))).toEqual(comparable(await send(plainPort, conditional)))
    await send(lanePort, {
      method: "POST",
      path: `/api/projects/${project}/feature_flags/`,
      headers: { ...bearer(key), "content-type": "application/json" },
      body: JSON.stringify({ key: "later" })
    })
    const changed = await send(lanePort, { method: "GET", path, headers: { ...bearer(key), "if-none-match": etag } })
    expect(changed.status).toBe(200)
    expect(changed.headers["etag"]).not.toBe(etag)
    expect(JSON.parse(changed.body).flags.map((flag: { key: string }) => flag.key)).toContain("later")
  })
})
