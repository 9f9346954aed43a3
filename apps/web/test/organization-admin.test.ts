import { BatchExportService, systemActor } from "@hedgerow/core"
import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { isFocused, seriousViolations, useConsole } from "./harness.ts"

// The organization's domains and batch exports in Chromium, against the real server, which asks a DNS
// server of the test's for domain challenges: each step is checked against what the API then holds.
const world = useConsole({ network: true })
const { owner, held, withPage } = world

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

const apiDomains = () => `/api/organizations/${owner.organization}/domains/`
const apiExports = () => `/api/organizations/${owner.organization}/batch_exports/`

const NAME = "acme-console.example"

describe("the organization's administration pages in Chromium", () => {
  it("adds a domain, shows the TXT record the API's challenge needs, verifies it once DNS has it, switches JIT provisioning and SSO on, and deletes it", () =>
    withPage({ permissions: ["clipboard-read", "clipboard-write"] }, async (page) => {
      await world.logInAt(page, `/organization/${owner.organization}`)
      await page.getByRole("link", { name: "Domains" }).click()
      await page.waitForURL(`${world.base}/organization/${owner.organization}/domains`)
      await page.getByText("This organization has no domains yet.").waitFor()
      await accessible(page, "no domains")

      // The API's refusal, in its words, by the field its attr names; nothing is held.
      const field = page.getByLabel("Domain", { exact: true })
      await field.fill("Not A Domain")
      await page.getByRole("button", { name: "Add domain" }).click()
      await page.getByText("Please enter a valid domain or subdomain name.").waitFor()
      expect(await field.getAttribute("aria-invalid")).toBe("true")
      expect((await held(apiDomains())).count).toBe(0)

      await field.fill(NAME)
      await page.getByRole("button", { name: "Add domain" }).click()
      const card = page.getByRole("article", { name: NAME })
      await card.waitFor()
      const [domain] = (await held(apiDomains())).results
      expect(domain).toMatchObject({ domain: NAME, is_verified: false, jit_provisioning_enabled: false, sso_enforcement: "" })

      // The record to publish: its name where the server looks, its value the API's challenge, both copyable.
      const record = `_hedgerow-challenge.${NAME}`
      await card.getByText(record, { exact: true }).waitFor()
      expect(await card.locator("code.challenge").textContent()).toBe(domain.verification_challenge)
      await card.getByRole("button", { name: `Copy the record value for ${NAME}` }).click()
      await card.getByText("Copied.").waitFor()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(domain.verification_challenge)
      // Only a verified domain offers JIT provisioning and SSO enforcement.
      expect(await card.getByRole("switch").count()).toBe(0)
      await accessible(page, "an unverified domain")

      // Nothing in DNS yet: the domain stays unverified, and the page says so.
      await card.getByRole("button", { name: `Verify ${NAME}` }).click()
      await card.getByRole("status").getByText(`${NAME} is not verified yet: no TXT record at ${record} holds its challenge.`, { exact: false }).waitFor()
      expect((await held(`${apiDomains()}${domain.id}/`)).is_verified).toBe(false)

      world.network!.publishTxt(record, [domain.verification_challenge])
      await card.getByRole("button", { name: `Verify ${NAME}` }).click()
      await card.getByRole("status").getByText(`${NAME} is verified.`).waitFor()
      const verified = await held(`${apiDomains()}${domain.id}/`)
      expect(verified.is_verified).toBe(true)
      await card.getByText("Verified", { exact: true }).waitFor()
      expect(await card.locator(`time[datetime="${verified.verified_at}"]`).count()).toBe(1)
      expect(await card.getByRole("button", { name: `Verify ${NAME}` }).count()).toBe(0)

      // A refusal of a setting is shown by that setting, and nothing is written.
      const entity = card.getByLabel("SAML entity ID")
      await entity.fill("e".repeat(513))
      await card.getByRole("button", { name: "Save settings" }).click()
      await card.getByText("Ensure this field has no more than 512 characters.").waitFor()
      expect(await entity.getAttribute("aria-invalid")).toBe("true")
      expect((await held(`${apiDomains()}${domain.id}/`)).saml_entity_id).toBe(null)

      // This server has no OAuth provider and the domain no SAML yet: nothing can be enforced.
      const enforce = card.getByLabel("Enforce SSO")
      expect(await enforce.locator("option").allTextContents()).toEqual(["Not enforced"])
      await entity.fill("https://idp.example/entity")
      await card.getByLabel("SAML sign-in URL (ACS)").fill("https://idp.example/sso")
      await card.getByLabel("SAML X.509 certificate").fill("MIIC")
      await card.getByRole("switch", { name: "Just-in-time provisioning" }).check()
      await card.getByRole("button", { name: "Save settings" }).click()
      await card.getByRole("status").getByText("Settings saved.").waitFor()
      // With its SAML set up, SAML can be enforced, and the card says what that means.
      expect(await enforce.locator("option").allTextContents()).toEqual(["Not enforced", "SAML"])
      await enforce.selectOption("saml")
      await card.getByRole("button", { name: "Save settings" }).click()
      await card.getByText(`People at ${NAME} must log in with SAML.`, { exact: true }).waitFor()
      expect(await held(`${apiDomains()}${domain.id}/`)).toMatchObject({
        is_verified: true,
        jit_provisioning_enabled: true,
        sso_enforcement: "saml",
        has_saml: true,
        saml_entity_id: "https://idp.example/entity"
      })
      await accessible(page, "a verified domain")

      // Deleting asks first, in a dialog that opens on Cancel; Cancel keeps the domain and gives the keyboard its place back.
      const remove = card.getByRole("button", { name: `Delete ${NAME}` })
      await remove.click()
      const question = page.getByRole("dialog", { name: `Delete ${NAME}?` })
      expect(await isFocused(question.getByRole("button", { name: "Cancel" }))).toBe(true)
      await accessible(page, "the delete confirmation")
      await question.getByRole("button", { name: "Cancel" }).click()
      await question.waitFor({ state: "hidden" })
      expect(await isFocused(remove)).toBe(true)
      expect((await held(apiDomains())).count).toBe(1)

      await remove.click()
      await question.getByRole("button", { name: "Delete domain" }).click()
      await page.getByRole("status").getByText(`${NAME} was deleted.`).waitFor()
      expect(await isFocused(page.getByRole("heading", { level: 2, name: "Domains" }))).toBe(true)
      await page.getByText("This organization has no domains yet.").waitFor()
      expect((await held(apiDomains())).count).toBe(0)
    }))

  it("lists the organization's batch exports and pauses and resumes one, the API holding each state", () =>
    withPage({}, async (page) => {
      await world.logInAt(page, `/organization/${owner.organization}/batch-exports`)
      await page.getByText("This organization has no batch exports.").waitFor()
      await accessible(page, "no batch exports")

      // Operators make them: here as `hedgerow admin batch-exports create` does, in-process.
      for (const name of ["Nightly events", "Persons weekly"]) {
        await world.operate(BatchExportService.use((s) => s.create(systemActor, owner.organization, { project_id: owner.project, name })))
      }
      await page.reload()
      const row = page.getByRole("row", { name: /^Nightly events/ })
      await row.waitFor()
      const { results } = await held(apiExports())
      expect(results.map((item: { name: string }) => item.name)).toEqual(["Persons weekly", "Nightly events"])
      const id = results[1].id
      expect(await row.getByRole("cell").allTextContents()).toEqual(["Not set", "hour", "Running", "Never", "Pause Nightly events"])
      await accessible(page, "batch exports")

      await row.getByRole("button", { name: "Pause Nightly events" }).click()
      await page.getByRole("status").getByText("Nightly events is paused.").waitFor()
      const paused = await held(`${apiExports()}${id}/`)
      expect(paused.paused).toBe(true)
      expect(paused.last_paused_at).not.toBe(null)
      await row.getByText("Paused", { exact: true }).waitFor()
      expect(await row.locator(`time[datetime="${paused.last_paused_at}"]`).count()).toBe(1)
      expect((await held(apiExports())).results[0].paused).toBe(false)
      await accessible(page, "a paused batch export")

      await row.getByRole("button", { name: "Unpause Nightly events" }).click()
      await page.getByRole("status").getByText("Nightly events is running.").waitFor()
      const resumed = await held(`${apiExports()}${id}/`)
      expect([resumed.paused, resumed.last_paused_at]).toEqual([false, paused.last_paused_at])
      await row.getByText("Running", { exact: true }).waitFor()
      await row.getByRole("button", { name: "Pause Nightly events" }).waitFor()
    }))
})
