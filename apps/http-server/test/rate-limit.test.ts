import { Bootstrap, PersonalApiKeyService, systemActor } from "@hedgerow/core"
import { forEachBackend } from "@hedgerow/store/testing"
import { ConfigProvider, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

forEachBackend((backend) => describe(`the rate limit on ${backend.name}`, () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  let key = ""
  let otherKey = ""
  let path = ""

  beforeAll(async () => {
    const settings = ConfigProvider.layer(ConfigProvider.fromEnv({ env: { ...process.env, HEDGEROW_RATE_LIMIT: "true" } }))
    runtime = ManagedRuntime.make(backend.on((store) => HedgerowServer.layer({ port: 0, host: "127.0.0.1", store }).pipe(Layer.provide(settings))))
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    otherKey = (await runtime.runPromise(PersonalApiKeyService.use((s) => s.create(systemActor, { email: "admin@hedgerow.local", scopes: ["*"] })))).personal_api_key
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    key = boot.personal_api_key
    path = `${url}/api/organizations/${boot.organization_id}/projects/`
  })
  afterAll(async () => {
    await runtime.dispose()
  })

  it("with HEDGEROW_RATE_LIMIT on, a key past 480 requests a minute gets 429 with Retry-After; other keys are unaffected", async () => {
    const get = (k: string) => fetch(path, { headers: { authorization: `Bearer ${k}` } })
    for (let i = 0; i < 480; i++) {
      const response = await get(key)
      expect(response.status).toBe(200)
      await response.arrayBuffer()
    }
    const refused = await get(key)
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(60)
    expect(await refused.json()).toEqual({
      type: "throttled_error",
      code: "throttled",
      detail: `Request was throttled. Expected available in ${retryAfter} second${retryAfter === 1 ? "" : "s"}.`,
      attr: null
    })
    expect((await get(otherKey)).status).toBe(200)
    // An unsupported method authenticates first, so it is throttled the same way, Retry-After included.
    const wrongMethod = await fetch(path, { method: "DELETE", headers: { authorization: `Bearer ${key}` } })
    expect(wrongMethod.status).toBe(429)
    expect(Number(wrongMethod.headers.get("retry-after"))).toBeGreaterThan(0)
  })
}))
