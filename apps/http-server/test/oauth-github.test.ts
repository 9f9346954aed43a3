import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { gitHubSettings, startGitHub } from "./oauth/github.ts"
import { logIn, SITE, startServer, type TestServer, whoAmI } from "./oauth/server.ts"

const CLIENT = { id: "Iv1.hedgerow", secret: "github-client-secret-never-logged" }
const TIMEOUT_MS = 800
const FAILED = "/login?error_code=social_login_failure"

/** Log-in with GitHub, plain OAuth 2 and its API, against a GitHub on loopback. */
describe("OAuth log-in with GitHub", () => {
  let github: Awaited<ReturnType<typeof startGitHub>>
  let server: TestServer

  beforeAll(async () => {
    github = await startGitHub(CLIENT)
    server = await startServer({ ...gitHubSettings(github, CLIENT), HEDGEROW_OAUTH_TIMEOUT_MS: String(TIMEOUT_MS) })
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await github.close()
  })

  const person = (emails: unknown, name: string | null = "Katherine Johnson") => {
    github.script.user = { login: "kjohnson", id: 7, name }
    github.script.emails = emails
  }
  beforeEach(() => {
    github.script.delays = {}
    github.script.padEmails = 0
    github.script.trickleEmails = false
    person([{ email: "ada@known.example", primary: true, verified: true, visibility: "private" }])
  })

  it("logs a known user in with the primary verified address, asking GitHub with state and PKCE", async () => {
    const browser = server.browser()
    const { toProvider, done, location } = await logIn(browser, "github")
    expect(`${toProvider.origin}${toProvider.pathname}`).toBe(`${github.webUrl}/login/oauth/authorize`)
    expect(Object.fromEntries(toProvider.searchParams)).toEqual({
      client_id: CLIENT.id,
      redirect_uri: `${SITE}/complete/github/`,
      response_type: "code",
      scope: "read:user user:email",
      state: expect.stringMatching(/^[0-9A-Za-z]{43}$/),
      code_challenge: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      code_challenge_method: "S256"
    })
    expect(done.status).toBe(302)
    expect(location).toBe("/")
    expect(await whoAmI(browser)).toMatchObject({ email: "ada@known.example" })
  })

  it("makes a JIT newcomer's names from GitHub's name, or the login when there is none", async () => {
    person([
      { email: "someone@elsewhere.example", primary: false, verified: true },
      { email: "katherine@jit.example", primary: true, verified: true }
    ])
    const named = server.browser()
    expect((await logIn(named, "github")).location).toBe("/")
    expect(await whoAmI(named)).toMatchObject({ email: "katherine@jit.example", first_name: "Katherine", last_name: "Johnson" })

    person([{ email: "nameless@jit.example", primary: true, verified: true }], null)
    const nameless = server.browser()
    expect((await logIn(nameless, "github")).location).toBe("/")
    expect(await whoAmI(nameless)).toMatchObject({ email: "nameless@jit.example", first_name: "kjohnson", last_name: "" })
  })

  it("refuses an account whose primary address GitHub has not verified, even with another verified one", async () => {
    person([
      { email: "ada@known.example", primary: true, verified: false },
      { email: "owner@example.com", primary: false, verified: true }
    ])
    const browser = server.browser()
    expect((await logIn(browser, "github")).location).toBe(FAILED)
    expect(browser.cookie("127.0.0.1", "sessionid")).toBeUndefined()
    person([])
    expect((await logIn(server.browser(), "github")).location).toBe(FAILED)
    person({ message: "not a list" })
    expect((await logIn(server.browser(), "github")).location).toBe(FAILED)
  })

  it("refuses an unknown person with PostHog's code", async () => {
    person([{ email: "stranger@nowhere.example", primary: true, verified: true }])
    expect((await logIn(server.browser(), "github")).location).toBe("/login?error_code=no_new_organizations")
  })

  it("fails a code GitHub refuses (its 200 with an error), without a session", async () => {
    const browser = server.browser()
    const { callback } = await logIn(browser, "github")
    // The code was traded once; a new log-in sent back with the old code is refused by GitHub.
    const fresh = server.browser()
    const state = new URL((await fresh.request(`${SITE}/login/github/`)).headers.get("location")!).searchParams.get("state")!
    const stale = new URL(callback)
    stale.searchParams.set("state", state)
    expect((await fresh.request(stale.toString())).headers.get("location")).toBe(FAILED)
    await expect.poll(() => server.written.some((line) => line.includes("github refused") && line.includes("(bad_verification_code)")))
      .toBe(true)
  })

  it("gives up on a GitHub that does not answer or answers too much, within the timeout", async () => {
    for (const delay of ["token", "user", "emails"] as const) {
      github.script.delays = { [delay]: Infinity }
      const started = Date.now()
      expect((await logIn(server.browser(), "github")).location).toBe(FAILED)
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 2_000)
    }
    github.script.delays = {}
    // An answer that starts at once and then trickles, a byte at a time, is cut off like one that never comes.
    github.script.trickleEmails = true
    const trickled = Date.now()
    expect((await logIn(server.browser(), "github")).location).toBe(FAILED)
    expect(Date.now() - trickled).toBeLessThan(TIMEOUT_MS + 2_000)
    github.script.trickleEmails = false
    github.script.padEmails = 300 * 1024
    expect((await logIn(server.browser(), "github")).location).toBe(FAILED)
    await expect.poll(() => server.written.some((line) => line.includes("answered more than 262144 bytes"))).toBe(true)
    expect(server.written.filter((line) => line.includes(CLIENT.secret))).toEqual([])
  })
})
