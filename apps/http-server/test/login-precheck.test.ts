import { Bootstrap, bodyOf, DomainService, systemActor, UserService } from "@hedgerow/core"
import { Effect, type Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

const OWNER = "owner@example.com"
const PASSWORD = "owner's long password"
const DOMAIN = "enforced.example.com"
const SAML = { saml_entity_id: "https://idp.example.com/metadata", saml_acs_url: "https://idp.example.com/sso", saml_x509_cert: "MIIC" }

type ServerLayer = ReturnType<typeof HedgerowServer.layer>

const envelope = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr })
const invalid = (attr: string | null, detail: string, code = "invalid_input") => envelope("validation_error", code, detail, attr)

/**
 * `POST /api/login/precheck/` over real HTTP: open to anyone, the same answer for users and strangers,
 * PostHog's 400s for each e-mail rule, a session's CSRF rule, and hostile bodies answered at once.
 */
describe("the log-in precheck", () => {
  let runtime: ManagedRuntime.ManagedRuntime<Layer.Success<ServerLayer>, Layer.Error<ServerLayer>>
  let url = ""
  let organization = ""

  beforeAll(async () => {
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, log: { level: "none", format: "text" } }))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({ email: OWNER })))
    organization = boot.organization_id
    await runtime.runPromise(UserService.use((s) => s.create(systemActor, { email: `member@${DOMAIN}` })))
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
    // A verified domain (as the DNS check would make it) with SAML set up and enforced.
    const domain = await runtime.runPromise(DomainService.use((s) => s.create(systemActor, organization, bodyOf({ domain: DOMAIN }))))
    await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE domains SET verified_at = now() WHERE id = ${domain.id}`))
    await runtime.runPromise(DomainService.use((s) => s.update(systemActor, organization, domain.id, bodyOf({ ...SAML, sso_enforcement: "saml" }))))
  })
  afterAll(() => runtime.dispose())

  const precheck = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}/api/login/precheck/`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
  const answer = async (response: Response) => ({ status: response.status, body: await response.json() })

  it("answers for the e-mail's domain alone: a user and a stranger of the domain alike, and nothing for other domains", async () => {
    const enforced = { status: 200, body: { sso_enforcement: "saml", saml_available: true } }
    for (const email of [`member@${DOMAIN}`, `stranger@${DOMAIN}`, `Member@${DOMAIN.toUpperCase()}`]) {
      expect(await answer(await precheck(JSON.stringify({ email })))).toEqual(enforced)
    }
    const nothing = { status: 200, body: { sso_enforcement: null, saml_available: false } }
    for (const email of [OWNER, "nobody@example.com", `someone@sub.${DOMAIN}`]) {
      expect(await answer(await precheck(JSON.stringify({ email })))).toEqual(nothing)
    }
    // Without its trailing slash too, as every path.
    const bare = await fetch(`${url}/api/login/precheck`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: `member@${DOMAIN}` })
    })
    expect(await answer(bare)).toEqual(enforced)
  })

  it("is in the OpenAPI document as a POST that needs no credentials", async () => {
    const spec = await (await fetch(`${url}/api/schema/`)).json()
    const post = spec.paths["/api/login/precheck/"]?.post
    expect(post.security ?? []).toEqual([])
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(["200", "400", "403", "413"]))
  })

  it("refuses each broken rule with PostHog's 400, and any body that is no JSON object", async () => {
    const cases: ReadonlyArray<readonly [string, ReturnType<typeof invalid>]> = [
      ["{}", invalid("email", "This field is required.", "required")],
      [`{"email": null}`, invalid("email", "This field may not be null.", "null")],
      [`{"email": " "}`, invalid("email", "This field may not be blank.", "blank")],
      [`{"email": "nobody"}`, invalid("email", "Enter a valid email address.")],
      [`{"email": ["a@b.co"]}`, invalid("email", "Not a valid string.")],
      [JSON.stringify({ email: `${"a".repeat(243)}@example.com` }), invalid("email", "Ensure this field has no more than 254 characters.", "max_length")],
      [`[{"email": "a@b.co"}]`, invalid(null, "Invalid data. Expected a dictionary, but got list.")]
    ]
    for (const [body, error] of cases) expect(await answer(await precheck(body))).toEqual({ status: 400, body: error })
    const malformed = await answer(await precheck(`{"email": `))
    expect(malformed.status).toBe(400)
    expect([malformed.body.type, malformed.body.code, malformed.body.attr]).toEqual(["invalid_request", "parse_error", null])
  })

  it("answers hostile bodies at once: a 1 MiB e-mail is 400, a larger body 413, and neither holds the server", async () => {
    const started = performance.now()
    const huge = JSON.stringify({ email: `${"a.".repeat(262_000)}@example.com` })
    expect(await answer(await precheck(huge))).toEqual({
      status: 400,
      body: invalid("email", "Ensure this field has no more than 254 characters.", "max_length")
    })
    expect(await answer(await precheck(JSON.stringify({ email: "x".repeat(2 * 1024 * 1024) })))).toEqual({
      status: 413,
      body: envelope("invalid_request", "payload_too_large", "Request body is larger than the 1 MiB limit.")
    })
    expect(performance.now() - started).toBeLessThan(2000)
  })

  it("needs no credentials, and a logged-in browser's CSRF token like every session write", async () => {
    const login = await fetch(`${url}/api/login/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: OWNER, password: PASSWORD })
    })
    expect(login.status).toBe(200)
    const cookies = login.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!)
    const token = cookies.find((cookie) => cookie.startsWith("posthog_csrftoken="))!.split("=")[1]!
    const body = JSON.stringify({ email: `member@${DOMAIN}` })
    expect(await answer(await precheck(body, { cookie: cookies.join("; ") }))).toEqual({
      status: 403,
      body: envelope("authentication_error", "permission_denied", "CSRF Failed: CSRF token missing.")
    })
    expect((await precheck(body, { cookie: cookies.join("; "), "x-csrftoken": token })).status).toBe(200)
    // The log-in itself is refused for the enforcing domain, before any password: a stranger alike.
    for (const email of [`member@${DOMAIN}`, `stranger@${DOMAIN}`]) {
      const refused = await fetch(`${url}/api/login/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email, password: "whatever it is" })
      })
      expect(await answer(refused)).toEqual({
        status: 400,
        body: invalid(null, "You can only login with SSO for this account (saml).", "sso_enforced")
      })
    }
  })
})
