import { bodyOf, OrganizationService, systemActor, UserService } from "@hedgerow/core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { gitHubSettings, startGitHub } from "./oauth/github.ts"
import { logIn, SITE, startServer, type TestServer } from "./oauth/server.ts"

const CLIENT = { id: "Iv1.enforced", secret: "github-client-secret-of-the-enforcement-test" }
const EMAIL = "katherine@jit.example"
const PASSWORD = "a password for the contrast"

/**
 * An organization enforcing two-factor authentication asks no code of a session its identity provider
 * opened, and still refuses a password session of the same person.
 */
describe("two-factor enforcement and single sign-on", () => {
  let github: Awaited<ReturnType<typeof startGitHub>>
  let server: TestServer

  beforeAll(async () => {
    github = await startGitHub(CLIENT)
    server = await startServer(gitHubSettings(github, CLIENT))
    github.script.user = { login: "kjohnson", id: 7, name: "Katherine Johnson" }
    github.script.emails = [{ email: EMAIL, primary: true, verified: true }]
    const organization = await server.runtime.runPromise(
      OrganizationService.use((s) => s.update(systemActor, server.organization, bodyOf({ enforce_2fa: true })))
    )
    expect(organization.enforce_2fa).toBe(true)
  }, 60_000)
  afterAll(async () => {
    await server.close()
    await github.close()
  })

  const organizationPath = () => `${SITE}/api/organizations/${server.organization}/`

  it("serves a GitHub log-in's session in the enforcing organization, and refuses the same person's password session", async () => {
    // Just-in-time provisioning makes the organization this newcomer's current one.
    const sso = server.browser()
    expect((await logIn(sso, "github")).location).toBe("/")
    const served = await sso.request(organizationPath())
    expect({ status: served.status, body: await served.json() }).toMatchObject({ status: 200, body: { id: server.organization, enforce_2fa: true, membership_level: 1 } })

    await server.runtime.runPromise(UserService.use((s) => s.setPassword(systemActor, { email: EMAIL, password: PASSWORD })))
    const loggedIn = await fetch(`${server.url}/api/login/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: EMAIL, password: PASSWORD })
    })
    expect(loggedIn.status).toBe(200)
    const session = loggedIn.headers.getSetCookie().find((line) => line.startsWith("sessionid="))!.split(";")[0]!
    const refused = await fetch(`${server.url}/api/organizations/${server.organization}/`, { headers: { cookie: session } })
    expect(refused.status).toBe(403)
    expect(await refused.json()).toEqual({
      type: "authentication_error",
      code: "two_factor_setup_required",
      detail: "2FA setup required",
      attr: null
    })

    // Setting the password ended the GitHub session; a new GitHub log-in is served again.
    const again = server.browser()
    expect((await logIn(again, "github")).location).toBe("/")
    expect((await again.request(organizationPath())).status).toBe(200)
  })
})
