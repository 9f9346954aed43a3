import { bodyOf, DomainService, systemActor } from "@hedgerow/core"
import { SSO_FAILURE_WORDS, SSO_REFUSAL_WORDS } from "@hedgerow/core/sso-words"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isFocused, logInForm, seriousViolations, useConsole } from "./harness.ts"
import { startStandInProvider } from "./stand-in-provider.ts"

// The log-in page's single sign-on, in Chromium against the real server: the precheck's answers for
// domains set up in the store, GitHub configured as the deployment's OAuth provider, and an identity
// provider's stand-in on loopback where the server's redirects lead.
let provider: Awaited<ReturnType<typeof startStandInProvider>>
beforeAll(async () => {
  provider = await startStandInProvider()
})
afterAll(() => provider?.close())

const world = useConsole({
  env: () => ({
    HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "Iv1.console",
    HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: "console-github-secret",
    HEDGEROW_OAUTH_GITHUB_URL: provider.url
  })
})
const { owner, withPage } = world

const SAML_ENFORCED = "saml-only.example"
const SAML_OFFERED = "saml-offered.example"
const GITHUB_ENFORCED = "github-only.example"

/** A verified domain of the owner's organization, as the DNS check would leave it, with `settings`. */
const domain = (name: string, settings: Record<string, unknown>) =>
  world.operate(Effect.gen(function*() {
    const created = yield* DomainService.use((s) => s.create(systemActor, owner.organization, bodyOf({ domain: name })))
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${created.id}`
    yield* DomainService.use((s) => s.update(systemActor, owner.organization, created.id, bodyOf(settings)))
    return created.id
  }))

const samlOf = () => ({ saml_entity_id: `${provider.url}/metadata`, saml_acs_url: `${provider.url}/sso`, saml_x509_cert: "MIIC" })

let enforcedDomainId = ""
beforeAll(async () => {
  enforcedDomainId = await domain(SAML_ENFORCED, { ...samlOf(), sso_enforcement: "saml" })
  await domain(SAML_OFFERED, samlOf())
  await domain(GITHUB_ENFORCED, { sso_enforcement: "github" })
})

const link = (page: Page, name: string) => page.getByRole("link", { name, exact: true })
const logInButton = (page: Page) => page.getByRole("button", { name: "Log in", exact: true })
const fitsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)

/** The server's answer to the first request for `pathname` that `act` leads to. */
const answerTo = async (page: Page, pathname: string, act: () => Promise<void>) => {
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === pathname)
  await act()
  return answer
}

describe("single sign-on on the log-in page", () => {
  it("hides the password where the domain enforces SAML; the link, reached by keyboard, goes through the server to the identity provider, keeping next", async () => {
    const next = `/organization/${owner.organization}`
    for (const colorScheme of ["light", "dark"] as const) {
      await withPage({ colorScheme, viewport: { width: 390, height: 844 } }, async (page) => {
        await page.goto(`${world.base}/login?${new URLSearchParams({ next })}`)
        const form = logInForm(page)
        await form.email.fill(`Ada@${SAML_ENFORCED}`)
        // Leaving the field asks the precheck; the password gives way, and the focus goes to the link.
        await page.keyboard.press("Tab")
        const saml = link(page, "Log in with SAML")
        await saml.waitFor()
        expect(await form.password.count()).toBe(0)
        expect(await logInButton(page).count()).toBe(0)
        expect(await isFocused(saml)).toBe(true)
        expect(await saml.getAttribute("href")).toBe(`/login/saml/?${new URLSearchParams({ email: `Ada@${SAML_ENFORCED}`, next })}`)
        expect(await seriousViolations(page), colorScheme).toEqual([])
        expect(await fitsSideways(page)).toBe(true)

        const start = await answerTo(page, "/login/saml/", () => page.keyboard.press("Enter"))
        expect(start.status()).toBe(302)
        const location = new URL((await start.allHeaders())["location"]!)
        expect(`${location.origin}${location.pathname}`).toBe(`${provider.url}/sso`)
        expect(location.searchParams.get("SAMLRequest")).toMatch(/^[A-Za-z0-9+/=]+$/)
        expect(JSON.parse(location.searchParams.get("RelayState")!)).toEqual({ idp: enforcedDomainId, next })
        await page.waitForURL(location.href)
        expect(await page.title()).toBe("Identity provider")
      })
    }
  })

  it("keeps the password where the domain offers SAML, adds its link, and then offers no OAuth provider", () =>
    withPage({}, async (page) => {
      await page.goto(`${world.base}/login`)
      // Before any e-mail, the deployment's provider is offered.
      await link(page, "Log in with GitHub").waitFor()
      const form = logInForm(page)
      await form.email.fill(`grace@${SAML_OFFERED}`)
      const saml = link(page, "Log in with SAML")
      // A pause in typing is enough.
      await saml.waitFor()
      expect(await saml.getAttribute("href")).toBe(`/login/saml/?${new URLSearchParams({ email: `grace@${SAML_OFFERED}` })}`)
      expect(await form.password.isVisible()).toBe(true)
      expect(await logInButton(page).isVisible()).toBe(true)
      expect(await link(page, "Log in with GitHub").count()).toBe(0)

      // Another address, another answer: the page follows the e-mail it shows.
      await form.email.fill("someone@elsewhere.example")
      await link(page, "Log in with GitHub").waitFor()
      expect(await saml.count()).toBe(0)
    }))

  it("shows a link for each configured OAuth provider, which goes through the server to the provider's authorize URL, keeping next", () =>
    withPage({}, async (page) => {
      const next = `/project/${owner.project}`
      await page.goto(`${world.base}/login?${new URLSearchParams({ next })}`)
      const github = link(page, "Log in with GitHub")
      await github.waitFor()
      for (const other of ["Log in with Google", "Log in with GitLab"]) expect(await link(page, other).count()).toBe(0)
      expect(await github.getAttribute("href")).toBe(`/login/github/?${new URLSearchParams({ next })}`)
      expect(await seriousViolations(page)).toEqual([])

      const start = await answerTo(page, "/login/github/", () => github.click())
      expect(start.status()).toBe(302)
      const location = new URL((await start.allHeaders())["location"]!)
      expect(`${location.origin}${location.pathname}`).toBe(`${provider.url}/login/oauth/authorize`)
      expect(location.searchParams.get("client_id")).toBe("Iv1.console")
      await page.waitForURL(location.href)
      expect(await page.title()).toBe("Identity provider")
    }))

  it("offers only the provider a domain enforces, and Enter in the e-mail field goes there", () =>
    withPage({}, async (page) => {
      await page.goto(`${world.base}/login`)
      const form = logInForm(page)
      await form.email.fill(`lin@${GITHUB_ENFORCED}`)
      const github = link(page, "Log in with GitHub")
      await expect.poll(() => form.password.count()).toBe(0)
      expect(await github.count()).toBe(1)
      expect(await github.getAttribute("class")).toBe("button primary")
      expect(await github.getAttribute("href")).toBe("/login/github/")

      const start = await answerTo(page, "/login/github/", () => form.email.press("Enter"))
      expect(start.status()).toBe(302)
      expect(new URL((await start.allHeaders())["location"]!).pathname).toBe("/login/oauth/authorize")
    }))

  it("says why a refused SSO log-in came back, in an alert that has the focus, and keeps next through a password log-in", async () => {
    const codes: ReadonlyArray<readonly [query: Record<string, string>, words: string]> = [
      ...Object.entries(SSO_REFUSAL_WORDS).map(([code, words]) => [{ error_code: code }, words] as const),
      [{ error_code: "social_login_failure", error_detail: "The identity provider's answer was not signed." }, "The identity provider's answer was not signed."],
      [{ error_code: "social_login_failure" }, SSO_FAILURE_WORDS],
      [{ error_code: "oauth_cancelled" }, SSO_FAILURE_WORDS],
      // A detail goes with a failure at the provider only: no other code's words can be replaced by a link.
      [{ error_code: "inactive", error_detail: "Call this number" }, SSO_REFUSAL_WORDS.inactive],
      [{ error_code: "no_such_code" }, SSO_FAILURE_WORDS]
    ]
    await withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      for (const [query, words] of codes) {
        await page.goto(`${world.base}/login?${new URLSearchParams(query)}`)
        const alert = page.getByRole("alert")
        await alert.waitFor()
        expect(await alert.innerText(), query["error_code"]).toBe(words)
        expect(await isFocused(alert), query["error_code"]).toBe(true)
        // The e-mail field is the next stop of the keyboard.
        await page.keyboard.press("Tab")
        expect(await isFocused(logInForm(page).email)).toBe(true)
        expect(await fitsSideways(page)).toBe(true)
      }
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme })
        expect(await seriousViolations(page), colorScheme).toEqual([])
      }

      const next = `/organization/${owner.organization}`
      await page.goto(`${world.base}/login?${new URLSearchParams({ error_code: "jit_not_enabled", next })}`)
      const form = logInForm(page)
      await form.email.fill(owner.email)
      await form.password.fill(owner.password)
      await form.submit.click()
      await page.waitForURL(`${world.base}${next}`)
    })
  })
})
