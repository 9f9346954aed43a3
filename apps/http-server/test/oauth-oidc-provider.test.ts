import * as http from "node:http"
import { exportJWK, generateKeyPair } from "jose"
import Provider, { type ClientMetadata } from "oidc-provider"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Browser } from "./oauth/browser.ts"
import { listen } from "./oauth/loopback.ts"
import { SITE, startServer, type TestServer, whoAmI } from "./oauth/server.ts"

const GOOGLE = { id: "google-style-client", secret: "google-style-secret" }
const GITLAB = { id: "gitlab-style-client", secret: "gitlab-style-secret" }

/** The people this provider knows, by account id. */
const PEOPLE: Record<string, Record<string, unknown>> = {
  ada: { email: "ada@known.example", email_verified: true, given_name: "Ada", family_name: "Lovelace" },
  mary: { email: "mary@jit.example", email_verified: true, name: "Mary Jackson" },
  unverified: { email: "ada@known.example", email_verified: false, name: "Not Ada" }
}

/**
 * A full OpenID provider (node-oidc-provider) on loopback, with its own log-in and consent pages, and
 * Hedgerow configured twice over it: as Google (by its issuer) and as a self-managed GitLab (by its URL).
 */
describe("OAuth log-in against a real OpenID provider", () => {
  let issuer = ""
  let closeProvider: () => Promise<void>
  let server: TestServer

  beforeAll(async () => {
    // The issuer's address is known once it listens; its requests are answered once the provider is made.
    const providerServer = http.createServer()
    const listening = await listen(providerServer)
    issuer = listening.base
    closeProvider = listening.close
    const client = (credentials: { id: string; secret: string }, provider: string): ClientMetadata => ({
      client_id: credentials.id,
      client_secret: credentials.secret,
      redirect_uris: [`${SITE}/complete/${provider}/`],
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post"
    })
    const oidc = new Provider(issuer, {
      clients: [client(GOOGLE, "google-oauth2"), client(GITLAB, "gitlab")],
      findAccount: (_context, id) => ({ accountId: id, claims: () => ({ sub: id, ...PEOPLE[id] }) }),
      claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name", "given_name", "family_name"] },
      // The person's claims in the ID token itself, as Google's and GitLab's tokens carry them.
      conformIdTokenClaims: false,
      pkce: { required: () => true },
      cookies: { keys: ["a test's cookie key"] },
      jwks: { keys: [{ ...(await exportJWK((await generateKeyPair("RS256", { extractable: true })).privateKey)), kid: "test", alg: "RS256", use: "sig" }] },
      ttl: { Interaction: 600, Session: 600, Grant: 600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 }
    })
    providerServer.on("request", oidc.callback())
    server = await startServer({
      HEDGEROW_OAUTH_GOOGLE_CLIENT_ID: GOOGLE.id,
      HEDGEROW_OAUTH_GOOGLE_CLIENT_SECRET: GOOGLE.secret,
      HEDGEROW_OAUTH_GOOGLE_ISSUER: issuer,
      HEDGEROW_OAUTH_GITLAB_CLIENT_ID: GITLAB.id,
      HEDGEROW_OAUTH_GITLAB_CLIENT_SECRET: GITLAB.secret,
      HEDGEROW_OAUTH_GITLAB_URL: issuer
    })
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await closeProvider()
  })

  /**
   * A log-in through the provider's own pages: its log-in form as `account`, then its consent form, each
   * step a request of the browser, until the provider sends it back to Hedgerow.
   */
  const logInAs = async (browser: Browser, provider: string, account: string) => {
    let address = `${SITE}/login/${provider}/`
    let reply = await browser.request(address)
    for (let step = 0; step < 12 && !address.startsWith(`${SITE}/complete/`); step++) {
      address = Browser.location(reply, address)
      const interaction = new URL(address).pathname.match(/^\/interaction\/[^/]+$/)
      if (interaction === null) {
        reply = await browser.request(address)
        continue
      }
      const page = await (await browser.request(address)).text()
      const prompt = /name="prompt" value="(\w+)"/.exec(page)?.[1]
      reply = await browser.request(address, { method: "POST", form: prompt === "login" ? { prompt, login: account, password: "any" } : { prompt: prompt ?? "" } })
    }
    return { callback: address, reply, location: reply.headers.get("location") }
  }

  it("logs a known user in through the provider configured as Google", async () => {
    const browser = server.browser()
    const { callback, location } = await logInAs(browser, "google-oauth2", "ada")
    expect(callback.startsWith(`${SITE}/complete/google-oauth2/?code=`)).toBe(true)
    expect(location).toBe("/")
    expect(await whoAmI(browser)).toMatchObject({ email: "ada@known.example" })
  })

  it("logs a JIT newcomer in through the provider configured as a self-managed GitLab, named from `name`", async () => {
    const browser = server.browser()
    const { location } = await logInAs(browser, "gitlab", "mary")
    expect(location).toBe("/")
    expect(await whoAmI(browser)).toMatchObject({ email: "mary@jit.example", first_name: "Mary", last_name: "Jackson" })
    const levels = await server.sql((sql) => sql<{ level: number }>`
      SELECT m.level FROM memberships m JOIN users u ON u.id = m.user_id WHERE u.email = 'mary@jit.example'`)
    expect(levels).toEqual([{ level: 1 }])
  })

  it("refuses an address the provider says it has not verified", async () => {
    const browser = server.browser()
    const { location } = await logInAs(browser, "google-oauth2", "unverified")
    expect(location).toBe("/login?error_code=social_login_failure")
    expect(await whoAmI(browser)).toBe(401)
  })
})
