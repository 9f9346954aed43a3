import { Bootstrap } from "@hedgerow/core"
import { Effect, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/**
 * Text holding NUL names nothing: no stored token, key or distinct id can hold one, and the store
 * refuses to be asked with one. The public paths answer such a request as they answer any unknown name,
 * never with a 500.
 */
describe("text holding NUL in the SDKs' paths", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let base = ""
  let key = ""
  let token = ""
  let project = 0

  const send = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? undefined : JSON.parse(text) }
  }
  const withKey = { authorization: "" }

  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, log: { level: "none", format: "text" } }))
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    key = boot.personal_api_key
    withKey.authorization = `Bearer ${key}`
    project = boot.project_id
    const port = await runtime.runPromise(Effect.map(Effect.service(HttpServer.HttpServer), (server) => (server.address as { port: number }).port))
    base = `http://127.0.0.1:${port}`
    token = (await send("GET", `/api/projects/${project}/`, undefined, withKey)).body.api_token
    // A static list past what evaluation holds in memory, so that a distinct id is looked up in the store.
    const listed = (await send("POST", `/api/projects/${project}/cohorts/`, { name: "Listed", is_static: true }, withKey)).body
    for (let from = 0; from <= 20_000; from += 1_000) {
      const person_ids = Array.from({ length: 1_000 }, (_, i) => (from + i === 0 ? "someone" : `member-${from + i}`))
      await send("PATCH", `/api/projects/${project}/cohorts/${listed.id}/add_persons_to_static_cohort/`, { person_ids }, withKey)
    }
    await send("POST", `/api/projects/${project}/feature_flags/`, {
      key: "on-listed",
      filters: { groups: [{ properties: [{ key: "id", type: "cohort", value: listed.id }], rollout_percentage: 100 }] }
    }, withKey)
  })
  afterAll(async () => {
    await runtime?.dispose()
  })

  it("a token names no project", async () => {
    const nul = `${token}\u0000`
    const invalid = { type: "authentication_error", code: "invalid_api_key", detail: "Project API key invalid. You can find your project API key in PostHog project settings.", attr: null }
    expect(await send("POST", "/flags/?v=2", { token: nul, distinct_id: "a" })).toEqual({ status: 401, body: invalid })
    expect((await send("POST", "/decide/?v=3", { api_key: nul, distinct_id: "a" })).status).toBe(401)
    for (const path of ["/e/", "/batch/"]) {
      const sent = path === "/e/" ? { event: "x", distinct_id: "u", properties: { token: nul } } : { api_key: nul, batch: [{ event: "x", distinct_id: "u" }] }
      expect(await send("POST", path, sent)).toMatchObject({ status: 403, body: { code: "ingest_key_unknown" } })
    }
    for (const path of [`/array/${encodeURIComponent(nul)}/config`, `/array/${encodeURIComponent(nul)}/config.js`]) {
      expect((await send("GET", path)).status).toBe(404)
    }
    expect((await send("GET", `/flags/definitions?token=${encodeURIComponent(nul)}`, undefined, withKey)).status).toBe(401)
  })

  it("a flag key names no flag, and a distinct id is in no list", async () => {
    expect(await send("GET", `/api/projects/${project}/feature_flags/a%00b/remote_config/`, undefined, withKey)).toEqual({ status: 404, body: null })
    const answer = await send("POST", "/flags/?v=2", { token, distinct_id: "some\u0000one" })
    expect(answer.status).toBe(200)
    expect(answer.body.flags["on-listed"].enabled).toBe(false)
    expect((await send("POST", "/flags/?v=2", { token, distinct_id: "someone" })).body.flags["on-listed"].enabled).toBe(true)
    const reasons = await send("GET", `/api/projects/${project}/feature_flags/evaluation_reasons/?distinct_id=a%00b`, undefined, withKey)
    expect([reasons.status, reasons.body["on-listed"].value]).toEqual([200, false])
  })
})
