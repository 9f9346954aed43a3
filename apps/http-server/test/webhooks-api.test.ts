import {
  Authentication,
  bodyOf,
  Bootstrap,
  MemberService,
  OrganizationService,
  PersonalApiKeyService,
  ProjectService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { forEachBackend } from "@hedgerow/store/testing"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

/** A public address given as such, so no test depends on DNS, and no delivery is made to it. */
const RECEIVER = "http://93.184.215.14/hooks"
const UNKNOWN = "00000000-0000-4000-8000-000000000000"

const envelope = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr })
const NOT_FOUND = envelope("invalid_request", "not_found", "Not found.")
const invalid = (attr: string | null, detail: string, code = "invalid_input") => envelope("validation_error", code, detail, attr)
const PRIVATE = invalid(
  "url",
  "This URL points at a loopback, link-local or private address, which webhooks may not reach on this server.",
  "private_address"
)

forEachBackend((backend) => describe(`the webhook endpoints on ${backend.name}`, () => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  const keys = { owner: "", member: "", flagsOnly: "", readOnly: "", ownerB: "" }
  let project = 0
  let projectB = 0
  let theirs = ""

  beforeAll(async () => {
    const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "false" } }), { asPrimary: true })
    runtime = ManagedRuntime.make(backend.on((store) => HedgerowServer.layer({ port: 0, host: "127.0.0.1", store })).pipe(Layer.provide(config)))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    await runtime.runPromise(Effect.gen(function*() {
      const boot = yield* Bootstrap.use((b) => b.run({ email: "owner@a.example" }))
      project = boot.project_id
      keys.owner = boot.personal_api_key
      const key = (email: string, scopes: ReadonlyArray<string>) =>
        PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes })).pipe(Effect.map((k) => k.personal_api_key))
      yield* UserService.use((s) => s.create(systemActor, { email: "member@a.example" }))
      yield* MemberService.use((s) => s.add(systemActor, boot.organization_id, { email: "member@a.example", level: 1 }))
      keys.member = yield* key("member@a.example", ["*"])
      keys.flagsOnly = yield* key("owner@a.example", ["feature_flag:write"])
      keys.readOnly = yield* key("owner@a.example", ["webhook:read"])
      const orgB = yield* OrganizationService.use((s) => s.create(systemActor, { name: "Beta" }))
      yield* UserService.use((s) => s.create(systemActor, { email: "owner@b.example" }))
      yield* MemberService.use((s) => s.add(systemActor, orgB.id, { email: "owner@b.example", level: 15 }))
      keys.ownerB = yield* key("owner@b.example", ["*"])
      const actorB = yield* Authentication.use((a) => a.authenticate(keys.ownerB))
      projectB = (yield* ProjectService.use((s) => s.create(actorB, orgB.id, bodyOf({ name: "Beta project" })))).id
    }))
    const created = await call("POST", `/api/projects/${projectB}/webhooks/`, keys.ownerB, { url: RECEIVER })
    expect(created.status).toBe(201)
    theirs = created.body.id
  })
  afterAll(() => runtime.dispose())

  const call = async (method: string, path: string, key: string | undefined, body?: unknown, raw?: string) => {
    const headers: Record<string, string> = { "content-type": "application/json" }
    if (key !== undefined) headers["authorization"] = `Bearer ${key}`
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      ...(raw !== undefined ? { body: raw } : body === undefined || method === "GET" ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    return { status: response.status, body: text === "" ? null : JSON.parse(text) }
  }
  const hooks = (p: number | string = project) => `/api/projects/${p}/webhooks/`
  const create = (body: unknown) => call("POST", hooks(), keys.owner, body)

  it("creates a webhook, shows its secret once, and lists, reads, changes and removes it", async () => {
    const created = await create({ url: RECEIVER, events: ["feature_flag.updated", "feature_flag.updated"], description: " Deploys " })
    expect(created.status).toBe(201)
    const { id, secret, created_at, updated_at, ...rest } = created.body
    expect(rest).toEqual({ project_id: project, url: RECEIVER, description: "Deploys", events: ["feature_flag.updated"], enabled: true })
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/)
    expect(created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)

    const read = await call("GET", `${hooks()}${id}/`, keys.readOnly)
    expect(read).toEqual({ status: 200, body: { id, ...rest, created_at, updated_at } })
    expect(JSON.stringify(read.body)).not.toContain(secret)

    const listed = await call("GET", hooks(), keys.owner)
    expect(listed.status).toBe(200)
    expect(listed.body.results.map((hook: { id: string }) => hook.id)).toContain(id)
    expect(JSON.stringify(listed.body)).not.toContain("whsec_")

    const changed = await call("PATCH", `${hooks()}${id}/`, keys.owner, { enabled: false, events: ["*"], url: "https://93.184.215.14:8443/x?y=1" })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ id, enabled: false, events: ["*"], url: "https://93.184.215.14:8443/x?y=1", description: "Deploys" })
    expect(changed.body).not.toHaveProperty("secret")

    const given = `whsec_${Buffer.alloc(32, 7).toString("base64")}`
    const ownSecret = await create({ url: RECEIVER, secret: given, enabled: "false" })
    expect(ownSecret.status).toBe(201)
    expect(ownSecret.body).toMatchObject({ secret: given, enabled: false, events: ["*"] })

    expect(await call("GET", `${hooks()}${id}/deliveries/`, keys.readOnly)).toEqual({
      status: 200,
      body: { count: 0, next: null, previous: null, results: [] }
    })
    expect(await call("DELETE", `${hooks()}${id}/`, keys.owner)).toEqual({ status: 204, body: null })
    expect(await call("GET", `${hooks()}${id}/`, keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
  })

  it("answers 401 without a key or with an unknown one", async () => {
    const missing = envelope("authentication_error", "not_authenticated", "Authentication credentials were not provided.")
    const bad = envelope("authentication_error", "authentication_failed", "Personal API key found in request Authorization header is invalid.")
    for (const [method, path] of [["GET", hooks()], ["POST", hooks()], ["GET", `${hooks()}${UNKNOWN}/deliveries/`], ["POST", `${hooks()}${UNKNOWN}/test/`]] as const) {
      expect(await call(method, path, undefined, { url: RECEIVER })).toEqual({ status: 401, body: missing })
      expect(await call(method, path, "phx_unknown", { url: RECEIVER })).toEqual({ status: 401, body: bad })
    }
  })

  it("answers 403 without the webhook scopes, and to members below administrator on writes", async () => {
    const missing = (scope: string) => envelope("authentication_error", "permission_denied", `API key missing required scope '${scope}'`)
    expect(await call("GET", hooks(), keys.flagsOnly)).toEqual({ status: 403, body: missing("webhook:read") })
    expect(await call("GET", `${hooks()}${UNKNOWN}/deliveries/`, keys.flagsOnly)).toEqual({ status: 403, body: missing("webhook:read") })
    for (const key of [keys.flagsOnly, keys.readOnly]) {
      expect(await call("POST", hooks(), key, { url: RECEIVER })).toEqual({ status: 403, body: missing("webhook:write") })
      expect(await call("PATCH", `${hooks()}${UNKNOWN}/`, key, {})).toEqual({ status: 403, body: missing("webhook:write") })
      expect(await call("DELETE", `${hooks()}${UNKNOWN}/`, key)).toEqual({ status: 403, body: missing("webhook:write") })
      expect(await call("POST", `${hooks()}${UNKNOWN}/test/`, key)).toEqual({ status: 403, body: missing("webhook:write") })
    }
    const level = envelope("authentication_error", "permission_denied", "Your organization access level is insufficient.")
    expect(await call("POST", hooks(), keys.member, { url: RECEIVER })).toEqual({ status: 403, body: level })
    expect(await call("POST", `${hooks()}${UNKNOWN}/test/`, keys.member)).toEqual({ status: 403, body: level })
    // Members read them.
    expect((await call("GET", hooks(), keys.member)).status).toBe(200)
  })

  it("answers 404 for unknown, malformed and other tenants' webhooks and projects", async () => {
    for (const id of [UNKNOWN, "nope", "1", theirs]) {
      expect(await call("GET", `${hooks()}${id}/`, keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
      expect(await call("PATCH", `${hooks()}${id}/`, keys.owner, { enabled: false })).toEqual({ status: 404, body: NOT_FOUND })
      expect(await call("DELETE", `${hooks()}${id}/`, keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
      expect(await call("GET", `${hooks()}${id}/deliveries/`, keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
      expect(await call("POST", `${hooks()}${id}/test/`, keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
    }
    for (const other of [projectB, 999999]) {
      expect(await call("GET", hooks(other), keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
      expect(await call("POST", hooks(other), keys.owner, { url: RECEIVER })).toEqual({ status: 404, body: NOT_FOUND })
      expect(await call("GET", `${hooks(other)}${theirs}/`, keys.owner)).toEqual({ status: 404, body: NOT_FOUND })
    }
    // Still there for its own tenant.
    expect((await call("GET", `${hooks(projectB)}${theirs}/`, keys.ownerB)).status).toBe(200)
  })

  it("refuses a webhook past the project's 50, concurrent creations included", async () => {
    const path = hooks(projectB)
    const have = (await call("GET", path, keys.ownerB)).body.count
    const replies = await Promise.all(Array.from({ length: 52 - have }, () => call("POST", path, keys.ownerB, { url: RECEIVER })))
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(50 - have)
    const refused = replies.filter((reply) => reply.status !== 201)
    expect(refused).toEqual([0, 1].map(() => ({ status: 400, body: invalid(null, "A project can have at most 50 webhooks.", "max_webhooks") })))
    expect((await call("GET", path, keys.ownerB)).body.count).toBe(50)
    const one = replies.find((reply) => reply.status === 201)!.body.id
    expect((await call("DELETE", `${path}${one}/`, keys.ownerB)).status).toBe(204)
    expect((await call("POST", path, keys.ownerB, { url: RECEIVER })).status).toBe(201)
  })

  it("answers 400 for each rule of the body, writing nothing", async () => {
    const before = (await call("GET", hooks(), keys.owner)).body.count
    const cases: ReadonlyArray<readonly [unknown, unknown]> = [
      [{}, invalid("url", "This field is required.", "required")],
      [{ url: "" }, invalid("url", "This field may not be blank.", "blank")],
      [{ url: `http://93.184.215.14/${"a".repeat(2000)}` }, invalid("url", "Ensure this field has no more than 2000 characters.", "max_length")],
      [{ url: "not a url" }, invalid("url", "Enter a valid URL.", "invalid")],
      [{ url: "ftp://93.184.215.14/" }, invalid("url", "Only http and https URLs are accepted.", "invalid")],
      [{ url: "http://user:pw@93.184.215.14/" }, invalid("url", "A URL with a user name or password is not accepted.", "invalid")],
      [{ url: "http://nowhere.invalid/" }, invalid("url", "This URL's host could not be resolved.", "invalid")],
      [{ url: RECEIVER, events: [] }, invalid("events", "This list may not be empty.", "empty")],
      [{ url: RECEIVER, events: ["flag.everything"] }, invalid("events__0", "\"flag.everything\" is not a valid choice.", "invalid_choice")],
      [{ url: RECEIVER, events: new Array(12).fill("*") }, invalid("events", "Ensure this field has no more than 11 elements.", "max_length")],
      [{ url: RECEIVER, enabled: "maybe" }, invalid("enabled", "Must be a valid boolean.")],
      [{ url: RECEIVER, description: "d".repeat(401) }, invalid("description", "Ensure this field has no more than 400 characters.", "max_length")]
    ]
    const badSecret = invalid("secret", "Enter a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes.")
    const secrets = ["plain", "whsec_", `whsec_${Buffer.alloc(16).toString("base64")}`, `whsec_${Buffer.alloc(65).toString("base64")}`, "whsec_!!!!"]
    const privates = [
      "http://127.0.0.1/", "http://localhost:8080/", "http://[::1]/", "http://2130706433/", "http://0x7f.1/",
      "http://[::ffff:127.0.0.1]/", "http://169.254.169.254/latest/meta-data/", "http://10.1.2.3/", "http://172.16.0.1/",
      "http://192.168.1.1/", "http://100.64.0.1/", "http://0.0.0.0/", "http://224.0.0.1/", "http://[fd00::1]/",
      "http://[fe80::1]/", "http://[::]/", "http://[ff02::1]/", "https://[64:ff9b::7f00:1]/"
    ]
    for (const [body, error] of [
      ...cases,
      ...secrets.map((secret) => [{ url: RECEIVER, secret }, badSecret] as const),
      ...privates.map((address) => [{ url: address }, PRIVATE] as const)
    ]) {
      expect([body, await create(body)]).toEqual([body, { status: 400, body: error }])
    }
    expect(await call("POST", hooks(), keys.owner, undefined, "{\"url\": ")).toMatchObject({ status: 400, body: { code: "parse_error" } })
    expect((await call("POST", hooks(), keys.owner, undefined, JSON.stringify({ url: RECEIVER, description: "x".repeat(2 * 1024 * 1024) }))).status).toBe(413)

    const hook = (await create({ url: RECEIVER })).body
    expect(await call("PATCH", `${hooks()}${hook.id}/`, keys.owner, { url: "http://[::1]:9/" })).toEqual({ status: 400, body: PRIVATE })
    expect(await call("PATCH", `${hooks()}${hook.id}/`, keys.owner, { events: [] })).toEqual({
      status: 400,
      body: invalid("events", "This list may not be empty.", "empty")
    })
    expect(await call("PATCH", `${hooks()}${hook.id}/`, keys.owner, { secret: "nope" })).toEqual({ status: 400, body: badSecret })
    // The test action reads its optional body after the webhook is found, and refuses a malformed one.
    expect(await call("POST", `${hooks()}${hook.id}/test/`, keys.owner, undefined, "{bad")).toMatchObject({ status: 400, body: { code: "parse_error" } })
    expect(await call("POST", `${hooks()}${UNKNOWN}/test/`, keys.owner, undefined, "{bad")).toEqual({ status: 404, body: NOT_FOUND })
    expect((await call("GET", `${hooks()}${hook.id}/deliveries/`, keys.owner)).body.count).toBe(0)
    expect(await call("GET", `${hooks()}${hook.id}/`, keys.owner)).toMatchObject({ status: 200, body: { url: RECEIVER, events: ["*"] } })
    expect((await call("GET", hooks(), keys.owner)).body.count).toBe(before + 1)
  })
}))
