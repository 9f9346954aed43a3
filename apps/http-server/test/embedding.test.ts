import { existsSync, mkdtempSync, rmSync } from "node:fs"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import type { StoreOptions } from "@hedgerow/store"
import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect, Option } from "effect"
import { type EmbeddedHedgerow, Embedding, openHedgerow } from "../src/index.ts"

const BASE = "/flags-admin"

/**
 * An application's own server: its page at `/`, Hedgerow under BASE, and its own 404 for the rest, which
 * Hedgerow hands back through `next`. Paths under `/bare` call the handler without `next`.
 */
const hostServer = async (hedgerow: EmbeddedHedgerow) => {
  const app = (request: IncomingMessage, response: ServerResponse) => {
    if (request.url?.startsWith("/bare")) return hedgerow.handler(request, response)
    hedgerow.handler(request, response, () => {
      response.writeHead(request.url === "/" ? 200 : 404, { "content-type": "text/plain" })
      response.end(request.url === "/" ? "the application's page" : "the application's 404")
    })
  }
  const server = createServer(app)
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }
}

const stop = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))

forEachBackend((backend) =>
describe(`Hedgerow opened in an application on ${backend.name}, its API mounted on the application's server`, () => {
  let database: { url: string; drop: () => Promise<void> } | undefined
  let hedgerow: EmbeddedHedgerow
  let host: { server: Server; url: string }
  let key: string
  const api = (url: string, init: RequestInit = {}) =>
    fetch(`${host.url}${BASE}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...init.headers }
    })
  const flagsPath = () => `/api/projects/${hedgerow.project.id}/feature_flags/`
  const createFlag = async (body: object) => {
    const reply = await api(flagsPath(), { method: "POST", body: JSON.stringify(body) })
    const created = await reply.json()
    expect(reply.status, JSON.stringify(created)).toBe(201)
    return created as { id: number; key: string }
  }
  const patchFlag = async (id: number, body: object) => {
    const reply = await api(`${flagsPath()}${id}/`, { method: "PATCH", body: JSON.stringify(body) })
    expect(reply.status).toBe(200)
  }

  beforeAll(async () => {
    let store: StoreOptions = {}
    if (backend.name === "postgres") {
      database = await createDatabase(testDatabaseUrl()!, "hedgerow_embed")
      store = { databaseUrl: database.url, poolSize: 2 }
    }
    hedgerow = await openHedgerow({ store, basePath: `${BASE}/` })
    key = hedgerow.bootstrapped!.personal_api_key
    host = await hostServer(hedgerow)
  })
  afterAll(async () => {
    await stop(host.server)
    await hedgerow.close()
    await database?.drop()
  })

  it("bootstraps the empty store once and reads the project it made", () => {
    expect(key).toMatch(/^phx_/)
    expect(hedgerow.project).toMatchObject({ id: hedgerow.bootstrapped!.project_id, name: "Default project" })
    expect(hedgerow.project.api_token).toMatch(/^phc_/)
  })

  it("serves only below the base path: the rest goes to `next`, or without one is 404 in the envelope", async () => {
    expect(await (await fetch(`${host.url}/`)).text()).toBe("the application's page")
    for (const outside of ["/flags-adminx/_health", "/api/projects/", "/other"]) {
      const reply = await fetch(`${host.url}${outside}`)
      expect([reply.status, await reply.text()], outside).toEqual([404, "the application's 404"])
    }
    const bare = await fetch(`${host.url}/bare/api/projects/`)
    expect(bare.status).toBe(404)
    expect(await bare.json()).toEqual({ type: "invalid_request", code: "not_found", detail: "Not found.", attr: null })

    const health = await fetch(`${host.url}${BASE}/_health`)
    expect([health.status, await health.json()]).toEqual([200, { status: "ok" }])
    // The base path alone is Hedgerow's root, which serves nothing.
    const root = await fetch(`${host.url}${BASE}?x=1`)
    expect([root.status, (await root.json()).code]).toEqual([404, "not_found"])
  })

  it("answers management calls as `hedgerow serve` does, and its links carry the base path", async () => {
    const anonymous = await fetch(`${host.url}${BASE}/api/projects/`)
    expect([anonymous.status, (await anonymous.json()).code]).toEqual([401, "not_authenticated"])

    const organization = hedgerow.bootstrapped!.organization_id
    const created = await api(`/api/organizations/${organization}/projects/`, { method: "POST", body: JSON.stringify({ name: "Second" }) })
    expect(created.status).toBe(201)
    // Without the trailing slash too: the router settings are the server's.
    const first = await api("/api/projects?limit=1")
    expect(first.status).toBe(200)
    const page = await first.json()
    expect(page.count).toBe(2)
    expect(page.next).toBe(`${host.url}${BASE}/api/projects?limit=1&offset=1`)
    const second = await (await fetch(page.next, { headers: { authorization: `Bearer ${key}` } })).json()
    expect(second.results.map((project: { name: string }) => project.name)).toEqual(["Second"])
    expect(second.previous).toBe(`${host.url}${BASE}/api/projects?limit=1`)

    // The SDKs' evaluation paths keep their CORS below the base path.
    const preflight = await fetch(`${host.url}${BASE}/flags/?v=2`, { method: "OPTIONS", headers: { origin: "https://shop.example" } })
    expect([preflight.status, preflight.headers.get("access-control-allow-origin")]).toEqual([204, "https://shop.example"])
  })

  it("evaluates in-process as /flags?v=2 answers a server, inactive flags off, client-only ones unknown", async () => {
    const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] }
    const on = await createFlag({ key: "agree-on", filters: { ...everyone, payloads: { true: "{\"color\": \"blue\"}" } } })
    const variant = await createFlag({
      key: "agree-variant",
      filters: {
        ...everyone,
        multivariate: { variants: [{ key: "red", rollout_percentage: 50 }, { key: "green", rollout_percentage: 50 }] },
        payloads: { red: "\"warm\"", green: "{\"n\": 2}" }
      }
    })
    const pro = await createFlag({
      key: "agree-pro",
      filters: { groups: [{ properties: [{ key: "plan", type: "person", value: "pro", operator: "exact" }], rollout_percentage: 100 }] }
    })
    const half = await createFlag({ key: "agree-half", filters: { groups: [{ properties: [], rollout_percentage: 50 }] } })
    const off = await createFlag({ key: "agree-off", filters: everyone, active: false })
    const client = await createFlag({ key: "agree-client", filters: everyone, evaluation_runtime: "client" })
    const keys = [on, variant, pro, half, off, client].map((flag) => flag.key)

    const seen = new Set<string>()
    const people = [["ann", { plan: "pro" }], ["bob", {}], ["cy", { plan: "free" }], ["dee", { plan: "pro" }], ["eve", {}], ["fay", {}]] as const
    for (const [distinctId, personProperties] of people) {
      const remote = await fetch(`${host.url}${BASE}/flags/?v=2`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          token: hedgerow.project.api_token,
          distinct_id: distinctId,
          person_properties: personProperties,
          evaluation_runtime: "server"
        })
      })
      expect(remote.status).toBe(200)
      const answered = (await remote.json()).flags as Record<string, { enabled: boolean; variant: string | null; metadata: { payload: string | null } }>
      const all = await hedgerow.flags.getAll(distinctId, { personProperties })
      const expected: Record<string, string | boolean> = {}
      for (const [flagKey, detail] of Object.entries(answered)) expected[flagKey] = detail.variant ?? detail.enabled
      // /flags leaves inactive flags out; read in-process they are off, as posthog-node reads them locally.
      expect(all).toEqual({ ...expected, [off.key]: false })
      for (const flagKey of keys) {
        const detail = answered[flagKey]
        const options = { personProperties }
        expect(await hedgerow.flags.getVariant(flagKey, distinctId, options), flagKey).toBe(all[flagKey])
        expect(await hedgerow.flags.isEnabled(flagKey, distinctId, options), flagKey).toBe(all[flagKey] === undefined ? undefined : all[flagKey] !== false)
        const payload = detail?.metadata.payload
        const parsed = payload === null || payload === undefined ? null : JSON.parse(payload)
        expect(await hedgerow.flags.getPayload(flagKey, distinctId, options), flagKey).toEqual(all[flagKey] === undefined ? undefined : parsed)
      }
      expect(all[client.key]).toBeUndefined()
      for (const flagKey of [variant.key, half.key, pro.key]) seen.add(`${flagKey}=${all[flagKey]}`)
    }
    // The persons tell the flags' answers apart: each variant, both sides of the rollout and of the condition.
    expect([...seen].sort()).toEqual([
      "agree-half=false", "agree-half=true", "agree-pro=false", "agree-pro=true", "agree-variant=green", "agree-variant=red"
    ])
    expect(await hedgerow.flags.getPayload(on.key, "ann")).toEqual({ color: "blue" })
    expect(await hedgerow.flags.isEnabled("no-such-flag", "ann")).toBeUndefined()
    expect(await hedgerow.flags.getPayload(off.key, "ann")).toBeNull()
    await expect(hedgerow.flags.isEnabled(on.key, "")).rejects.toThrow("distinctId must be a non-empty string")
  })

  it("sees a change made through the API at the next read", async () => {
    const flag = await createFlag({ key: "flip", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    expect(await hedgerow.flags.isEnabled("flip", "ann")).toBe(true)
    await patchFlag(flag.id, { active: false })
    expect(await hedgerow.flags.isEnabled("flip", "ann")).toBe(false)
    await patchFlag(flag.id, { active: true })
    expect(await hedgerow.flags.isEnabled("flip", "ann")).toBe(true)
    await patchFlag(flag.id, { filters: { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: "[1, 2]" } } })
    expect(await hedgerow.flags.getPayload("flip", "ann")).toEqual([1, 2])
    await patchFlag(flag.id, { deleted: true })
    expect(await hedgerow.flags.isEnabled("flip", "ann")).toBeUndefined()
    expect("flip" in (await hedgerow.flags.getAll("ann"))).toBe(false)
  })

  it("answers every key as an own property of getAll's object, __proto__ and constructor too", async () => {
    const odd = await createFlag({ key: "__proto__", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    await createFlag({ key: "constructor", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    const all = await hedgerow.flags.getAll("ann")
    expect(Object.getPrototypeOf(all)).toBe(Object.prototype)
    expect(Object.hasOwn(all, "__proto__")).toBe(true)
    expect(Object.keys(all)).toContain("__proto__")
    expect(all["constructor"]).toBe(true)
    expect(JSON.parse(JSON.stringify(all))["__proto__"]).toBe(true)
    await patchFlag(odd.id, { deleted: true })
  })

  it("marks the flags it evaluates as called, as /flags does: an active one read is shown as used at once, an inactive one not", async () => {
    const used = await createFlag({ key: "used-in-process", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    const idle = await createFlag({ key: "idle-in-process", active: false, filters: { groups: [] } })
    const lastCalled = async (id: number) => (await (await api(`${flagsPath()}${id}/`)).json()).last_called_at
    expect(await lastCalled(used.id)).toBeNull()
    const before = Date.now()
    expect(await hedgerow.flags.isEnabled(used.key, "ann")).toBe(true)
    expect(await hedgerow.flags.isEnabled(idle.key, "ann")).toBe(false)
    expect(Date.parse(await lastCalled(used.id))).toBeGreaterThanOrEqual(before - 1000)
    expect(await lastCalled(idle.id)).toBeNull()
  })
}))

describe("opening and closing Hedgerow in an application", () => {
  const dir = mkdtempSync(path.join(tmpdir(), "hedgerow-embed-"))
  const dataDir = path.join(dir, "data")
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it("holds the data directory while open and releases it on close; the store keeps its project and flags", async () => {
    const first = await openHedgerow({ store: { dataDir }, basePath: "/hedgerow", bootstrap: { email: "owner@example.com", projectName: "Shop" } })
    expect(first.bootstrapped?.user.email).toBe("owner@example.com")
    await expect(openHedgerow({ store: { dataDir }, basePath: "/hedgerow" })).rejects.toThrow(/in use/i)
    const host = await hostServer(first)
    const created = await fetch(`${host.url}/hedgerow/api/projects/${first.project.id}/feature_flags/`, {
      method: "POST",
      headers: { authorization: `Bearer ${first.bootstrapped!.personal_api_key}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "kept", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    })
    expect(created.status).toBe(201)
    await stop(host.server)
    await first.close()
    await first.close()

    // Closed: the handler refuses, the flags reject.
    const closed = await hostServer(first)
    const refused = await fetch(`${closed.url}/hedgerow/_health`)
    expect([refused.status, (await refused.json()).detail]).toEqual([503, "The server is shutting down."])
    await stop(closed.server)
    await expect(first.flags.isEnabled("kept", "ann")).rejects.toThrow("Hedgerow is closed")

    const again = await openHedgerow({ store: { dataDir }, basePath: "/hedgerow" })
    try {
      expect(again.bootstrapped).toBeUndefined()
      expect(again.project).toEqual(first.project)
      expect(await again.flags.isEnabled("kept", "ann")).toBe(true)
    } finally {
      await again.close()
    }
  })

  it("reads the first project by default, else the one the options name by id or public token; refuses one that does not exist", async () => {
    const store = { dataDir: path.join(dir, "projects") }
    const hedgerow = await openHedgerow({ store, basePath: "/" })
    const host = await hostServer(hedgerow)
    const headers = { authorization: `Bearer ${hedgerow.bootstrapped!.personal_api_key}`, "content-type": "application/json" }
    let second: { id: number; api_token: string }
    try {
      // Mounted at the root, everything is Hedgerow's: `next` is never called.
      const unknown = await fetch(`${host.url}/other`)
      expect([unknown.status, (await unknown.json()).code]).toEqual([404, "not_found"])
      const made = await fetch(`${host.url}/api/organizations/${hedgerow.project.organization_id}/projects/`, {
        method: "POST",
        headers,
        body: JSON.stringify({ name: "Second" })
      })
      second = await made.json()
      const flag = await fetch(`${host.url}/api/projects/${second.id}/feature_flags/`, {
        method: "POST",
        headers,
        body: JSON.stringify({ key: "second-only", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      })
      expect(flag.status).toBe(201)
      expect(await hedgerow.flags.isEnabled("second-only", "ann")).toBeUndefined()
    } finally {
      await stop(host.server)
      await hedgerow.close()
    }
    for (const project of [{ apiToken: second.api_token }, { id: second.id }]) {
      const named = await openHedgerow({ store, basePath: "/", project })
      expect(named.project).toMatchObject({ id: second.id, name: "Second", api_token: second.api_token })
      expect(await named.flags.isEnabled("second-only", "ann")).toBe(true)
      await named.close()
    }
    const reopened = await openHedgerow({ store, basePath: "/" })
    expect(reopened.project).toEqual(hedgerow.project)
    await reopened.close()
    await expect(openHedgerow({ store, basePath: "/", project: { id: 999 } })).rejects.toThrow("no project has the id 999")
    await expect(openHedgerow({ store, basePath: "/", project: { apiToken: "phc_nobody" } })).rejects.toThrow(/no project has the api_token/)
  })

  it("logs requests when asked, by their route below the base path", async () => {
    const lines: Array<string> = []
    const hedgerow = await openHedgerow({ store: {}, basePath: "/h", log: { level: "info", format: "json", sink: (text) => lines.push(text) } })
    const host = await hostServer(hedgerow)
    expect((await fetch(`${host.url}/h/api/projects/`)).status).toBe(401)
    expect((await fetch(`${host.url}/elsewhere`)).status).toBe(404)
    await stop(host.server)
    await hedgerow.close()
    const logged = lines.join("").trim().split("\n").map((line) => JSON.parse(line))
    expect(logged.map(({ method, path, status }) => ({ method, path, status }))).toEqual([{ method: "GET", path: "/api/projects/", status: 401 }])
  })

  it("gives an Effect application the same through Embedding.layer", async () => {
    const read = Effect.gen(function*() {
      const embedding = yield* Embedding.Embedding
      return {
        project: embedding.project.name,
        bootstrapped: Option.isSome(embedding.bootstrapped),
        flags: yield* embedding.flags.getAll("ann"),
        unknown: yield* embedding.flags.isEnabled("no-such-flag", "ann")
      }
    })
    const answered = await Effect.runPromise(read.pipe(Effect.provide(Embedding.layer({ store: {}, basePath: "/h", bootstrap: { projectName: "Effectful" } }))))
    expect(answered).toEqual({ project: "Effectful", bootstrapped: true, flags: {}, unknown: undefined })
  })

  it("refuses an empty store it may not bootstrap, and a base path that is not a path", async () => {
    await expect(openHedgerow({ store: {}, basePath: "/h", bootstrap: false })).rejects.toThrow(/holds no project/)
    const notOpened = path.join(dir, "not-opened")
    await expect(openHedgerow({ store: { dataDir: notOpened }, basePath: "hedgerow" })).rejects.toThrow(/basePath must be a path/)
    expect(existsSync(notOpened)).toBe(false)
    // An empty store and a project named: refused before anything is written, so no bootstrap's key is lost.
    const empty = path.join(dir, "empty")
    await expect(openHedgerow({ store: { dataDir: empty }, basePath: "/h", project: { id: 1 } })).rejects.toThrow("no project has the id 1")
    const bootstrapped = await openHedgerow({ store: { dataDir: empty }, basePath: "/h" })
    expect(bootstrapped.bootstrapped?.personal_api_key).toMatch(/^phx_/)
    await bootstrapped.close()
  })
})
