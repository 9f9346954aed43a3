import { Effect, Layer, ManagedRuntime, Option } from "effect"
import { connect } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { MetricsListener } from "../src/observe/metrics-listener.ts"
import { eventually, promtoolCheck, requirePrometheus, startPrometheus } from "./prometheus.ts"

/** A series' value in an exposition, by its name and labels exactly as rendered; undefined when absent. */
const valueOf = (text: string, series: string): number | undefined => {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe("metrics on a listener of their own", () => {
  requirePrometheus()
  const runtime = ManagedRuntime.make(
    HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, metrics: { port: 0, host: "127.0.0.1" } }).pipe(Layer.orDie)
  )
  let api = ""
  let metrics = ""
  let token = ""
  let key = ""
  let project = 0

  beforeAll(async () => {
    api = await runtime.runPromise(HedgerowServer.baseUrl)
    metrics = Option.getOrThrow(await runtime.runPromise(Effect.serviceOption(MetricsListener))).url
    const first = Option.getOrThrow(await runtime.runPromise(HedgerowServer.bootstrapIfEmpty()))
    key = first.personal_api_key
    project = Number(first.project_id)
    const projectBody = await (await fetch(`${api}/api/projects/${project}/`, { headers: { authorization: `Bearer ${key}` } })).json() as { api_token: string }
    token = projectBody.api_token
  })
  afterAll(() => runtime.dispose())

  const evaluate = () =>
    fetch(`${api}/flags/?v=2`, { method: "POST", body: JSON.stringify({ token, distinct_id: "ann" }) })

  it("counts requests by route, method and status, flags by project and flag, and passes promtool", async () => {
    const created = await fetch(`${api}/api/projects/${project}/feature_flags/`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "beta-one", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    })
    expect(created.status).toBe(201)
    const flagId = (await created.json() as { id: number }).id
    for (let i = 0; i < 3; i++) expect((await evaluate()).status).toBe(200)
    expect((await fetch(`${api}/flags/?v=2`, { method: "POST", body: "{" })).status).toBe(400)
    expect((await fetch(`${api}/api/projects/${project}/feature_flags/`)).status).toBe(401)
    const captured = await fetch(`${api}/batch/`, {
      method: "POST",
      body: JSON.stringify({
        api_key: token,
        batch: [1, 2].map(() => ({ event: "$feature_flag_called", distinct_id: "ann", properties: { $feature_flag: "beta-one", $feature_flag_response: true } }))
      })
    })
    expect(captured.status).toBe(200)

    const scraped = await fetch(`${metrics}/metrics`)
    expect(scraped.status).toBe(200)
    expect(scraped.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8")
    const text = await scraped.text()
    const flags = `{route="/flags/",method="POST",status="200"}`
    expect(valueOf(text, `hedgerow_http_request_duration_seconds_count${flags}`)).toBe(3)
    expect(valueOf(text, `hedgerow_http_request_duration_seconds_bucket{route="/flags/",method="POST",status="200",le="+Inf"}`)).toBe(3)
    expect(valueOf(text, `hedgerow_http_request_duration_seconds_count{route="/flags/",method="POST",status="400"}`)).toBe(1)
    expect(valueOf(text, `hedgerow_http_request_duration_seconds_count{route="/api/projects/:project_id/feature_flags/",method="GET",status="401"}`)).toBe(1)
    expect(valueOf(text, `hedgerow_http_request_duration_seconds_count{route="/api/projects/:project_id/feature_flags/",method="POST",status="201"}`)).toBe(1)
    const flag = `{project_id="${project}",flag_id="${flagId}",flag="beta-one"}`
    expect(valueOf(text, `hedgerow_flag_evaluations_total${flag}`)).toBe(3)
    expect(valueOf(text, `hedgerow_flag_calls_total${flag}`)).toBe(2)
    expect(valueOf(text, `hedgerow_flag_evaluations_total{project_id="",flag_id="other",flag=""}`)).toBe(0)
    expect(valueOf(text, `hedgerow_ready{status="ready"}`)).toBe(1)
    expect(valueOf(text, "hedgerow_change_feed_listening")).toBe(1)
    expect(valueOf(text, "hedgerow_read_model_live")).toBe(1)
    // The evaluations above read the project by its token and held its live flags.
    expect(valueOf(text, `hedgerow_read_model_entries{part="projects_by_token"}`)).toBe(1)
    expect(valueOf(text, `hedgerow_read_model_entries{part="live_flag_projects"}`)).toBe(1)
    expect(valueOf(text, `hedgerow_read_model_entries{part="key_holders"}`)).toBeGreaterThanOrEqual(1)
    expect(valueOf(text, "hedgerow_db_up")).toBe(1)
    // The flag's creation and the usage writes ran statements; none runs between two requests.
    expect(valueOf(text, "hedgerow_db_statement_duration_seconds_count")).toBeGreaterThan(0)
    expect(valueOf(text, `hedgerow_db_statement_duration_seconds_bucket{le="+Inf"}`)).toBe(valueOf(text, "hedgerow_db_statement_duration_seconds_count"))
    expect(valueOf(text, "hedgerow_db_statements_in_flight")).toBeGreaterThanOrEqual(0)
    expect(valueOf(text, "hedgerow_db_round_trip_seconds")).toBeGreaterThan(0)
    expect(valueOf(text, "hedgerow_change_feed_last_notification_age_seconds")).toBeGreaterThanOrEqual(0)
    expect(valueOf(text, "hedgerow_process_resident_memory_bytes")).toBeGreaterThan(0)
    expect(valueOf(text, "hedgerow_process_heap_used_bytes")).toBeGreaterThan(0)
    expect(valueOf(text, "hedgerow_event_loop_delay_max_seconds")).toBeGreaterThanOrEqual(0)
    const checked = promtoolCheck(text)
    expect(checked, checked.output).toEqual({ status: 0, output: "" })
  })

  it("serves /_ready on both ports, and the metrics nowhere on the API's", async () => {
    for (const base of [api, metrics]) {
      const ready = await fetch(`${base}/_ready`)
      expect([ready.status, await ready.json()]).toEqual([200, { status: "ready" }])
    }
    const onApi = await fetch(`${api}/metrics`)
    expect(onApi.status).toBe(404)
    expect(await onApi.text()).not.toContain("hedgerow_")
    const unknown = await fetch(`${metrics}/api/projects/`)
    expect([unknown.status, await unknown.text()]).toEqual([404, "Not Found\n"])
    const posted = await fetch(`${metrics}/metrics`, { method: "POST", body: "x".repeat(1 << 20) })
    expect(posted.status).toBe(405)
  })

  it("cuts off a slow peer on the metrics listener, answering others meanwhile", async () => {
    const { hostname, port } = new URL(metrics)
    const started = Date.now()
    const socket = connect(Number(port), hostname)
    let answer = ""
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString()
    })
    const closed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())))
    // Headers that never end.
    socket.write("GET /metrics HTTP/1.1\r\nhost: x\r\n")
    const scraped = await fetch(`${metrics}/_ready`)
    expect(scraped.status).toBe(200)
    expect(await closed - started).toBeLessThan(8_000)
    expect(answer).toMatch(/^HTTP\/1\.1 408 /)
  }, 15_000)

  it("is scraped by a real Prometheus, which reads the series back", async () => {
    const prometheus = await startPrometheus(new URL(metrics).host)
    try {
      const series = await eventually(async () => {
        const result = await prometheus.query(`hedgerow_http_request_duration_seconds_count{route="/flags/",status="200"}`)
        return result.length > 0 ? result : undefined
      }, 20_000, "Prometheus to scrape the server")
      expect(series[0]!.metric).toMatchObject({ job: "hedgerow", route: "/flags/", method: "POST", status: "200" })
      expect(Number(series[0]!.value[1])).toBeGreaterThanOrEqual(3)
      const up = await prometheus.query("up")
      expect(up.map((sample) => sample.value[1])).toEqual(["1"])
      const ready = await prometheus.query("hedgerow_ready")
      expect(ready.map((sample) => [sample.metric["status"], sample.value[1]])).toEqual([["ready", "1"]])
    } finally {
      await prometheus.stop()
    }
  }, 30_000)
})
