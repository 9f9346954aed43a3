import { Bootstrap, PersonalApiKeyService, systemActor } from "@hedgerow/core"
import { HedgerowApi } from "@hedgerow/api"
import { Effect, ManagedRuntime } from "effect"
import { HttpServer } from "effect/http"
import { OpenApi } from "effect/http-api"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/**
 * `{id}/test_evaluation/` over real HTTP: a flag evaluated for a person as `/flags?v=2` answers it,
 * without the flag being marked as called, and each refusal with its envelope.
 */
describe("a flag's test evaluation", () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let base = ""
  let key = ""
  let narrowKey = ""
  let token = ""
  let project = 0
  let otherProject = 0
  let otherFlag = 0
  const flags: Record<string, number> = {}

  const api = async (k: string | undefined, method: string, path: string, body?: unknown, raw?: string) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...(k === undefined ? {} : { authorization: `Bearer ${k}` }), "content-type": "application/json" },
      body: raw ?? (body === undefined ? null : JSON.stringify(body))
    })
    return { status: response.status, body: await response.json() }
  }
  const path = (flag: number | string, inProject = project) => `/api/projects/${inProject}/feature_flags/${flag}/test_evaluation/`
  const envelope = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr })
  const lastCalled = async (flag: number) => (await api(key, "GET", `/api/projects/${project}/feature_flags/${flag}/`)).body.last_called_at

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
    const create = async (name: string, body: Record<string, unknown>, inProject = project) =>
      (await api(key, "POST", `/api/projects/${inProject}/feature_flags/`, { key: name, ...body })).body.id as number
    flags["acme"] = await create("acme-only", {
      filters: { groups: [{ properties: [{ key: "email", type: "person", operator: "icontains", value: "@acme.com" }], rollout_percentage: 100 }], payloads: { true: "{\"tier\": 1}" } }
    })
    flags["colour"] = await create("colour", {
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "red", rollout_percentage: 100 }, { key: "blue", rollout_percentage: 0 }] },
        payloads: { red: "\"#f00\"" }
      }
    })
    flags["paused"] = await create("paused", { active: false, filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    flags["gone"] = await create("gone", { filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    await api(key, "PATCH", `/api/projects/${project}/feature_flags/${flags["gone"]}/`, { deleted: true })
    const other = await api(key, "POST", "/api/organizations/", { name: "Elsewhere" })
    otherProject = (await api(key, "GET", `/api/organizations/${other.body.id}/projects/`)).body.results[0].id
    otherFlag = await create("elsewhere", { filters: { groups: [{ properties: [], rollout_percentage: 100 }] } }, otherProject)
  })
  afterAll(async () => {
    await runtime?.dispose()
  })

  it("answers as /flags?v=2 does for the same person: value, reason and payload", async () => {
    const acme = { distinct_id: "ada", person_properties: { email: "ada@acme.com" } }
    const answer = await api(key, "POST", path(flags["acme"]!), acme)
    const sdk = await fetch(`${base}/flags/?v=2`, { method: "POST", body: JSON.stringify({ token, ...acme, evaluation_runtime: "all", flag_keys_to_evaluate: ["acme-only"] }) })
    expect(answer).toEqual({ status: 200, body: { flag: (await sdk.json()).flags["acme-only"], errorsWhileComputingFlags: false } })
    expect(answer.body.flag).toMatchObject({ enabled: true, variant: null, reason: { code: "condition_match", condition_index: 0 }, metadata: { payload: "{\"tier\": 1}" } })

    const elsewhere = await api(key, "POST", path(flags["acme"]!), { distinct_id: "bo", person_properties: { email: "bo@elsewhere.org" } })
    expect(elsewhere.body.flag).toMatchObject({ enabled: false, reason: { code: "no_condition_match" } })
    const colour = await api(key, "POST", path(flags["colour"]!), { distinct_id: "cy" })
    expect(colour.body.flag).toMatchObject({ key: "colour", enabled: true, variant: "red", metadata: { payload: "\"#f00\"" } })
  })

  it("leaves out what /flags leaves out: an inactive flag and a deleted one answer no flag", async () => {
    expect(await api(key, "POST", path(flags["paused"]!), { distinct_id: "ada" })).toEqual({ status: 200, body: { flag: null, errorsWhileComputingFlags: false } })
    expect(await api(key, "POST", path(flags["gone"]!), { distinct_id: "ada" })).toEqual({ status: 200, body: { flag: null, errorsWhileComputingFlags: false } })
  })

  it("marks nothing as called, where /flags does", async () => {
    const colour = flags["colour"]!
    for (const distinctId of ["a", "b", "c"]) expect((await api(key, "POST", path(colour), { distinct_id: distinctId })).status).toBe(200)
    expect(await lastCalled(colour)).toBeNull()
    const usage = await api(key, "GET", `/api/projects/${project}/feature_flags/${colour}/usage/`)
    expect(usage.body.total).toBe(0)
    // The SDKs' endpoint, by contrast, marks the flags it answers.
    await fetch(`${base}/flags/?v=2`, { method: "POST", body: JSON.stringify({ token, distinct_id: "a", flag_keys_to_evaluate: ["colour"] }) })
    expect(await lastCalled(colour)).not.toBeNull()
  })

  it("refuses as every flag read does: 401, 403, then 404 for an unknown id and another tenant's", async () => {
    const target = path(flags["colour"]!)
    const none = await api(undefined, "POST", target, { distinct_id: "a" })
    expect(none).toEqual({ status: 401, body: envelope("authentication_error", "not_authenticated", "Authentication credentials were not provided.") })
    expect((await api("phx_not_a_key", "POST", target, { distinct_id: "a" })).status).toBe(401)
    expect(await api(narrowKey, "POST", target, { distinct_id: "a" })).toEqual({
      status: 403,
      body: envelope("authentication_error", "permission_denied", "API key missing required scope 'feature_flag:read'")
    })
    const notFound = { status: 404, body: envelope("invalid_request", "not_found", "Not found.") }
    expect(await api(key, "POST", path(987654), { distinct_id: "a" })).toEqual(notFound)
    expect(await api(key, "POST", path("colour"), { distinct_id: "a" })).toEqual(notFound)
    expect(await api(key, "POST", path(otherFlag), { distinct_id: "a" })).toEqual(notFound)
    expect(await api(key, "POST", path(flags["colour"]!, otherProject), { distinct_id: "a" })).toEqual(notFound)
    // The lookup comes before the body: a bad body to a flag that is not there is still 404.
    expect(await api(key, "POST", path(987654), { person_properties: "x" })).toEqual(notFound)
  })

  it("refuses a body it cannot read with 400, each rule in its words, and a huge one without evaluating it", async () => {
    const target = path(flags["colour"]!)
    const malformed = (reason: string) => ({ status: 400, body: envelope("validation_error", "malformed_data", `Malformed request data: ${reason}`) })
    expect(await api(key, "POST", target, { person_properties: {} })).toEqual({
      status: 400,
      body: envelope("validation_error", "required", "This field is required.", "distinct_id")
    })
    expect(await api(key, "POST", target, { distinct_id: "" })).toEqual({
      status: 400,
      body: envelope("validation_error", "required", "This field is required.", "distinct_id")
    })
    expect(await api(key, "POST", target, [])).toEqual(malformed("the body must be a JSON object"))
    expect(await api(key, "POST", target, { distinct_id: true })).toEqual(malformed("distinct_id must be a string or a number"))
    expect(await api(key, "POST", target, { distinct_id: "a", person_properties: "plan" })).toEqual(malformed("person_properties must be an object"))
    expect(await api(key, "POST", target, { distinct_id: "a", groups: [] })).toEqual(malformed("groups must be an object"))
    expect(await api(key, "POST", target, { distinct_id: "a", group_properties: { company: 1 } })).toEqual(malformed("the group_properties of company must be an object"))
    const many = Object.fromEntries(Array.from({ length: 1_001 }, (_, i) => [`p${i}`, i]))
    expect(await api(key, "POST", target, { distinct_id: "a", person_properties: many })).toEqual(malformed("the person and group properties number more than 1000"))
    const long = { distinct_id: "a", person_properties: { bio: "x".repeat(10_001) } }
    expect(await api(key, "POST", target, long)).toEqual(malformed("the value of bio in person_properties holds more than 10000 characters"))
    const broken = await api(key, "POST", target, undefined, "{\"distinct_id\":")
    expect([broken.status, broken.body.type, broken.body.code]).toEqual([400, "invalid_request", "parse_error"])
  })

  it("is in the OpenAPI document", () => {
    expect(Object.keys(OpenApi.fromApi(HedgerowApi).paths)).toContain("/api/projects/{project_id}/feature_flags/{id}/test_evaluation/")
  })
})
