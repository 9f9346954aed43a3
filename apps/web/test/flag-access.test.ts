import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { isFocused, seriousViolations, useConsole } from "./harness.ts"

// The flag page's role access tab, its status and the test evaluation's runtime, in Chromium against the
// real server; each step checked against what the API then holds (asked with the owner's key).
const world = useConsole()
const { owner, held } = world

const apiFlags = () => `/api/projects/${owner.project}/feature_flags/`
const flagPage = (id: number, query = "") => `/project/${owner.project}/flags/${id}${query}`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** A write with the owner's key; its answer's body. */
const sent = async (method: string, path: string, body: unknown, status: number) => {
  const response = await fetch(`${world.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(response.status, `${method} ${path}`).toBe(status)
  return response.json()
}

const flags = { checkout: 0, search: 0 }
const roles = { checkout: "", support: "" }

beforeAll(async () => {
  flags.checkout = (await sent("POST", apiFlags(), { key: "checkout-redesign", tags: ["checkout"] }, 201)).id
  flags.search = (await sent("POST", apiFlags(), {
    key: "search-v2",
    evaluation_runtime: "server",
    filters: { groups: [{ properties: [], rollout_percentage: 100 }] }
  }, 201)).id
  const rolesPath = `/api/organizations/${owner.organization}/roles/`
  roles.checkout = (await sent("POST", rolesPath, { name: "Checkout team", feature_flags_access_level: 21 }, 201)).id
  roles.support = (await sent("POST", rolesPath, { name: "Support", feature_flags_access_level: 37 }, 201)).id
})

describe("the flag page's role access, status and test evaluation in Chromium", () => {
  it("grants a role access from the organization's roles and takes it away, as the API then holds", () =>
    world.withPage({}, async (page) => {
      const grants = `${apiFlags()}${flags.checkout}/role_access/`
      await world.logInAt(page, flagPage(flags.checkout))
      await page.getByLabel("Key", { exact: true }).waitFor()
      await accessible(page, "settings tab")

      await page.getByRole("link", { name: "Role access" }).click()
      await page.waitForURL(`${world.base}${flagPage(flags.checkout, "?tab=access")}`)
      await page.getByText("No role has access to this flag yet.").waitFor()
      expect((await held(grants)).count).toBe(0)
      // The select offers the organization's roles, as the API lists them.
      const listed = await held(`/api/organizations/${owner.organization}/roles/`)
      const role = page.getByLabel("Role", { exact: true })
      await page.waitForFunction(() => document.querySelectorAll("select option").length > 1)
      expect(await role.locator("option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)))
        .toEqual(["", ...listed.results.map((role: { id: string }) => role.id)])

      // No role chosen: said by the field, nothing sent.
      await page.getByRole("button", { name: "Add role" }).click()
      await page.getByText("Choose a role to add.").waitFor()
      expect(await role.getAttribute("aria-invalid")).toBe("true")
      expect((await held(grants)).count).toBe(0)

      await role.selectOption(roles.checkout)
      await page.getByRole("button", { name: "Add role" }).click()
      await page.getByRole("status").getByText("Checkout team now has access.").waitFor()
      const added = await held(grants)
      expect(added.results.map((grant: { role: { id: string } }) => grant.role.id)).toEqual([roles.checkout])
      await page.getByRole("rowheader", { name: "Checkout team" }).waitFor()
      expect(await page.getByRole("table").getByRole("rowheader").allTextContents())
        .toEqual(added.results.map((grant: { role: { name: string } }) => grant.role.name))
      // A role granted already is not offered again.
      expect(await role.locator("option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)))
        .toEqual(["", roles.support])
      await accessible(page, "access tab with a grant")

      // The tab is in the URL: a reload shows the same grant.
      await page.reload()
      await page.getByRole("rowheader", { name: "Checkout team" }).waitFor()

      await page.getByRole("button", { name: "Remove Checkout team" }).click()
      await page.getByRole("status").getByText("Checkout team no longer has access.").waitFor()
      expect((await held(grants)).count).toBe(0)
      await page.getByText("No role has access to this flag yet.").waitFor()
      // The removed row's button is gone: the keyboard goes on from the section's heading.
      expect(await isFocused(page.getByRole("heading", { name: "Role access" }))).toBe(true)
      await accessible(page, "empty access tab")
    }))

  it("shows the flag's status and reason as GET …/status/ answers them, and when it was last evaluated", () =>
    world.withPage({ colorScheme: "dark" }, async (page) => {
      const statusPath = `${apiFlags()}${flags.checkout}/status/`
      const statusShown = async () => {
        await page.locator(".status-reason").waitFor()
        return {
          status: (await page.locator(".flag-status .badge").textContent())!.toLowerCase(),
          reason: await page.locator(".status-reason").textContent()
        }
      }
      expect((await held(`${apiFlags()}${flags.checkout}/`)).last_called_at).toBeNull()
      await world.logInAt(page, flagPage(flags.checkout))
      expect(await statusShown()).toEqual(await held(statusPath))
      expect(await held(statusPath)).toMatchObject({ status: "active" })
      await page.locator(".flag-status").getByText("Never", { exact: true }).waitFor()

      // Turned off in the page: the status is read again and says why, as the API does.
      await page.getByRole("switch", { name: "Active" }).uncheck()
      await page.getByRole("button", { name: "Save" }).click()
      await page.getByRole("dialog").getByRole("button", { name: "Save the changes" }).click()
      await page.getByRole("status").getByText("Saved.").waitFor()
      await page.locator(".flag-status .badge", { hasText: "Inactive" }).waitFor()
      expect(await held(statusPath)).toEqual({ status: "inactive", reason: "Flag is disabled" })
      expect(await statusShown()).toEqual(await held(statusPath))

      // Evaluated by an SDK: after a reload the page shows when, as the flag's last_called_at.
      const project = await held(`/api/projects/${owner.project}/`)
      await sent("PATCH", `${apiFlags()}${flags.checkout}/`, { active: true }, 200)
      const evaluation = await fetch(`${world.base}/flags/?v=2`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token: project.api_token, distinct_id: "user-1", flag_keys_to_evaluate: ["checkout-redesign"] })
      })
      expect(evaluation.status).toBe(200)
      const calledAt = (await held(`${apiFlags()}${flags.checkout}/`)).last_called_at
      expect(calledAt).not.toBeNull()
      await page.reload()
      const time = page.locator(".flag-status time")
      await time.waitFor()
      expect(await time.getAttribute("datetime")).toBe(calledAt)
      expect(await time.textContent()).toMatch(/now|second|minute/)
      expect(await statusShown()).toEqual(await held(statusPath))
    }))

  it("evaluates a flag made for servers only in the test evaluation, which a browser's request would leave out", () =>
    world.withPage({}, async (page) => {
      const project = await held(`/api/projects/${owner.project}/`)
      const ask = async (runtime: string | undefined) => {
        const response = await fetch(`${world.base}/flags/?v=2`, {
          method: "POST",
          headers: { "content-type": "application/json", "user-agent": "Mozilla/5.0 Chrome/140.0" },
          body: JSON.stringify({
            token: project.api_token,
            distinct_id: "user-1",
            flag_keys_to_evaluate: ["search-v2"],
            ...(runtime === undefined ? {} : { evaluation_runtime: runtime })
          })
        })
        expect(response.status).toBe(200)
        return (await response.json()).flags
      }
      // A browser counts as a client, so without a runtime the flag is not evaluated at all.
      expect(await ask(undefined)).toEqual({})
      const expected = (await ask("all"))["search-v2"]
      expect(expected).toMatchObject({ enabled: true })

      await world.logInAt(page, flagPage(flags.search, "?tab=evaluate"))
      await page.getByLabel("Distinct ID").fill("user-1")
      await page.getByRole("button", { name: "Evaluate" }).click()
      const result = page.getByRole("status", { name: "Evaluation result" }).locator("dd")
      await result.first().waitFor()
      expect(await result.allTextContents()).toEqual([
        String(expected.enabled),
        "None",
        "None",
        `${expected.reason.description} (${expected.reason.code})`
      ])
      await accessible(page, "test evaluation of a server-only flag")
    }))
})
