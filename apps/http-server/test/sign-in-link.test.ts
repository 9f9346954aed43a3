import { Bootstrap, SignInLinkService, systemActor, totpCode, UserService } from "@hedgerow/core"
import { TwoFactorRepository } from "@hedgerow/core/ports"
import { ConfigProvider, Effect, Layer, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"

const OWNER = "owner@example.com"
const PASSWORD = "owner's long password"

/** PostHog's envelope of a 400. */
const invalid = (code: string, detail: string, attr: string | null = null) => ({ type: "validation_error", code, detail, attr })
const SPENT = invalid("sign_in_link_invalid", "This sign-in link has been used, has expired or is not valid.")
const LOCKED = {
  type: "authentication_error",
  code: "too_many_failed_attempts",
  detail: "Too many failed login attempts. Please try again in 10 minutes.",
  attr: null
}

/**
 * `POST /api/login/link/` over real HTTP, behind a trusted proxy (so each request may name its client's
 * address), logging every request in JSON to `written`: what a link's use answers, the session it
 * opens, and what no log line ever holds.
 */
describe("one-time sign-in links over HTTP", () => {
  const written: Array<string> = []
  let runtime: ManagedRuntime.ManagedRuntime<any, any>
  let url = ""
  const secrets: Array<string> = []

  beforeAll(async () => {
    const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_TRUST_PROXY: "true" } }), { asPrimary: true })
    runtime = ManagedRuntime.make(HedgerowServer.layer({
      port: 0,
      host: "127.0.0.1",
      store: {},
      log: { level: "info", format: "json", sink: (text) => void written.push(text) }
    }).pipe(Layer.provide(config)))
    url = await runtime.runPromise(HedgerowServer.baseUrl)
    await runtime.runPromise(Bootstrap.use((b) => b.run({ email: OWNER })))
  })
  afterAll(() => runtime.dispose())

  let addresses = 0
  /** A client address no other request of this file uses, so that the lock-out of one test stays its own. */
  const freshAddress = () => `198.51.100.${++addresses}`
  const post = (path: string, body: string, headers: Record<string, string> = {}) =>
    fetch(`${url}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body })
  const follow = (token: unknown, address = freshAddress(), headers: Record<string, string> = {}) =>
    post("/api/login/link/", JSON.stringify({ token }), { "x-forwarded-for": address, ...headers })
  const reply = async (response: Response) => ({ status: response.status, body: await response.json() })
  const cookieOf = (response: Response, name: string) =>
    response.headers.getSetCookie().find((cookie) => cookie.startsWith(`${name}=`))?.split(";")[0]
  const newLink = async (email = OWNER) => {
    const { token } = await runtime.runPromise(SignInLinkService.use((s) => s.issue(systemActor, { email })))
    secrets.push(token)
    return token
  }
  const sql = (run: (sql: SqlClient.SqlClient) => Effect.Effect<unknown, unknown>) => runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, run))

  it("a link's first use answers 200 and sets the session and CSRF cookies of a password log-in; its second is refused", async () => {
    const token = await newLink()
    const used = await follow(token)
    expect(await reply(used)).toEqual({ status: 200, body: { success: true } })
    const session = cookieOf(used, "sessionid")!
    const csrf = cookieOf(used, "posthog_csrftoken")!
    expect(session).toMatch(/^sessionid=[0-9A-Za-z]{40}$/)
    expect(csrf).toMatch(/^posthog_csrftoken=[0-9A-Za-z]{32}$/)
    expect(used.headers.getSetCookie().find((cookie) => cookie.startsWith("sessionid="))).toMatch(/; HttpOnly; SameSite=Lax$/)
    secrets.push(session.split("=")[1]!, csrf.split("=")[1]!)
    const me = await fetch(`${url}/api/users/@me/`, { headers: { cookie: `${session}; ${csrf}` } })
    expect(me.status).toBe(200)
    expect((await me.json()).email).toBe(OWNER)
    // A session write needs the CSRF token, as every session's does.
    const flag = (headers: Record<string, string>) =>
      post("/api/projects/@current/feature_flags/", JSON.stringify({ key: `from-link-${Object.keys(headers).length}` }), { cookie: `${session}; ${csrf}`, ...headers })
    expect((await flag({})).status).toBe(403)
    expect((await flag({ "x-csrftoken": csrf.split("=")[1]! })).status).toBe(201)

    const again = await follow(token)
    expect(await reply(again)).toEqual({ status: 400, body: SPENT })
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("an expired, a replaced and an unknown link answer the same 400, and so does a secret of the wrong shape", async () => {
    const expired = await newLink()
    await sql((sql) => sql`UPDATE sign_in_links SET expires_at = now() - interval '1 second'`)
    expect(await reply(await follow(expired))).toEqual({ status: 400, body: SPENT })
    const replaced = await newLink()
    const current = await newLink()
    expect(await reply(await follow(replaced))).toEqual({ status: 400, body: SPENT })
    expect(await reply(await follow("0".repeat(43)))).toEqual({ status: 400, body: SPENT })
    expect(await reply(await follow("not a link"))).toEqual({ status: 400, body: SPENT })
    expect((await follow(current)).status).toBe(200)
  })

  it("refuses a body without a usable token field by the field, and malformed JSON, without a 500", async () => {
    const field = (code: string, detail: string) => ({ status: 400, body: invalid(code, detail, "token") })
    expect(await reply(await post("/api/login/link/", "{}"))).toEqual(field("required", "This field is required."))
    expect(await reply(await follow(null))).toEqual(field("null", "This field may not be null."))
    expect(await reply(await follow(5))).toEqual(field("invalid_input", "Not a valid string."))
    expect(await reply(await follow("  "))).toEqual(field("blank", "This field may not be blank."))
    expect(await reply(await follow("A".repeat(201)))).toEqual(field("max_length", "Ensure this field has no more than 200 characters."))
    const malformed = await post("/api/login/link/", "{\"token\": ")
    expect(malformed.status).toBe(400)
    expect((await malformed.json()).code).toBe("parse_error")
    // A huge body is refused by its size, never read whole.
    const huge = await post("/api/login/link/", JSON.stringify({ token: "A".repeat(2 * 1024 * 1024) }))
    expect(huge.status).toBe(413)
  })

  it("thirty refused links from one address lock it out for ten minutes, a good link and a right password too", async () => {
    const address = freshAddress()
    for (let i = 0; i < 30; i++) expect(await reply(await follow(`${"B".repeat(40)}${String(i).padStart(3, "0")}`, address))).toEqual({ status: 400, body: SPENT })
    // A password set now, before the link is made (setting one ends a link made earlier).
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
    const token = await newLink()
    const locked = await follow(token, address)
    expect(await reply(locked)).toEqual({ status: 403, body: LOCKED })
    expect(locked.headers.getSetCookie()).toEqual([])
    // The lock-out is log-in's: a password from the same address is refused too.
    const password = await post("/api/login/", JSON.stringify({ email: OWNER, password: PASSWORD }), { "x-forwarded-for": address })
    expect(await reply(password)).toEqual({ status: 403, body: LOCKED })
    // The link was not spent by a refused request: from elsewhere it still works.
    expect((await follow(token)).status).toBe(200)
  }, 60_000)

  it("a password the operator sets, or the user changes, ends a link made before it", async () => {
    const setByOperator = await newLink()
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
    expect(await reply(await follow(setByOperator))).toEqual({ status: 400, body: SPENT })

    const changedByUser = await newLink()
    const login = await post("/api/login/", JSON.stringify({ email: OWNER, password: PASSWORD }), { "x-forwarded-for": freshAddress() })
    expect(login.status).toBe(200)
    const session = cookieOf(login, "sessionid")!
    const csrf = cookieOf(login, "posthog_csrftoken")!
    secrets.push(session.split("=")[1]!, csrf.split("=")[1]!)
    const changed = await fetch(`${url}/api/users/@me/`, {
      method: "PATCH",
      headers: { "content-type": "application/json", cookie: `${session}; ${csrf}`, "x-csrftoken": csrf.split("=")[1]! },
      body: JSON.stringify({ current_password: PASSWORD, password: `${PASSWORD} again` })
    })
    expect(changed.status).toBe(200)
    expect(await reply(await follow(changedByUser))).toEqual({ status: 400, body: SPENT })
    await runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: OWNER, password: PASSWORD })))
  })

  it("a user with two-factor authentication gets PostHog's 401 and the code step, which then opens the session", async () => {
    const email = "two-factor@example.com"
    const secret = "JBSWY3DPEHPK3PXP"
    const user = await runtime.runPromise(UserService.use((s) => s.create(systemActor, { email })))
    await runtime.runPromise(TwoFactorRepository.use((t) => t.enable(user.id, secret, 0)))
    const token = await newLink(email)
    const first = await follow(token)
    expect(await reply(first)).toEqual({
      status: 401,
      body: { type: "authentication_error", code: "2fa_required", detail: "2FA is required.", attr: null }
    })
    expect(cookieOf(first, "sessionid")).toBeUndefined()
    const pending = cookieOf(first, "hedgerow_2fa_login")!
    expect(pending).toMatch(/^hedgerow_2fa_login=/)
    const code = await post("/api/login/token/", JSON.stringify({ token: totpCode(secret, Date.now()) }), { cookie: pending })
    expect(code.status).toBe(200)
    const session = cookieOf(code, "sessionid")!
    const me = await fetch(`${url}/api/users/@me/`, { headers: { cookie: session } })
    expect((await me.json()).email).toBe(email)
    expect(await reply(await follow(token))).toEqual({ status: 400, body: SPENT })
  })

  it("never writes a link's secret, a session id or a CSRF token to a log line", async () => {
    // Flushed at most 50 ms after their requests.
    await new Promise((resolve) => setTimeout(resolve, 200))
    const log = written.join("\n")
    expect(log).toContain("\"path\":\"/api/login/link/\"")
    expect(secrets.length).toBeGreaterThan(5)
    for (const secret of secrets) expect(log).not.toContain(secret)
  })
})
