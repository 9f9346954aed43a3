import { bodyOf, DomainService, systemActor, totpCode } from "@hedgerow/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { isFocused, logInForm, seriousViolations, useConsole } from "./harness.ts"

// Rights reflected and risky changes asked first on the organization's pages, in Chromium against the real
// server (GitHub configured as its one OAuth provider): a member below administrator level sees the
// roles, members and domains read-only; an owner's promotion of a member to owner, and the organization's
// two-factor rule, are asked first. Each step is checked against what the API then holds.
const world = useConsole({
  env: () => ({
    HEDGEROW_OAUTH_GITHUB_CLIENT_ID: "Iv1.rights",
    HEDGEROW_OAUTH_GITHUB_CLIENT_SECRET: "rights-github-secret"
  })
})
const { owner, held, withPage } = world

const MEMBER = { email: "mo@example.com", password: "mo's long password" }
const TEAMMATE = "lee@example.com"
const SAML_DOMAIN = "acme-rights.example"
const OPEN_DOMAIN = "open-rights.example"

const organizationPath = () => `/organization/${owner.organization}`
const apiOrganization = () => `/api/organizations/${owner.organization}/`
const apiMembers = () => `${apiOrganization()}members/`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

const call = async (method: string, path: string, body: unknown, as = owner.key) => {
  const response = await fetch(`${world.base}${path}`, {
    method,
    headers: { ...(as === "" ? {} : { authorization: `Bearer ${as}` }), "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(response.status, `${method} ${path}`).toBeLessThan(300)
  return response.json()
}

/** A new member at `level` with a password, made through the API: invited by the owner, then signed up. */
const join = async (email: string, level: 1 | 8, password: string) => {
  const invite = await call("POST", `${apiOrganization()}invites/`, { target_email: email, level, send_email: false })
  await call("POST", `/api/signup/${invite.id}/`, { first_name: email.split("@")[0], password }, "")
}

/** A verified domain of the owner's organization, as the DNS check would leave it, with `settings`. */
const verifiedDomain = (name: string, settings: Record<string, unknown>) =>
  world.operate(Effect.gen(function*() {
    const created = yield* DomainService.use((s) => s.create(systemActor, owner.organization, bodyOf({ domain: name })))
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${created.id}`
    yield* DomainService.use((s) => s.update(systemActor, owner.organization, created.id, bodyOf(settings)))
  }))

/** Logs `who` in from `path` (a deep link) and waits to be back there. */
const logInAs = async (page: Page, who: { email: string; password: string }, path: string) => {
  await page.goto(`${world.base}/login?${new URLSearchParams({ next: path })}`)
  const form = logInForm(page)
  await form.email.fill(who.email)
  await form.password.fill(who.password)
  await form.submit.click()
  await page.waitForURL(`${world.base}${path}`)
}

const levelOf = async (email: string) => (await held(`${apiMembers()}?${new URLSearchParams({ email })}`)).results[0].level

beforeAll(async () => {
  await join(MEMBER.email, 1, MEMBER.password)
  await join(TEAMMATE, 1, "lee's long password")
  const role = await call("POST", `${apiOrganization()}roles/`, { name: "Checkout team", feature_flags_access_level: 21 })
  const lee = (await held(`${apiMembers()}?email=${TEAMMATE}`)).results[0].user.uuid
  await call("POST", `${apiOrganization()}roles/${role.id}/role_memberships/`, { user_uuid: lee })
  await verifiedDomain(SAML_DOMAIN, {
    saml_entity_id: "https://idp.acme-rights.example/metadata",
    saml_acs_url: "https://idp.acme-rights.example/sso",
    saml_x509_cert: "MIIC",
    sso_enforcement: "saml",
    jit_provisioning_enabled: true
  })
  await verifiedDomain(OPEN_DOMAIN, {})
})

describe("rights and confirmations on the organization's pages", () => {
  it("shows a member the roles, members, domains and two-factor rule to read, with no control the API would refuse them", () =>
    withPage({}, async (page) => {
      await logInAs(page, MEMBER, `${organizationPath()}/roles`)
      const role = page.getByRole("article", { name: "Checkout team" })
      await role.getByRole("cell", { name: TEAMMATE, exact: true }).waitFor()
      await role.getByText("Can only view feature flags, and edit those granted to the role.").waitFor()
      await page.getByText("Only administrators and owners change roles and their members.").waitFor()
      expect(await page.getByRole("main").getByRole("button").count()).toBe(0)
      expect(await page.getByRole("main").getByRole("textbox").count()).toBe(0)
      expect(await page.getByRole("region", { name: "New role" }).count()).toBe(0)
      await accessible(page, "roles, read-only")

      await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Members" }).click()
      await page.getByRole("cell", { name: TEAMMATE, exact: true }).waitFor()
      // Their one control is leaving; no level to change, no one to remove.
      expect(await page.getByRole("main").getByRole("combobox").count()).toBe(0)
      expect(await page.getByRole("main").getByRole("button").allTextContents()).toEqual(["Leave organization"])
      await accessible(page, "members, read-only")

      await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Domains" }).click()
      const saml = page.getByRole("article", { name: SAML_DOMAIN })
      await saml.getByText(`People at ${SAML_DOMAIN} must log in with SAML.`, { exact: true }).waitFor()
      await saml.getByText(`Anyone at ${SAML_DOMAIN} who logs in with single sign-on joins the organization as a member`, { exact: false }).waitFor()
      await saml.getByText("https://idp.acme-rights.example/sso", { exact: true }).waitFor()
      const open = page.getByRole("article", { name: OPEN_DOMAIN })
      await open.getByText(`People at ${OPEN_DOMAIN} may log in with a password or any way this server offers.`).waitFor()
      await open.getByText(`People at ${OPEN_DOMAIN} join the organization only when invited.`).waitFor()
      await page.getByText("Only administrators and owners add, verify and set up domains.").waitFor()
      expect(await page.getByRole("main").getByRole("button").count()).toBe(0)
      expect(await page.getByRole("main").getByRole("textbox").count()).toBe(0)
      expect(await page.getByRole("main").getByRole("switch").count()).toBe(0)
      await accessible(page, "domains, read-only")

      await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Projects" }).click()
      const rule = page.getByRole("region", { name: "Two-factor authentication" })
      await rule.getByText("does not require two-factor authentication.", { exact: false }).waitFor()
      expect(await rule.getByRole("switch").count()).toBe(0)
      await accessible(page, "the organization, read-only")
    }))

  it("offers an administrator SSO enforcement among the providers usable for each domain", () =>
    withPage({}, async (page) => {
      await world.logInAt(page, `${organizationPath()}/domains`)
      const saml = page.getByRole("article", { name: SAML_DOMAIN })
      const enforce = saml.getByLabel("Enforce SSO")
      await enforce.waitFor()
      expect(await enforce.locator("option").allTextContents()).toEqual(["Not enforced", "GitHub", "SAML"])
      // No SAML set up for this one: GitHub alone, of the providers.
      const open = page.getByRole("article", { name: OPEN_DOMAIN })
      expect(await open.getByLabel("Enforce SSO").locator("option").allTextContents()).toEqual(["Not enforced", "GitHub"])
      await open.getByLabel("Enforce SSO").selectOption({ label: "GitHub" })
      await open.getByRole("button", { name: "Save settings" }).click()
      await open.getByText(`People at ${OPEN_DOMAIN} must log in with GitHub.`).waitFor()
      const domains = await held(`${apiOrganization()}domains/`)
      expect(domains.results.find((domain: { domain: string }) => domain.domain === OPEN_DOMAIN).sso_enforcement).toBe("github")
      await accessible(page, "domains, an administrator's")
    }))

  it("asks before making a member an owner: Cancel keeps their level, confirming changes it; taking it back asks too", () =>
    withPage({}, async (page) => {
      await world.logInAt(page, `${organizationPath()}/members`)
      const level = page.getByLabel(`Level of ${TEAMMATE}`)
      await level.selectOption({ label: "Owner" })
      const change = page.getByRole("button", { name: `Change level of ${TEAMMATE}` })
      await change.click()
      const dialog = page.getByRole("dialog", { name: `Make ${TEAMMATE} an owner?` })
      await dialog.getByText("Owners may do everything", { exact: false }).waitFor()
      const keep = dialog.getByRole("button", { name: "Keep member" })
      expect(await isFocused(keep)).toBe(true)
      await accessible(page, "promotion to owner asked")
      await keep.click()
      expect(await dialog.isVisible()).toBe(false)
      expect(await levelOf(TEAMMATE)).toBe(1)

      await change.click()
      await dialog.getByRole("button", { name: "Make owner" }).click()
      await page.getByRole("status").getByText(`${TEAMMATE} is now Owner.`).waitFor()
      expect(await levelOf(TEAMMATE)).toBe(15)

      // Back to member: an owner's powers taken away, asked too.
      await page.getByLabel(`Level of ${TEAMMATE}`).selectOption({ label: "Member" })
      await page.getByRole("button", { name: `Change level of ${TEAMMATE}` }).click()
      const demotion = page.getByRole("dialog", { name: `Make ${TEAMMATE} a member?` })
      await demotion.getByText("They will no longer be an owner", { exact: false }).waitFor()
      await demotion.getByRole("button", { name: "Make member" }).click()
      await page.getByRole("status").getByText(`${TEAMMATE} is now Member.`).waitFor()
      expect(await levelOf(TEAMMATE)).toBe(1)
    }))

  it("switches the organization's two-factor rule on and off, asking first and saying who is affected", () =>
    withPage({}, async (page) => {
      await world.logInAt(page, organizationPath())
      const rule = page.getByRole("region", { name: "Two-factor authentication" })
      const toggle = rule.getByRole("switch", { name: "Require two-factor authentication" })
      expect(await toggle.getAttribute("aria-checked")).toBe("false")
      await accessible(page, "the organization, an administrator's")

      await toggle.click()
      const dialog = page.getByRole("dialog", { name: /^Require two-factor authentication in / })
      await dialog.getByText("It concerns every member whose current organization this is", { exact: false }).waitFor()
      await dialog.getByText("You have no authenticator app yet", { exact: false }).waitFor()
      await accessible(page, "the rule's question")
      await dialog.getByRole("button", { name: "Cancel" }).click()
      expect((await held(apiOrganization())).enforce_2fa).not.toBe(true)
      expect(await isFocused(toggle)).toBe(true)

      await toggle.click()
      await dialog.getByRole("button", { name: "Require it" }).click()
      // The owner has no app: the rule now holds them too, and the console sends them to set one up.
      await page.waitForURL(`${world.base}/settings/two-factor?required=setup`)
      expect((await held(apiOrganization())).enforce_2fa).toBe(true)
      await page.getByRole("button", { name: "Set up an authenticator app" }).click()
      const secret = (await page.locator(".key-value code").innerText()).replaceAll(" ", "")
      await page.getByLabel("Code from the app").fill(totpCode(secret, Date.now()))
      await page.getByRole("button", { name: "Turn on" }).click()
      await page.getByText("On, with an authenticator app.", { exact: false }).waitFor()

      // Back on the organization's page, the switch is on; turning it off asks too.
      await page.goto(`${world.base}${organizationPath()}`)
      expect(await toggle.getAttribute("aria-checked")).toBe("true")
      await toggle.click()
      const off = page.getByRole("dialog", { name: /^Stop requiring two-factor authentication in / })
      await off.getByText("Members without an app may then use the console with their password alone", { exact: false }).waitFor()
      await off.getByRole("button", { name: "Stop requiring it" }).click()
      await page.waitForFunction(() => document.querySelector("[role=switch]")?.getAttribute("aria-checked") === "false")
      expect((await held(apiOrganization())).enforce_2fa).toBe(false)
    }).finally(() => call("PATCH", apiOrganization(), { enforce_2fa: false })))
})
