import { createHash } from "node:crypto"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { Browser } from "./oauth/browser.ts"
import { type IssuerScript, startIssuer } from "./oauth/openid-issuer.ts"
import { logIn, SITE, startServer, type TestServer, whoAmI } from "./oauth/server.ts"

const CLIENT = { id: "hedgerow-google", secret: "google-client-secret-never-logged" }
const HANGING = { id: "hedgerow-gitlab", secret: "gitlab-client-secret" }
const TIMEOUT_MS = 800

const FAILED = "/login?error_code=social_login_failure"

/**
 * Log-in with an OpenID provider configured as Google (by its issuer), the provider a test controls: a
 * real server, a real provider on loopback, a browser following each redirect and keeping cookies.
 */
describe("OAuth log-in with an OpenID provider", () => {
  let issuer: Awaited<ReturnType<typeof startIssuer>>
  let hanging: Awaited<ReturnType<typeof startIssuer>>
  let server: TestServer

  beforeAll(async () => {
    issuer = await startIssuer(CLIENT)
    // A provider configured as GitLab that never answers its discovery document.
    hanging = await startIssuer(HANGING)
    hanging.script.delays.discovery = Infinity
    server = await startServer({
      HEDGEROW_OAUTH_GOOGLE_CLIENT_ID: CLIENT.id,
      HEDGEROW_OAUTH_GOOGLE_CLIENT_SECRET: CLIENT.secret,
      HEDGEROW_OAUTH_GOOGLE_ISSUER: issuer.issuer,
      HEDGEROW_OAUTH_GITLAB_CLIENT_ID: HANGING.id,
      HEDGEROW_OAUTH_GITLAB_CLIENT_SECRET: HANGING.secret,
      HEDGEROW_OAUTH_GITLAB_URL: hanging.issuer,
      HEDGEROW_OAUTH_TIMEOUT_MS: String(TIMEOUT_MS)
    })
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await issuer.close()
    await hanging.close()
  })

  const person = (email: string, extra: IssuerScript["claims"] = {}) => {
    issuer.script.claims = { sub: email, email, email_verified: true, given_name: "Grace", family_name: "Hopper", ...extra }
  }
  beforeEach(() => {
    issuer.script.tweak = (claims) => claims
    issuer.script.signWithStrangerKey = false
    issuer.script.delays = {}
    person("ada@known.example")
  })

  const sessions = async () => (await server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM sessions`))[0]!.n

  it("logs a known user in: to the provider with state, nonce and PKCE, back with a session, the pending log-in used up", async () => {
    const browser = server.browser()
    const { start, toProvider, callback, done, location } = await logIn(browser, "google-oauth2")
    expect(start.status).toBe(302)
    expect(start.headers.get("cache-control")).toBe("no-store")
    expect(`${toProvider.origin}${toProvider.pathname}`).toBe(`${issuer.issuer}/authorize`)
    const asked = Object.fromEntries(toProvider.searchParams)
    expect(asked).toEqual({
      client_id: CLIENT.id,
      redirect_uri: `${SITE}/complete/google-oauth2/`,
      response_type: "code",
      scope: "openid email profile",
      state: expect.stringMatching(/^[0-9A-Za-z]{43}$/),
      nonce: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256"
    })
    // The pending log-in's cookie: HttpOnly, a few minutes; the store holds its hash, never it or the state.
    const cookieLine = start.headers.getSetCookie().find((line) => line.startsWith("hedgerow_oauth_login="))!
    expect(cookieLine).toMatch(/; Max-Age=600; .*Path=\/; .*HttpOnly; SameSite=Lax$/)
    const cookie = cookieLine.split(";")[0]!.split("=")[1]!
    expect(callback.startsWith(`${SITE}/complete/google-oauth2/?code=`)).toBe(true)

    expect(done.status).toBe(302)
    expect(location).toBe("/")
    expect(done.headers.get("referrer-policy")).toBe("no-referrer")
    expect(browser.cookie("127.0.0.1", "hedgerow_oauth_login")).toBeUndefined()
    expect(browser.cookie("127.0.0.1", "sessionid")).toMatch(/^[0-9A-Za-z]{40}$/)
    expect(browser.cookie("127.0.0.1", "posthog_csrftoken")).toMatch(/^[0-9A-Za-z]{32}$/)
    expect(await whoAmI(browser)).toMatchObject({ email: "ada@known.example" })
    // The token request carried the client's secret and the verifier, which the provider checked.
    const token = issuer.tokenRequests.at(-1)!
    expect(token.get("client_secret")).toBe(CLIENT.secret)
    expect(createHash("sha256").update(token.get("code_verifier")!).digest("base64url")).toBe(asked["code_challenge"])
    expect(await server.sql((sql) => sql`SELECT * FROM oauth_pending_logins WHERE browser_hash = ${`sha256$${createHash("sha256").update(cookie).digest("hex")}`}`))
      .toEqual([])
  })

  it("keeps a pending log-in as hashes: the cookie's and the state's, never either, nor the nonce or the verifier", async () => {
    const browser = server.browser()
    const start = await browser.request(`${SITE}/login/google-oauth2/?next=${encodeURIComponent("/project/1/flags")}`)
    const asked = new URL(start.headers.get("location")!).searchParams
    const cookie = browser.cookie("127.0.0.1", "hedgerow_oauth_login")!
    const rows = await server.sql((sql) => sql`SELECT * FROM oauth_pending_logins`)
    const hash = (text: string) => `sha256$${createHash("sha256").update(text).digest("hex")}`
    expect(rows).toContainEqual({
      browser_hash: hash(cookie),
      state_hash: hash(asked.get("state")!),
      provider: "google-oauth2",
      next: "/project/1/flags",
      expires_at: expect.anything()
    })
    for (const secret of [cookie, asked.get("state")!, asked.get("nonce")!]) expect(JSON.stringify(rows)).not.toContain(secret)
  })

  it("opens the page the start named once logged in, when it is a path of this site, else the console's home", async () => {
    expect((await logIn(server.browser(), "google-oauth2", "/project/7/flags?tab=activity")).location).toBe("/project/7/flags?tab=activity")
    for (const elsewhere of ["//evil.example/", "/\\evil.example", "https://evil.example/", "/a\r\nSet-Cookie: x=y", "/ü", "project/7", ""]) {
      expect((await logIn(server.browser(), "google-oauth2", elsewhere)).location).toBe("/")
    }
    expect((await logIn(server.browser(), "google-oauth2", `/${"a".repeat(3000)}`)).location).toBe("/")
  })

  it("ends the session the browser came with: a log-in never keeps a session planted before it", async () => {
    const browser = server.browser()
    expect((await logIn(browser, "google-oauth2")).location).toBe("/")
    const first = browser.cookie("127.0.0.1", "sessionid")!
    expect((await logIn(browser, "google-oauth2")).location).toBe("/")
    const second = browser.cookie("127.0.0.1", "sessionid")!
    expect(second).not.toBe(first)
    const planted = server.browser()
    planted.setCookie("127.0.0.1", "sessionid", first)
    expect(await whoAmI(planted)).toBe(401)
    expect(await whoAmI(browser)).toMatchObject({ email: "ada@known.example" })
  })

  it("gives a new person of a verified JIT domain an account and a member's place in the domain's organization", async () => {
    person("newcomer@jit.example")
    const browser = server.browser()
    const { location } = await logIn(browser, "google-oauth2")
    expect(location).toBe("/")
    expect(await whoAmI(browser)).toMatchObject({ email: "newcomer@jit.example", first_name: "Grace", last_name: "Hopper" })
    const levels = await server.sql((sql) => sql<{ level: number; organization_id: string }>`
      SELECT m.level, m.organization_id FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'newcomer@jit.example'`)
    expect(levels).toEqual([{ level: 1, organization_id: server.organization }])
  })

  it("refuses an unknown person of no verified domain with PostHog's code, and opens no session", async () => {
    person("stranger@nowhere.example")
    const before = await sessions()
    const browser = server.browser()
    const { location } = await logIn(browser, "google-oauth2")
    expect(location).toBe("/login?error_code=no_new_organizations")
    expect(browser.cookie("127.0.0.1", "sessionid")).toBeUndefined()
    expect(await sessions()).toBe(before)
  })

  it("refuses a completion without state, with another state, and a state used once already", async () => {
    const noState = server.browser()
    const started = await noState.request(`${SITE}/login/google-oauth2/`)
    const code = "whatever"
    expect((await noState.request(`${SITE}/complete/google-oauth2/?code=${code}`)).headers.get("location")).toBe(FAILED)
    // The attempt used the pending log-in up: the right state cannot follow it.
    const state = new URL(started.headers.get("location")!).searchParams.get("state")!
    expect((await noState.request(`${SITE}/complete/google-oauth2/?code=${code}&state=${state}`)).headers.get("location")).toBe(FAILED)

    const wrong = server.browser()
    const toProvider = Browser.location(await wrong.request(`${SITE}/login/google-oauth2/`), SITE)
    const callback = new URL(Browser.location(await wrong.request(toProvider), toProvider))
    callback.searchParams.set("state", "A".repeat(43))
    expect((await wrong.request(callback.toString())).headers.get("location")).toBe(FAILED)
    expect(wrong.cookie("127.0.0.1", "sessionid")).toBeUndefined()

    const twice = server.browser()
    const first = await logIn(twice, "google-oauth2")
    expect(first.location).toBe("/")
    const before = await sessions()
    const again = await twice.request(first.callback)
    expect(again.headers.get("location")).toBe(FAILED)
    expect(await sessions()).toBe(before)
  })

  it("refuses a callback URL carried to another browser, and leaves the first browser's log-in to complete", async () => {
    const victim = server.browser()
    const toProvider = Browser.location(await victim.request(`${SITE}/login/google-oauth2/`), SITE)
    const callback = Browser.location(await victim.request(toProvider), toProvider)

    const thief = server.browser()
    expect((await thief.request(callback)).headers.get("location")).toBe(FAILED)
    // With a pending log-in of its own, and with the victim's cookie value guessed wrong, still refused.
    await thief.request(`${SITE}/login/google-oauth2/`)
    expect((await thief.request(callback)).headers.get("location")).toBe(FAILED)
    const guesser = server.browser()
    guesser.setCookie("127.0.0.1", "hedgerow_oauth_login", "x".repeat(40))
    expect((await guesser.request(callback)).headers.get("location")).toBe(FAILED)
    expect(thief.cookie("127.0.0.1", "sessionid")).toBeUndefined()

    const done = await victim.request(callback)
    expect(done.headers.get("location")).toBe("/")
    expect(await whoAmI(victim)).toMatchObject({ email: "ada@known.example" })
  })

  it("refuses a pending log-in past its few minutes", async () => {
    const browser = server.browser()
    const toProvider = Browser.location(await browser.request(`${SITE}/login/google-oauth2/`), SITE)
    const callback = Browser.location(await browser.request(toProvider), toProvider)
    await server.sql((sql) => sql`UPDATE oauth_pending_logins SET expires_at = now() - interval '1 second'`)
    expect((await browser.request(callback)).headers.get("location")).toBe(FAILED)
  })

  const refusedToken = async (script: (s: IssuerScript) => void) => {
    script(issuer.script)
    const browser = server.browser()
    const { location } = await logIn(browser, "google-oauth2")
    expect(browser.cookie("127.0.0.1", "sessionid")).toBeUndefined()
    return location
  }

  it("refuses an ID token with another nonce, for another audience, expired, or signed by another key", async () => {
    expect(await refusedToken((s) => (s.tweak = (claims) => ({ ...claims, nonce: "another log-in's nonce" })))).toBe(FAILED)
    expect(await refusedToken((s) => (s.tweak = ({ nonce: _nonce, ...claims }) => claims))).toBe(FAILED)
    expect(await refusedToken((s) => (s.tweak = (claims) => ({ ...claims, aud: "someone-else" })))).toBe(FAILED)
    expect(await refusedToken((s) => (s.tweak = (claims) => ({ ...claims, iss: "https://accounts.example.com" })))).toBe(FAILED)
    const hourAgo = Math.floor(Date.now() / 1000) - 3600
    expect(await refusedToken((s) => (s.tweak = (claims) => ({ ...claims, iat: hourAgo - 300, exp: hourAgo })))).toBe(FAILED)
    expect(await refusedToken((s) => (s.signWithStrangerKey = true))).toBe(FAILED)
    await expect.poll(() => server.written.filter((line) => line.includes("OAuth log-in with google-oauth2 refused")).length).toBeGreaterThanOrEqual(6)
    const reasons = server.written.filter((line) => line.includes("OAuth log-in with google-oauth2 refused"))
    expect(reasons.some((line) => line.includes("nonce"))).toBe(true)
    expect(reasons.some((line) => line.includes("aud"))).toBe(true)
    expect(reasons.some((line) => line.includes("exp"))).toBe(true)
    expect(reasons.some((line) => line.includes("signature"))).toBe(true)
  })

  it("refuses an address the provider has not verified", async () => {
    expect(await refusedToken(() => person("ada@known.example", { email_verified: false }))).toBe(FAILED)
    expect(await refusedToken(() => person("ada@known.example", { email_verified: "true" }))).toBe(FAILED)
    expect(await refusedToken(() => person("ada@known.example", { email_verified: undefined }))).toBe(FAILED)
  })

  it("answers a log-in the person cancelled at the provider with oauth_cancelled, any other provider error with the failure", async () => {
    const browser = server.browser()
    const state = new URL(Browser.location(await browser.request(`${SITE}/login/google-oauth2/`), SITE)).searchParams.get("state")!
    const cancelled = await browser.request(`${SITE}/complete/google-oauth2/?error=access_denied&state=${state}`)
    expect(cancelled.headers.get("location")).toBe("/login?error_code=oauth_cancelled")
    await browser.request(`${SITE}/login/google-oauth2/`)
    expect((await browser.request(`${SITE}/complete/google-oauth2/?error=server_error`)).headers.get("location")).toBe(FAILED)
  })

  it("answers an unknown provider with invalid_sso_provider, one not configured (or SAML here) with improperly_configured_sso", async () => {
    const browser = server.browser()
    const at = async (path: string) => {
      const reply = await browser.request(`${SITE}${path}`)
      expect(reply.status).toBe(302)
      return reply.headers.get("location")
    }
    expect(await at("/login/okta/")).toBe("/login?error_code=invalid_sso_provider")
    expect(await at("/login/okta")).toBe("/login?error_code=invalid_sso_provider")
    expect(await at("/complete/okta/?code=a&state=b")).toBe("/login?error_code=invalid_sso_provider")
    expect(await at("/login/github/")).toBe("/login?error_code=improperly_configured_sso")
    expect(await at("/complete/github/?code=a&state=b")).toBe("/login?error_code=improperly_configured_sso")
    expect(await at("/login/saml/")).toBe("/login?error_code=improperly_configured_sso")
    expect(await at(`/login/${"x".repeat(5000)}/`)).toBe("/login?error_code=invalid_sso_provider")
    expect(await at("/login/%00/")).toBe("/login?error_code=invalid_sso_provider")
    const malformed = await browser.request(`${SITE}/login/%ZZ/`)
    // A path the router cannot decode names no route: the API's 404, never a failure of the server.
    expect(malformed.status).toBe(404)
    expect(await malformed.json()).toEqual({ type: "invalid_request", code: "not_found", detail: "Not found.", attr: null })
    expect(await at("/login/google%2Doauth2/")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/authorize\?/)
    expect(await at("/complete/google-oauth2/?state=%ZZ&code=%00&error=%0Aforged%20line")).toBe(FAILED)
  })

  it("gives up on a provider that does not answer after the timeout, while the server answers everyone else", async () => {
    // The discovery document never comes: the start says the provider is not usable.
    const browser = server.browser()
    const started = Date.now()
    const pending = browser.request(`${SITE}/login/gitlab/`)
    const health = Date.now()
    expect((await fetch(`${server.url}/_health`)).status).toBe(200)
    expect(Date.now() - health).toBeLessThan(600)
    const reply = await pending
    expect(reply.headers.get("location")).toBe("/login?error_code=improperly_configured_sso")
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT_MS - 50)
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000)

    // The token endpoint never answers: the completion fails after the timeout.
    issuer.script.delays.token = Infinity
    const slow = Date.now()
    const { location } = await logIn(server.browser(), "google-oauth2")
    expect(location).toBe(FAILED)
    expect(Date.now() - slow).toBeLessThan(TIMEOUT_MS + 2_000)
    const gaveUp = (provider: string) => (line: string) => line.includes(`${provider} refused`) && line.includes(`did not answer within ${TIMEOUT_MS} ms`)
    await expect.poll(() => server.written.some(gaveUp("gitlab"))).toBe(true)
    await expect.poll(() => server.written.some(gaveUp("google-oauth2"))).toBe(true)
    // A discovery document that names another issuer is not this provider's: its tokens could not be checked.
    hanging.script.delays = {}
    hanging.script.discoveredIssuer = "https://gitlab.example.com"
    expect((await server.browser().request(`${SITE}/login/gitlab/`)).headers.get("location")).toBe("/login?error_code=improperly_configured_sso")
    await expect.poll(() => server.written.some((line) => line.includes("names another issuer than"))).toBe(true)

    // Of all this file's log-ins, no line of the log names a client secret.
    expect(server.written.length).toBeGreaterThan(50)
    expect(server.written.filter((line) => line.includes(CLIENT.secret) || line.includes(HANGING.secret))).toEqual([])
  })
})
