import { Bootstrap } from "@hedgerow/core"
import { eventually, forEachBackend, startReceiver } from "@hedgerow/store/testing"
import { ConfigProvider, Layer, ManagedRuntime } from "effect"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/** Short waits, so a whole retry schedule runs in about a second. */
const SETTINGS = {
  HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true",
  HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS: "200,200,200",
  HEDGEROW_WEBHOOKS_TIMEOUT_MS: "1000",
  HEDGEROW_WEBHOOKS_POLL_MS: "50"
}

forEachBackend((backend) => describe(`webhook deliveries on ${backend.name}`, () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  let key = ""
  let project = 0
  const receiver = startReceiver((path, n) => {
    if (path === "/hang") return "hang"
    if (path === "/down") return 503
    if (path === "/flaky") return n < 2 ? 500 : 204
    if (path === "/nul") return { status: n === 0 ? 500 : 200, body: "bad\u0000reply" }
    return 200
  })

  beforeAll(async () => {
    const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: SETTINGS }), { asPrimary: true })
    runtime = ManagedRuntime.make(backend.on((store) => HedgerowServer.layer({ port: 0, host: "127.0.0.1", store })).pipe(Layer.provide(config)))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    key = boot.personal_api_key
    project = boot.project_id
  })
  afterAll(async () => {
    await runtime.dispose()
    await (await receiver).close()
  })

  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}/api/projects/${project}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text) }
  }
  const hook = async (path: string, events?: ReadonlyArray<string>) => {
    const created = await call("POST", "/webhooks/", { url: (await receiver).url(path), ...(events === undefined ? {} : { events }) })
    expect(created.status).toBe(201)
    return created.body as { id: string; secret: string }
  }
  const flag = async (key: string) => {
    const created = await call("POST", "/feature_flags/", { key, filters: { groups: [{ rollout_percentage: 100 }] } })
    expect(created.status).toBe(201)
    return created.body as { id: number }
  }
  const deliveries = async (id: string) => (await call("GET", `/webhooks/${id}/deliveries/`)).body.results
  const settled = (id: string, count = 1) =>
    eventually(async () => {
      const list = await deliveries(id)
      return list.length >= count && list.every((one: { status: string }) => one.status !== "pending") ? list : undefined
    })

  it("signs each delivery so that a Standard Webhooks verifier accepts it, carrying the change and the flag before and after", async () => {
    const { id, secret } = await hook("/ok", ["feature_flag.created", "feature_flag.updated"])
    const created = await flag("signed-flag")
    expect((await call("PATCH", `/feature_flags/${created.id}/`, { active: false, name: "Signed" })).status).toBe(200)
    const list = await settled(id, 2)
    const first = list.find((one: { event: string }) => one.event === "feature_flag.created")
    const updated = list.find((one: { event: string }) => one.event === "feature_flag.updated")
    // Deliveries run side by side, so the receiver may get them in either order.
    const requests = (await receiver).on("/ok").sort((a, b) => (a.headers["webhook-id"] === first.id ? -1 : b.headers["webhook-id"] === first.id ? 1 : 0))
    const verifier = new Webhook(secret)
    const bodies = requests.map((request) => verifier.verify(request.body, request.headers) as { type: string; data: any })
    expect(bodies.map((body) => body.type)).toEqual(["feature_flag.created", "feature_flag.updated"])
    expect(requests.map((request) => request.headers["webhook-id"])).toEqual([first.id, updated.id])
    expect(requests[0]!.headers["content-type"]).toBe("application/json")

    const [creation, change] = bodies
    expect(creation!.data).toMatchObject({
      project_id: project,
      activity: { activity: "created", scope: "FeatureFlag", item_id: String(created.id), user: { email: "admin@hedgerow.local" } },
      before: null,
      after: { id: created.id, key: "signed-flag", active: true, version: 1 }
    })
    expect(change!.data.before).toMatchObject({ id: created.id, key: "signed-flag", name: "", active: true, version: 1 })
    expect(change!.data.after).toMatchObject({ id: created.id, key: "signed-flag", name: "Signed", active: false, version: 2 })
    expect(change!.data.activity.detail.changes).toEqual(expect.arrayContaining([
      { type: "FeatureFlag", action: "changed", field: "active", before: true, after: false }
    ]))

    // A verifier with another secret refuses it, and so does one shown a changed body.
    expect(() => new Webhook(`whsec_${Buffer.alloc(32, 1).toString("base64")}`).verify(requests[0]!.body, requests[0]!.headers)).toThrow()
    expect(() => verifier.verify(requests[0]!.body.replace("signed-flag", "other-flag"), requests[0]!.headers)).toThrow()

    expect(updated).toMatchObject({ event: "feature_flag.updated", status: "delivered", next_attempt_at: null })
    expect(updated.attempts).toEqual([
      expect.objectContaining({ attempt: 1, status_code: 200, response: expect.stringMatching(/^answer 200 to request [01]$/), error: null })
    ])
    expect(updated.payload).toEqual(bodies[1])
  })

  it("retries a receiver that fails, with the same delivery id, until it recovers", async () => {
    const { id, secret } = await hook("/flaky", ["feature_flag.created"])
    await flag("flaky-flag")
    const [delivery] = await settled(id)
    expect(delivery.status).toBe("delivered")
    expect(delivery.attempts.map((one: { status_code: number }) => one.status_code)).toEqual([500, 500, 204])
    expect(delivery.attempts[0]).toMatchObject({ attempt: 1, response: "answer 500 to request 0", error: "HTTP 500" })
    const requests = (await receiver).on("/flaky")
    expect(requests.map((request) => request.headers["webhook-id"])).toEqual([delivery.id, delivery.id, delivery.id])
    for (const request of requests) expect(new Webhook(secret).verify(request.body, request.headers)).toMatchObject({ type: "feature_flag.created" })
  })

  it("marks a delivery failed once the retry schedule is spent", async () => {
    const { id } = await hook("/down", ["feature_flag.created"])
    await flag("down-flag")
    const [delivery] = await settled(id)
    expect(delivery).toMatchObject({ status: "failed", next_attempt_at: null, delivered_at: null })
    expect(delivery.attempts.map((one: { status_code: number }) => one.status_code)).toEqual([503, 503, 503, 503])
  })

  it("keeps writes fast while a receiver hangs, and records the attempt as timed out", async () => {
    const { id } = await hook("/hang", ["feature_flag.created"])
    const started = Date.now()
    for (const n of [1, 2, 3]) await flag(`hang-flag-${n}`)
    expect(Date.now() - started).toBeLessThan(900)
    const list = await eventually(async () => {
      const found = await deliveries(id)
      return found.length === 3 && found.every((one: { attempts: ReadonlyArray<unknown> }) => one.attempts.length > 0) ? found : undefined
    })
    for (const delivery of list) {
      expect(delivery.attempts[0]).toMatchObject({ attempt: 1, status_code: null, response: null, error: "no answer within 1000 ms" })
      expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(990)
    }
  })

  it("records a reply the database could not hold as it stands (NUL), and delivers on", async () => {
    const { id } = await hook("/nul", ["feature_flag.created"])
    await flag("nul-flag")
    const [delivery] = await settled(id)
    expect(delivery.status).toBe("delivered")
    expect(delivery.attempts.map((one: { response: string }) => one.response)).toEqual(["badreply", "badreply"])
  })

  it("sends nothing to a disabled webhook, but the test action", async () => {
    const { id } = await hook("/disabled", ["*"])
    expect((await call("PATCH", `/webhooks/${id}/`, { enabled: false })).status).toBe(200)
    await flag("unseen-flag")
    expect((await call("POST", `/webhooks/${id}/test/`)).status).toBe(201)
    const [delivery] = await settled(id)
    expect(delivery).toMatchObject({ event: "webhook.test", status: "delivered" })
    expect(await deliveries(id)).toHaveLength(1)
    expect((await receiver).on("/disabled")).toHaveLength(1)
  })

  it("pages deliveries newest first, at most 100 a page", async () => {
    const { id } = await hook("/paged", ["feature_flag.created"])
    for (let n = 0; n < 3; n++) expect((await call("POST", `/webhooks/${id}/test/`)).status).toBe(201)
    const first = await call("GET", `/webhooks/${id}/deliveries/?limit=2`)
    expect(first.body.count).toBe(3)
    expect(first.body.results).toHaveLength(2)
    expect(first.body.next).toMatch(/\/deliveries\/\?limit=2&offset=2$/)
    const rest = await call("GET", `/webhooks/${id}/deliveries/?limit=2&offset=2`)
    const ids = [...first.body.results, ...rest.body.results].map((one: { id: string }) => one.id)
    expect(new Set(ids).size).toBe(3)
    const wide = await call("GET", `/webhooks/${id}/deliveries/?limit=1000`)
    expect(wide.body.results).toHaveLength(3)
    expect(wide.body.next).toBeNull()
    expect((await call("GET", `/webhooks/${id}/deliveries/?limit=1000&offset=1`)).body.previous).toMatch(/limit=100(&|$)/)
  })

  it("sends a test delivery on request, and only subscribed events otherwise", async () => {
    const { id, secret } = await hook("/test", ["cohort.created"])
    await flag("unsubscribed-flag")
    const sent = await call("POST", `/webhooks/${id}/test/`)
    expect(sent.status).toBe(201)
    expect(sent.body).toMatchObject({ webhook_id: id, event: "webhook.test", status: "pending", attempts: [] })
    const [delivery] = await settled(id)
    expect(delivery).toMatchObject({ id: sent.body.id, event: "webhook.test", status: "delivered" })
    const requests = (await receiver).on("/test")
    expect(requests).toHaveLength(1)
    expect(new Webhook(secret).verify(requests[0]!.body, requests[0]!.headers)).toMatchObject({
      type: "webhook.test",
      data: { project_id: project, webhook_id: id }
    })
  })
}))
