import { Bootstrap, PersonalApiKeyService, systemActor } from "@hedgerow/core"
import { Effect, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { OpenApi } from "effect/http-api"
import { HedgerowApi } from "@hedgerow/api"
import { compressToBase64 } from "lz-string"
import { gzipSync } from "node:zlib"
import { runInNewContext } from "node:vm"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/**
 * The capture endpoints, posthog-js's remote configuration, a flag's usage and its test evaluation
 * (which counts no call), over real HTTP on a server of its own: each encoding the SDKs send, CORS,
 * and each refusal with its envelope.
 */
describe("events and the SDKs' configuration", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let base = ""
  let key = ""
  let otherKey = ""
  let narrowKey = ""
  let token = ""
  let project = 0
  let otherProject = 0
  let flagId = 0
  let colourId = 0

  const request = (method: string, path: string, init: { headers?: Record<string, string>; body?: string | Uint8Array | undefined } = {}) =>
    fetch(`${base}${path}`, { method, headers: init.headers ?? {}, body: (init.body ?? null) as BodyInit | null })
  const api = async (k: string, method: string, path: string, body?: unknown) => {
    const response = await request(method, path, {
      headers: { authorization: `Bearer ${k}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body)
    })
    return { status: response.status, body: await response.json() }
  }

  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, log: { level: "none", format: "text" } }))
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({})))
    key = boot.personal_api_key
    project = boot.project_id
    narrowKey = (await runtime.runPromise(PersonalApiKeyService.use((s) =>
      s.create(systemActor, { email: boot.user.email, scopes: ["organization:read"] })
    ))).personal_api_key
    const port = await runtime.runPromise(Effect.map(Effect.service(HttpServer.HttpServer), (server) => (server.address as { port: number }).port))
    base = `http://127.0.0.1:${port}`
    token = (await api(key, "GET", `/api/projects/${project}/`)).body.api_token
    const other = await api(key, "POST", "/api/organizations/", { name: "Elsewhere" })
    otherProject = (await api(key, "GET", `/api/organizations/${other.body.id}/projects/`)).body.results[0].id
    otherKey = key
    flagId = (await api(key, "POST", `/api/projects/${project}/feature_flags/`, { key: "beta", filters: { groups: [{ properties: [], rollout_percentage: 50 }] } })).body.id
    colourId = (await api(key, "POST", `/api/projects/${project}/feature_flags/`, {
      key: "colour",
      filters: { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: { variants: [{ key: "red", rollout_percentage: 50 }, { key: "blue", rollout_percentage: 50 }] } }
    })).body.id
  })
  afterAll(async () => {
    await runtime?.dispose()
  })

  const called = (flag: string, response: unknown, distinctId = "person-1") => ({
    event: "$feature_flag_called",
    properties: { distinct_id: distinctId, $feature_flag: flag, $feature_flag_response: response, token }
  })
  const usage = async (flag: number, query = "") => (await api(key, "GET", `/api/projects/${project}/feature_flags/${flag}/usage/${query}`)).body
  const totals = (report: { results: ReadonlyArray<{ breakdown_value: string; count: number }> }) =>
    Object.fromEntries(report.results.map((series) => [series.breakdown_value, series.count]))
  const envelope = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr })

  describe("the capture endpoints", () => {
    it("accept a batch in every encoding the SDKs send, answering as PostHog's capture does", async () => {
      const before = totals(await usage(flagId))
      const batch = JSON.stringify({ api_key: token, batch: [called("beta", true)], sent_at: new Date().toISOString() })
      const base64 = Buffer.from(batch).toString("base64")
      const sent: ReadonlyArray<readonly [string, string, Record<string, string>, string | Uint8Array]> = [
        ["posthog-node: JSON", "/batch/", { "content-type": "application/json" }, batch],
        ["posthog-node: gzip", "/batch/", { "content-type": "application/json", "content-encoding": "gzip" }, gzipSync(batch)],
        ["posthog-js: gzip-js, nothing said", "/i/v0/e/?ver=1.449.2&_=1", { "content-type": "text/plain" }, gzipSync(batch)],
        ["posthog-js: base64 form", "/e/?compression=base64&ver=1.449.2", { "content-type": "application/x-www-form-urlencoded" }, `data=${encodeURIComponent(base64)}`],
        ["older posthog-js: lz64 form", "/e/?compression=lz64", { "content-type": "application/x-www-form-urlencoded" }, `data=${encodeURIComponent(compressToBase64(batch))}`],
        ["a list of events", "/capture/", {}, JSON.stringify([{ ...called("beta", true), api_key: token }])],
        ["one event", "/track/", {}, JSON.stringify({ ...called("beta", true), api_key: token })]
      ]
      for (const [name, path, headers, body] of sent) {
        const response = await request("POST", path, { headers, body })
        expect([name, response.status, await response.text()]).toEqual([name, 200, "{\"status\":1}"])
      }
      const get = await request("GET", `/e/?data=${encodeURIComponent(base64)}`)
      expect([get.status, await get.json()]).toEqual([200, { status: 1 }])
      const beacon = await request("POST", "/e/?compression=base64&beacon=1", {
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `data=${encodeURIComponent(base64)}`
      })
      expect([beacon.status, await beacon.text()]).toEqual([204, ""])
      expect(totals(await usage(flagId)).true).toBe((before.true ?? 0) + sent.length + 2)
    })

    it("count each flag's calls per value it can return, drop the rest, and mark the flag as called", async () => {
      const before = totals(await usage(colourId))
      const batch = [
        called("colour", "red"), called("colour", "red"), called("colour", "blue"), called("colour", false),
        called("colour", "green"), called("colour", true), called("missing", true),
        { event: "$pageview", properties: { distinct_id: "a" } }
      ]
      const response = await request("POST", "/batch/", { body: JSON.stringify({ api_key: token, batch }) })
      expect(response.status).toBe(200)
      const after = totals(await usage(colourId))
      expect(after).toEqual({ red: (before.red ?? 0) + 2, blue: (before.blue ?? 0) + 1, false: (before.false ?? 0) + 1 })
      const flag = (await api(key, "GET", `/api/projects/${project}/feature_flags/${colourId}/`)).body
      expect(Date.now() - Date.parse(flag.last_called_at)).toBeLessThan(60_000)
    })

    it("answer preflights and echo any Origin, errors included", async () => {
      // In any case, as the router serves the paths.
      for (const path of ["/e/", "/i/v0/e/?compression=gzip-js", "/batch/", "/s/", "/engage/", "/E/", "/I/v0/E/", "/FLAGS/?v=2"]) {
        const preflight = await request("OPTIONS", path, { headers: { origin: "https://shop.example", "access-control-request-method": "POST" } })
        expect([path, preflight.status, preflight.headers.get("access-control-allow-origin")]).toEqual([path, 204, "https://shop.example"])
        expect(preflight.headers.get("access-control-allow-methods")).toBe("GET, POST, OPTIONS")
      }
      const upper = await request("POST", "/BATCH/", { headers: { origin: "https://shop.example" }, body: "{}" })
      expect([upper.status, upper.headers.get("access-control-allow-origin")]).toEqual([401, "https://shop.example"])
      const refused = await request("POST", "/e/", { headers: { origin: "https://shop.example" }, body: "{}" })
      expect(refused.status).toBe(401)
      expect(refused.headers.get("access-control-allow-origin")).toBe("https://shop.example")
    })

    it("refuse what is not events with PostHog's capture codes, in the envelope", async () => {
      const post = async (body: string | Uint8Array, path = "/batch/", headers: Record<string, string> = {}) => {
        const response = await request("POST", path, { headers, body })
        return [response.status, await response.json()]
      }
      expect(await post(JSON.stringify({ batch: [called("beta", true)].map(({ properties: { token: _, ...rest }, ...event }) => ({ ...event, properties: rest })) }))).toEqual([
        401,
        envelope("authentication_error", "ingest_key_required", "event submitted without an api_key")
      ])
      expect(await post(JSON.stringify({ api_key: "phc_nobody", batch: [called("beta", true)] }))).toEqual([
        403,
        envelope("authentication_error", "ingest_key_unknown", "api_key does not resolve to a known project")
      ])
      expect(await post(JSON.stringify({ api_key: token, batch: [] }))).toEqual([400, envelope("validation_error", "empty_batch", "request holds no event")])
      expect(await post(JSON.stringify({ api_key: token, batch: [{ properties: { distinct_id: "a" } }] }))).toEqual([
        400,
        envelope("validation_error", "missing_event_name", "event submitted with an empty event name")
      ])
      expect(await post(JSON.stringify({ api_key: token, batch: [{ event: "x" }] }))).toEqual([
        400,
        envelope("validation_error", "missing_distinct_id", "event submitted without a distinct_id")
      ])
      expect(await post(JSON.stringify([{ ...called("beta", true), api_key: token }, { ...called("beta", true), api_key: "phc_other" }]))).toEqual([
        400,
        envelope("validation_error", "unroutable_events", "batch submitted with inconsistent api_key values")
      ])
      const notEvents = envelope("validation_error", "request_parsing_error", "failed to parse request: the body must be an event, a list of events or a batch")
      expect(await post("\"text\"")).toEqual([400, notEvents])
      expect(await post("{nope")).toEqual([400, envelope("validation_error", "malformed_data", "Malformed request data: the body is not valid JSON")])
      expect(await post("", "/e/")).toEqual([400, envelope("validation_error", "malformed_data", "Malformed request data: the body is empty")])
      expect(await post("7")).toEqual([400, notEvents])
      expect(await post(Buffer.alloc(1024 * 1024 + 1, 32))).toEqual([
        413,
        envelope("invalid_request", "payload_too_large", "Request body is larger than the 1 MiB limit.")
      ])
      expect(await post(gzipSync(Buffer.alloc(2 * 1024 * 1024, 32)), "/batch/", { "content-encoding": "gzip" })).toEqual([
        413,
        envelope("invalid_request", "payload_too_large", "Decompressed request body is larger than the 1 MiB limit.")
      ])
      // Nothing of a refused batch is counted.
      const before = totals(await usage(flagId)).true
      await post(JSON.stringify({ api_key: token, batch: [called("beta", true), { event: "" }] }))
      expect(totals(await usage(flagId)).true).toBe(before)
    })

    it("answer recordings without reading them", async () => {
      const response = await request("POST", "/s/?compression=gzip-js", { body: "anything at all, even not gzip" })
      expect([response.status, await response.json()]).toEqual([200, { status: 1 }])
    })
  })

  describe("posthog-js's remote configuration", () => {
    it("says what this server offers, as JSON and as the script posthog-js loads, with CORS", async () => {
      const json = await request("GET", `/array/${token}/config`, { headers: { origin: "https://shop.example" } })
      expect(json.status).toBe(200)
      expect(json.headers.get("access-control-allow-origin")).toBe("https://shop.example")
      const config = await json.json()
      expect(config).toMatchObject({
        token,
        supportedCompression: ["gzip", "gzip-js", "base64", "lz64"],
        hasFeatureFlags: true,
        sessionRecording: false,
        heatmaps: false,
        autocaptureExceptions: false,
        defaultIdentifiedOnly: true,
        analytics: { endpoint: "/i/v0/e/" },
        siteApps: []
      })
      // No `surveys`: posthog-js would fetch its surveys script for `false`.
      expect(config).not.toHaveProperty("surveys")
      const script = await request("GET", `/array/${token}/config.js`)
      expect(script.status).toBe(200)
      expect(script.headers.get("content-type")).toContain("application/javascript")
      const window: { _POSTHOG_REMOTE_CONFIG?: Record<string, { config: unknown; siteApps: unknown }> } = {}
      runInNewContext(await script.text(), { window })
      const { siteApps: _, ...withoutSiteApps } = config
      expect(window._POSTHOG_REMOTE_CONFIG?.[token]).toEqual({ config: withoutSiteApps, siteApps: [] })
      const preflight = await request("OPTIONS", `/array/${token}/config.js`, { headers: { origin: "https://shop.example" } })
      expect([preflight.status, preflight.headers.get("allow")]).toEqual([204, "GET, OPTIONS"])
    })

    it("says a project without active flags has none, and answers an unknown token 404 as PostHog does", async () => {
      const otherToken = (await api(otherKey, "GET", `/api/projects/${otherProject}/`)).body.api_token
      expect((await (await request("GET", `/array/${otherToken}/config`)).json()).hasFeatureFlags).toBe(false)
      for (const path of ["/array/phc_nobody/config", "/array/phc_nobody/config.js"]) {
        const response = await request("GET", path)
        expect([path, response.status, await response.json()]).toEqual([path, 404, envelope("invalid_request", "not_found", "Not found.")])
      }
    })
  })

  describe("a flag's usage over the API", () => {
    it("answers days by values by counts, zero-filled over the range", async () => {
      await request("POST", "/batch/", { body: JSON.stringify({ api_key: token, batch: [called("beta", false), called("beta", false)] }) })
      const report = await usage(flagId, "?date_from=-6d")
      const today = new Date().toISOString().slice(0, 10)
      expect(report.days).toHaveLength(7)
      expect(report.days.at(-1)).toBe(today)
      expect(report.flag_key).toBe("beta")
      const falses = report.results.find((series: { breakdown_value: string }) => series.breakdown_value === "false")
      expect(falses.data.slice(0, 6)).toEqual([0, 0, 0, 0, 0, 0])
      expect(falses.data[6]).toBe(falses.count)
      expect(report.total).toBe(report.results.reduce((sum: number, series: { count: number }) => sum + series.count, 0))
      expect((await usage(flagId, `?date_from=${today}&date_to=${today}`)).days).toEqual([today])
    })

    it("refuses as every flag read does: 401, 403, 404 (unknown and another tenant's), then 400 for each parameter", async () => {
      const path = `/api/projects/${project}/feature_flags/${flagId}/usage/`
      const none = await request("GET", path)
      expect(none.status).toBe(401)
      expect((await api("phx_not_a_key", "GET", path)).status).toBe(401)
      expect(await api(narrowKey, "GET", path)).toEqual({
        status: 403,
        body: envelope("authentication_error", "permission_denied", "API key missing required scope 'feature_flag:read'")
      })
      const notFound = { status: 404, body: envelope("invalid_request", "not_found", "Not found.") }
      expect(await api(key, "GET", `/api/projects/${project}/feature_flags/987654/usage/`)).toEqual(notFound)
      expect(await api(key, "GET", `/api/projects/${otherProject}/feature_flags/${flagId}/usage/`)).toEqual(notFound)
      const dates = "Enter a date as YYYY-MM-DD or a relative one such as -30d, -4w or -1m."
      expect(await api(key, "GET", `${path}?date_from=yesterday`)).toEqual({ status: 400, body: envelope("validation_error", "invalid_input", dates, "date_from") })
      expect(await api(key, "GET", `${path}?date_to=2025-02-30`)).toEqual({ status: 400, body: envelope("validation_error", "invalid_input", dates, "date_to") })
      expect(await api(key, "GET", `${path}?date_from=-1d&date_to=-3d`)).toEqual({
        status: 400,
        body: envelope("validation_error", "invalid_input", "date_from must not be after date_to.", "date_from")
      })
      expect(await api(key, "GET", `${path}?date_from=-400d`)).toEqual({
        status: 400,
        body: envelope("validation_error", "invalid_input", "The range may cover at most 366 days.", "date_from")
      })
    })
  })

  describe("a flag's test evaluation, which counts no call", () => {
    const tried: Record<string, number> = {}
    let otherFlag = 0
    const tryPath = (flag: number | string, inProject = project) => `/api/projects/${inProject}/feature_flags/${flag}/test_evaluation/`
    const lastCalled = async (flag: number) => (await api(key, "GET", `/api/projects/${project}/feature_flags/${flag}/`)).body.last_called_at
    const ACME = { key: "email", type: "person", operator: "icontains", value: "@acme.com" }

    beforeAll(async () => {
      const create = async (name: string, body: Record<string, unknown>, inProject = project) =>
        (await api(key, "POST", `/api/projects/${inProject}/feature_flags/`, { key: name, ...body })).body.id as number
      tried["acme"] = await create("acme-only", { filters: { groups: [{ properties: [ACME], rollout_percentage: 100 }], payloads: { true: "{\"tier\": 1}" } } })
      tried["shade"] = await create("shade", {
        filters: {
          groups: [{ properties: [], rollout_percentage: 100 }],
          multivariate: { variants: [{ key: "red", rollout_percentage: 100 }, { key: "blue", rollout_percentage: 0 }] },
          payloads: { red: "\"#f00\"" }
        }
      })
      tried["paused"] = await create("paused", { active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      tried["gone"] = await create("gone", { filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      await api(key, "PATCH", `/api/projects/${project}/feature_flags/${tried["gone"]}/`, { deleted: true })
      otherFlag = await create("elsewhere", { filters: { groups: [{ properties: [], rollout_percentage: 100 }] } }, otherProject)
    })

    it("answers as /flags?v=2 does for the same person: value, reason and payload", async () => {
      const acme = { distinct_id: "ada", person_properties: { email: "ada@acme.com" } }
      const answer = await api(key, "POST", tryPath(tried["acme"]!), acme)
      const sdk = await request("POST", "/flags/?v=2", { body: JSON.stringify({ token, ...acme, evaluation_runtime: "all", flag_keys_to_evaluate: ["acme-only"] }) })
      expect(answer).toEqual({ status: 200, body: { flag: (await sdk.json()).flags["acme-only"], errorsWhileComputingFlags: false } })
      expect(answer.body.flag).toMatchObject({ enabled: true, variant: null, reason: { code: "condition_match", condition_index: 0 }, metadata: { payload: "{\"tier\": 1}" } })
      const elsewhere = await api(key, "POST", tryPath(tried["acme"]!), { distinct_id: "bo", person_properties: { email: "bo@elsewhere.org" } })
      expect(elsewhere.body.flag).toMatchObject({ enabled: false, reason: { code: "no_condition_match" } })
      const shade = await api(key, "POST", tryPath(tried["shade"]!), { distinct_id: "cy" })
      expect(shade.body.flag).toMatchObject({ key: "shade", enabled: true, variant: "red", metadata: { payload: "\"#f00\"" } })
    })

    it("leaves out what /flags leaves out: an inactive flag and a deleted one answer no flag", async () => {
      const none = { status: 200, body: { flag: null, errorsWhileComputingFlags: false } }
      expect(await api(key, "POST", tryPath(tried["paused"]!), { distinct_id: "ada" })).toEqual(none)
      expect(await api(key, "POST", tryPath(tried["gone"]!), { distinct_id: "ada" })).toEqual(none)
    })

    it("marks nothing as called, where /flags does", async () => {
      const shade = tried["shade"]!
      for (const distinctId of ["a", "b", "c"]) expect((await api(key, "POST", tryPath(shade), { distinct_id: distinctId })).status).toBe(200)
      expect(await lastCalled(shade)).toBeNull()
      expect((await usage(shade)).total).toBe(0)
      // The SDKs' endpoint, by contrast, marks the flags it answers.
      await request("POST", "/flags/?v=2", { body: JSON.stringify({ token, distinct_id: "a", flag_keys_to_evaluate: ["shade"] }) })
      expect(await lastCalled(shade)).not.toBeNull()
    })

    it("refuses as every flag read does: 401, 403, then 404 for an unknown id and another tenant's, before reading the body", async () => {
      const target = tryPath(tried["shade"]!)
      const none = await request("POST", target, { headers: { "content-type": "application/json" }, body: JSON.stringify({ distinct_id: "a" }) })
      expect([none.status, await none.json()]).toEqual([401, envelope("authentication_error", "not_authenticated", "Authentication credentials were not provided.")])
      expect((await api("phx_not_a_key", "POST", target, { distinct_id: "a" })).status).toBe(401)
      expect(await api(narrowKey, "POST", target, { distinct_id: "a" })).toEqual({
        status: 403,
        body: envelope("authentication_error", "permission_denied", "API key missing required scope 'feature_flag:read'")
      })
      const notFound = { status: 404, body: envelope("invalid_request", "not_found", "Not found.") }
      expect(await api(key, "POST", tryPath(987654), { distinct_id: "a" })).toEqual(notFound)
      expect(await api(key, "POST", tryPath("shade"), { distinct_id: "a" })).toEqual(notFound)
      expect(await api(key, "POST", tryPath(otherFlag), { distinct_id: "a" })).toEqual(notFound)
      expect(await api(key, "POST", tryPath(tried["shade"]!, otherProject), { distinct_id: "a" })).toEqual(notFound)
      expect(await api(key, "POST", tryPath(987654), { person_properties: "x" })).toEqual(notFound)
    })

    it("refuses a body it cannot read with 400, each rule in its words, a huge one included", async () => {
      const target = tryPath(tried["shade"]!)
      const malformed = (reason: string) => ({ status: 400, body: envelope("validation_error", "malformed_data", `Malformed request data: ${reason}`) })
      const required = { status: 400, body: envelope("validation_error", "required", "This field is required.", "distinct_id") }
      expect(await api(key, "POST", target, { person_properties: {} })).toEqual(required)
      expect(await api(key, "POST", target, { distinct_id: "" })).toEqual(required)
      expect(await api(key, "POST", target, [])).toEqual(malformed("the body must be a JSON object"))
      expect(await api(key, "POST", target, { distinct_id: true })).toEqual(malformed("distinct_id must be a string or a number"))
      expect(await api(key, "POST", target, { distinct_id: "a", person_properties: "plan" })).toEqual(malformed("person_properties must be an object"))
      expect(await api(key, "POST", target, { distinct_id: "a", groups: [] })).toEqual(malformed("groups must be an object"))
      expect(await api(key, "POST", target, { distinct_id: "a", group_properties: { company: 1 } })).toEqual(malformed("the group_properties of company must be an object"))
      const many = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`p${i}`, i]))
      expect(await api(key, "POST", target, { distinct_id: "a", person_properties: many })).toEqual(malformed("the person and group properties number more than 1000"))
      expect(await api(key, "POST", target, { distinct_id: "a", person_properties: { bio: "x".repeat(10_001) } }))
        .toEqual(malformed("the value of bio in person_properties holds more than 10000 characters"))
      const broken = await request("POST", target, { headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{\"distinct_id\":" })
      const body = await broken.json()
      expect([broken.status, body.type, body.code]).toEqual([400, "invalid_request", "parse_error"])
    })
  })

  it("puts every new path in the OpenAPI document", () => {
    const paths = Object.keys(OpenApi.fromApi(HedgerowApi).paths)
    expect(paths).toEqual(expect.arrayContaining([
      "/array/{token}/config",
      "/array/{token}/config.js",
      "/e/",
      "/i/v0/e/",
      "/batch/",
      "/capture/",
      "/track/",
      "/engage/",
      "/s/",
      "/api/projects/{project_id}/feature_flags/{id}/usage/",
      "/api/projects/{project_id}/feature_flags/{id}/test_evaluation/"
    ]))
  })
})
