import { Bootstrap, InviteService, bodyOf, systemActor, UserService } from "@hedgerow/core"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import { siteFromConfig } from "../src/settings/site.ts"

const SITE = "https://hedgerow.example.com"
const OWNER = "owner@example.com"
const PASSWORD = "owner's long password"

/**
 * A server behind a trusted proxy (so each request may name its client's address) on an https site,
 * logging every request in JSON to `written`.
 */
describe("sessions on a server behind a proxy, on an https site", () => {
  const written: Array<string> = []
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  let key = ""
  let organization = ""

  beforeAll(async () => {
    const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_SITE_URL: `${SITE}/`, HEDGEROW_TRUST_PROXY: "true" } }), {
      asPrimary: true
    })
    runtime = ManagedRuntime.make(HedgerowServer.layer({
      port: 0,
      host: "127.0.0.1",
      store: {},
      log: { level: "info", format: "json", sink: (text) => void written.push(text) }
    }).pipe(Layer.provide(config)))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    const boot = await runtime.runPromise(Bootstrap.use((b) => b.run({ email: OWNER })))
    key = boot.personal_api_key
    organization = boot.organization_id
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
  })
  afterAll(() => runtime.dispose())

  const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(body) })
  const login = (email: string, password: string, address: string) =>
    post("/api/login/", { email, password }, { "x-forwarded-for": address })
  const cookieOf = (response: Response, name: string) =>
    response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))

  it("sets both cookies Secure, and takes writes whose Origin is the site's", async () => {
    const reply = await login(OWNER, PASSWORD, "198.51.100.1")
    expect(reply.status).toBe(200)
    const session = cookieOf(reply, "sessionid")!
    const token = cookieOf(reply, "posthog_csrftoken")!
    expect(session).toMatch(/; HttpOnly/)
    expect(session).toMatch(/; Secure/)
    expect(token).toMatch(/; Secure/)
    expect(token).not.toMatch(/HttpOnly/)
    const cookie = `${session.split(";")[0]}; ${token.split(";")[0]}`
    const csrf = token.split(";")[0]!.split("=")[1]!
    const invite = (origin: string) =>
      post(`/api/organizations/${organization}/invites/`, { target_email: `${origin.length}@example.com`, send_email: false }, {
        cookie,
        "x-csrftoken": csrf,
        origin
      })
    expect((await invite(SITE)).status).toBe(201)
    expect((await invite("https://other.example.com")).status).toBe(403)
  })

  it("lets a log-in older than two hours change only the harmless fields of the user, PostHog's time-sensitive rule", async () => {
    const reply = await login(OWNER, PASSWORD, "198.51.100.7")
    expect(reply.status).toBe(200)
    const session = cookieOf(reply, "sessionid")!.split(";")[0]!
    const token = cookieOf(reply, "posthog_csrftoken")!.split(";")[0]!
    const patchMe = (body: unknown) =>
      fetch(`${url}/api/users/@me/`, {
        method: "PATCH",
        headers: { "content-type": "application/json", cookie: `${session}; ${token}`, "x-csrftoken": token.split("=")[1]!, origin: SITE },
        body: JSON.stringify(body)
      })
    const change = { current_password: PASSWORD, password: PASSWORD }
    // Fresh, the change goes through.
    expect((await patchMe(change)).status).toBe(200)

    // Three hours old: refused, whatever else the body holds; the harmless fields alone still pass.
    await runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql`UPDATE sessions SET created_at = now() - interval '3 hours'`))
    const stale = await patchMe(change)
    expect(stale.status).toBe(403)
    expect(await stale.json()).toEqual({
      type: "authentication_error",
      code: "permission_denied",
      detail: "This action requires you to be recently authenticated.",
      attr: null
    })
    expect((await patchMe({ theme_mode: "dark", password: PASSWORD })).status).toBe(403)
    expect((await patchMe({})).status).toBe(403)
    expect((await patchMe({ theme_mode: "dark" })).status).toBe(200)
    // A key is no log-in: it is never too old.
    const byKey = await fetch(`${url}/api/users/@me/`, {
      method: "PATCH",
      headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
      body: JSON.stringify(change)
    })
    expect(byKey.status).toBe(200)
  })

  it("locks an e-mail out after 30 failures from anywhere, and an address after 30 failures for any e-mails", async () => {
    const LOCKED = {
      type: "authentication_error",
      code: "too_many_failed_attempts",
      detail: "Too many failed login attempts. Please try again in 10 minutes.",
      attr: null
    }
    await runtime.runPromise(UserService.use((s) => s.create(systemActor, { email: "target@example.com" })))
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: "target@example.com", password: PASSWORD })))
    for (let i = 0; i < 30; i++) {
      const failed = await login("target@example.com", `guess ${i}`, `203.0.113.${i}`)
      expect(failed.status).toBe(400)
    }
    // The right password, from a new address: the e-mail is locked out.
    const locked = await login("target@example.com", PASSWORD, "203.0.113.200")
    expect({ status: locked.status, body: await locked.json() }).toEqual({ status: 403, body: LOCKED })
    expect(locked.headers.getSetCookie()).toEqual([])

    for (let i = 0; i < 30; i++) {
      expect((await login(`nobody${i}@example.com`, "guess", "192.0.2.99")).status).toBe(400)
    }
    const fromAddress = await login(OWNER, PASSWORD, "192.0.2.99")
    expect({ status: fromAddress.status, body: await fromAddress.json() }).toEqual({ status: 403, body: LOCKED })
    expect((await login(OWNER, PASSWORD, "192.0.2.100")).status).toBe(200)
  }, 120_000)

  it("never writes a password, a session id or a CSRF token to a log line or an error body", async () => {
    const secrets: Array<string> = [PASSWORD, "wrong password 123", "teammate's password"]
    const bodies: Array<string> = []
    const keep = async (response: Response) => {
      bodies.push(await response.text())
      for (const cookie of response.headers.getSetCookie()) secrets.push(cookie.split(";")[0]!.split("=")[1]!)
      return response
    }
    await keep(await login(OWNER, "wrong password 123", "198.51.100.2"))
    await keep(await post("/api/login/", { email: OWNER, password: ["wrong password 123"] }))
    const owner = await keep(await login(OWNER, PASSWORD, "198.51.100.2"))
    const cookie = owner.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ")
    const csrf = cookieOf(owner, "posthog_csrftoken")!.split(";")[0]!.split("=")[1]!
    const invite = await runtime.runPromise(
      InviteService.use((s) => s.create(systemActor, organization, bodyOf({ target_email: "teammate@example.com", send_email: false })))
    )
    await keep(await post(`/api/signup/${invite.id}/`, { first_name: "Tess", password: "short" }))
    await keep(await post(`/api/signup/${invite.id}/`, { first_name: "Tess", password: "teammate's password" }))
    const patch = (body: unknown) =>
      fetch(`${url}/api/users/@me/`, {
        method: "PATCH",
        headers: { "content-type": "application/json", cookie, "x-csrftoken": csrf },
        body: JSON.stringify(body)
      })
    await keep(await patch({ current_password: "wrong password 123", password: "wrong password 123" }))
    await keep(await patch({ password: "short" }))
    await keep(await fetch(`${url}/api/users/@me/`, { headers: { cookie } }))
    await keep(await fetch(`${url}/api/logout/`, { method: "POST", headers: { cookie } }))
    await new Promise((resolve) => setImmediate(resolve))

    const log = written.join("")
    expect(log).toContain("/api/login/")
    expect(log).toContain("/api/signup/:invite_id/")
    for (const secret of secrets) {
      expect(log).not.toContain(secret)
      for (const body of bodies) expect(body).not.toContain(secret)
    }
    expect(log).not.toContain(key)
  })
})

describe("HEDGEROW_SITE_URL", () => {
  const read = (value: string | undefined) =>
    Effect.runPromise(siteFromConfig.pipe(
      Effect.provideService(ConfigProvider.ConfigProvider, ConfigProvider.fromEnv({ env: value === undefined ? {} : { HEDGEROW_SITE_URL: value } })),
      Effect.match({ onFailure: (error) => error._tag, onSuccess: (site) => site.url })
    ))
  it("is kept without its trailing slash, defaults to the local server, and refuses what is no http(s) URL", async () => {
    expect(await read("https://flags.example.com/")).toBe("https://flags.example.com")
    expect(await read("https://example.com/hedgerow/")).toBe("https://example.com/hedgerow")
    expect(await read(undefined)).toBe("http://127.0.0.1:8000")
    for (const bad of ["flags.example.com", "ftp://example.com", "https://user:pw@example.com", "https://example.com/?a=1"]) {
      expect(await read(bad)).toBe("SiteConfigError")
    }
  })
})
