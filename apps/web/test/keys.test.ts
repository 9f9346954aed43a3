import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hrefOf, parseRoute, type Route } from "../src/router/routes.ts"
import { isFocused, seriousViolations, useConsole } from "./harness.ts"

// The personal API keys pages in Chromium, against the real server: every key the page makes, rolls or
// revokes is then tried against the API itself, and looked for in what the API lists (asked with the
// owner's key), not only on the page.
const world = useConsole()
const { owner, held, withPage } = world

const KEYS_PAGE = "/settings/personal-api-keys"
const API_KEYS = "/api/personal_api_keys/"
const flagsPath = () => `/api/projects/${owner.project}/feature_flags/`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** The status the API answers a request made with `key` as its bearer. */
const statusWith = async (key: string, method: "GET" | "POST", path: string, body?: unknown) => {
  const response = await fetch(`${world.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return response.status
}

/** A write with the owner's key, as a script would make it. */
const asOwner = (method: "POST" | "DELETE", path: string, body?: unknown) =>
  fetch(`${world.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

interface HeldKey {
  id: string
  label: string
  value: string | null
  mask_value: string
  scopes: Array<string>
  scoped_teams: Array<number>
  scoped_organizations: Array<string>
  last_used_at: string | null
  last_rolled_at: string | null
}
const heldKeys = (): Promise<Array<HeldKey>> => held(API_KEYS)

/** The value the page shows once, in its panel. */
const shownValue = async (page: Page) => {
  const panel = page.getByRole("region", { name: /^The value of/ })
  await panel.waitFor()
  return (await panel.locator("code").textContent()) ?? ""
}

/** Whether `value` is anywhere in the page: its markup or any field's value. */
const onPage = async (page: Page, value: string) =>
  (await page.content()).includes(value) ||
  (await page.locator("input, textarea").evaluateAll((fields, text) => fields.some((field) => (field as HTMLInputElement).value.includes(text)), value))

/** Where the API's words for a field stand: the element its control (or group) names as describing it. */
const describedBy = async (page: Page, control: ReturnType<Page["getByLabel"]>) => {
  const ids = (await control.getAttribute("aria-describedby")) ?? ""
  return Promise.all(ids.split(" ").filter((id) => id !== "").map((id) => page.locator(`[id="${id}"]`).textContent()))
}

describe("the personal API keys pages' URLs", () => {
  it("name every page, and each page's URL names it back", () => {
    const routes: Array<Exclude<Route, { page: "notFound" }>> = [
      { page: "personalApiKeys" },
      { page: "newPersonalApiKey" },
      { page: "personalApiKey", keyId: "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b" }
    ]
    for (const route of routes) {
      const url = new URL(hrefOf(route), "http://console.test")
      expect(parseRoute(url.pathname, url.search)).toEqual(route)
    }
    expect(parseRoute("/settings/personal-api-keys/x/more", "")).toEqual({ page: "notFound" })
    expect(parseRoute("/settings", "")).toEqual({ page: "notFound" })
  })
})

describe("the personal API keys pages in Chromium", () => {
  it("creates a key restricted to a project, shows its value once, rolls it and revokes it, each as the API then answers", () =>
    withPage({ permissions: ["clipboard-read", "clipboard-write"] }, async (page) => {
      const project = await held(`/api/projects/${owner.project}/`)
      await world.logInAt(page, `/project/${owner.project}`)

      // From the shell's link to the list, which holds the first start's key only.
      await page.getByRole("banner").getByRole("link", { name: "Personal API keys" }).click()
      await page.waitForURL(`${world.base}${KEYS_PAGE}`)
      const before = await heldKeys()
      expect(before).toHaveLength(1)
      await page.getByRole("row", { name: new RegExp(before[0]!.mask_value.replace(/\./g, "\\.")) }).waitFor()
      await accessible(page, "keys list")

      await page.getByRole("link", { name: "New personal API key" }).click()
      await page.waitForURL(`${world.base}${KEYS_PAGE}/new`)
      await page.getByLabel("Label", { exact: true }).fill("CI reader")
      await page.getByLabel("Feature flag", { exact: true }).selectOption("read")
      await page.getByLabel("Only some projects").check()
      await page.getByLabel(project.name, { exact: true }).check()
      await accessible(page, "new key form")
      await page.getByRole("button", { name: "Create key" }).click()

      // The value, once, with a warning and a copy button that copies it.
      const value = await shownValue(page)
      expect(value).toMatch(/^phx_/)
      await page.getByText("Copy it now: it is shown this once.").waitFor()
      await page.getByRole("button", { name: "Copy the key's value" }).click()
      await page.getByRole("status").getByText("Copied.").waitFor()
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(value)
      await accessible(page, "new key's value")

      // It works for what it grants, and only that.
      expect(await statusWith(value, "GET", flagsPath())).toBe(200)
      expect(await statusWith(value, "POST", flagsPath(), { key: "made-by-a-reader" })).toBe(403)
      expect((await held(flagsPath())).count).toBe(0)

      // The API holds it with those scopes and that project, and never its value.
      const made = (await heldKeys()).find((key) => key.label === "CI reader")!
      expect(made).toMatchObject({ value: null, scopes: ["feature_flag:read"], scoped_teams: [owner.project], scoped_organizations: [] })
      expect(value.endsWith(made.mask_value.slice(-4))).toBe(true)

      // A reload forgets it: an empty form, and the list shows only its mask.
      await page.reload()
      await page.getByLabel("Label", { exact: true }).waitFor()
      expect(await page.getByLabel("Label", { exact: true }).inputValue()).toBe("")
      expect(await onPage(page, value)).toBe(false)
      await page.getByRole("link", { name: "Personal API keys" }).first().click()
      await page.waitForURL(`${world.base}${KEYS_PAGE}`)
      const row = page.getByRole("row", { name: /CI reader/ })
      await row.waitFor()
      const cells = await row.getByRole("cell").allTextContents()
      expect(cells.slice(0, 3)).toEqual([made.mask_value, "Feature flag: read", `Projects: ${project.name}`])
      // Never rolled yet (the last column but the actions).
      expect(cells[5]).toBe("Never")
      expect(await onPage(page, value)).toBe(false)

      // Roll, once asked: the old value is refused at once, the new one works and is shown once.
      await row.getByRole("button", { name: "Roll “CI reader”" }).click()
      const dialog = page.getByRole("dialog", { name: "Roll “CI reader”?" })
      await dialog.waitFor()
      await accessible(page, "roll dialog")
      await dialog.getByRole("button", { name: "Roll key" }).click()
      await dialog.waitFor({ state: "hidden" })
      const rolled = await shownValue(page)
      expect(await isFocused(page.getByRole("heading", { name: "The value of “CI reader”" }))).toBe(true)
      expect(rolled).toMatch(/^phx_/)
      expect(rolled).not.toBe(value)
      expect(await statusWith(value, "GET", flagsPath())).toBe(401)
      expect(await statusWith(rolled, "GET", flagsPath())).toBe(200)
      const afterRoll = (await heldKeys()).find((key) => key.id === made.id)!
      expect(afterRoll.last_rolled_at).not.toBeNull()
      expect(afterRoll.scopes).toEqual(["feature_flag:read"])
      await page.reload()
      await page.getByRole("row", { name: /CI reader/ }).waitFor()
      expect(await onPage(page, rolled)).toBe(false)
      expect(await page.getByRole("row", { name: /CI reader/ }).getByRole("cell").nth(5).textContent()).not.toBe("Never")

      // Cancelling a revoke (Escape, from Cancel, where the dialog opens) keeps the key and gives focus back;
      // confirming it ends the key, and the API lists it no more.
      const revokeButton = page.getByRole("button", { name: "Revoke “CI reader”" })
      const revoke = page.getByRole("dialog", { name: "Revoke “CI reader”?" })
      await revokeButton.click()
      await revoke.waitFor()
      expect(await isFocused(revoke.getByRole("button", { name: "Cancel" }))).toBe(true)
      await page.keyboard.press("Escape")
      await revoke.waitFor({ state: "hidden" })
      expect(await isFocused(revokeButton)).toBe(true)
      expect(await statusWith(rolled, "GET", flagsPath())).toBe(200)
      await revokeButton.click()
      await revoke.getByRole("button", { name: "Revoke key" }).click()
      await page.getByRole("status").getByText("“CI reader” is revoked.").waitFor()
      await page.getByRole("row", { name: /CI reader/ }).waitFor({ state: "detached" })
      expect(await isFocused(page.getByRole("heading", { level: 1, name: "Personal API keys" }))).toBe(true)
      expect(await statusWith(rolled, "GET", flagsPath())).toBe(401)
      expect((await heldKeys()).map((key) => key.id)).toEqual(before.map((key) => key.id))
      await accessible(page, "keys list after a revoke")
    }))

  it("shows the API's refusals by the field they name, and edits a key's label and scopes", () =>
    withPage({ colorScheme: "dark" }, async (page) => {
      await world.logInAt(page, `${KEYS_PAGE}/new`)
      const label = page.getByLabel("Label", { exact: true })
      const scopes = page.getByRole("group", { name: "Scopes" })

      // A label past 40 characters: the API's words, by the label.
      const long = "x".repeat(41)
      await label.fill(long)
      await page.getByLabel("All access (*)").check()
      await page.getByRole("button", { name: "Create key" }).click()
      await page.waitForFunction(() => document.querySelector("input[name=label]")?.getAttribute("aria-invalid") === "true")
      const tooLong = await (await asOwner("POST", API_KEYS, { label: long, scopes: ["*"] })).json()
      expect(tooLong.attr).toBe("label")
      expect(await describedBy(page, label)).toEqual([tooLong.detail])

      // No scope at all: the API's words, by the scope picker.
      await label.fill("Deploys")
      await page.getByLabel("All access (*)").uncheck()
      await page.getByRole("button", { name: "Create key" }).click()
      const none = await (await asOwner("POST", API_KEYS, { label: "Deploys", scopes: [] })).json()
      expect(none.attr).toBe("scopes")
      await scopes.getByText(none.detail, { exact: true }).waitFor()
      expect(await describedBy(page, scopes)).toContain(none.detail)
      expect(await label.getAttribute("aria-invalid")).toBeNull()
      expect(await heldKeys()).toHaveLength(1)
      await accessible(page, "new key form with a refusal")

      // Then a valid one, restricted to the organization, and its page to edit it.
      await page.getByLabel("Project", { exact: true }).selectOption("read")
      await page.getByLabel("Only some organizations").check()
      const organization = await held(`/api/organizations/${owner.organization}/`)
      await page.getByLabel(organization.name, { exact: true }).check()
      await page.getByRole("button", { name: "Create key" }).click()
      await shownValue(page)
      const made = (await heldKeys()).find((key) => key.label === "Deploys")!
      expect(made).toMatchObject({ scopes: ["project:read"], scoped_organizations: [owner.organization], scoped_teams: [] })

      await page.getByRole("link", { name: "Back to your personal API keys" }).click()
      const row = page.getByRole("row", { name: /Deploys/ })
      await row.getByRole("cell").nth(2).getByText(`Organizations: ${organization.name}`).waitFor()
      // Not used yet: the API holds no time, and the page says so.
      expect(made).toMatchObject({ last_used_at: null })
      expect(await row.getByRole("cell").nth(4).textContent()).toBe("Never")
      await row.getByRole("link", { name: "Deploys" }).click()
      await page.waitForURL(`${world.base}${KEYS_PAGE}/${made.id}`)
      await page.getByRole("heading", { level: 1, name: "Deploys" }).waitFor()
      expect(await page.getByLabel("Project", { exact: true }).inputValue()).toBe("read")
      expect(await page.getByLabel(organization.name, { exact: true }).isChecked()).toBe(true)
      await accessible(page, "key page")

      await label.fill("Deploys and flags")
      await page.getByLabel("Feature flag", { exact: true }).selectOption("write")
      await page.getByRole("button", { name: "Save" }).click()
      await page.getByRole("status").getByText("Saved.").waitFor()
      const edited = (await heldKeys()).find((key) => key.id === made.id)!
      expect(edited).toMatchObject({
        label: "Deploys and flags",
        scopes: ["project:read", "feature_flag:write"],
        scoped_organizations: [owner.organization],
        scoped_teams: []
      })
      await page.getByRole("heading", { level: 1, name: "Deploys and flags" }).waitFor()
    }))

  it("shows the 10-key limit in the API's words above the button", () =>
    withPage({}, async (page) => {
      const made: Array<string> = []
      try {
        for (let count = (await heldKeys()).length; count < 10; count++) {
          const response = await asOwner("POST", API_KEYS, { label: `Filler ${count}`, scopes: ["user:read"] })
          expect(response.status).toBe(201)
          made.push((await response.json()).id)
        }
        await world.logInAt(page, `${KEYS_PAGE}/new`)
        await page.getByLabel("Label", { exact: true }).fill("One too many")
        await page.getByLabel("User", { exact: true }).selectOption("read")
        await page.getByRole("button", { name: "Create key" }).click()
        const refusal = await asOwner("POST", API_KEYS, { label: "One too many", scopes: ["user:read"] })
        expect(refusal.status).toBe(400)
        const envelope = await refusal.json()
        expect(envelope.attr).toBeNull()
        await page.getByRole("alert").getByText(envelope.detail, { exact: true }).waitFor()
        expect(await heldKeys()).toHaveLength(10)
      } finally {
        for (const id of made) expect((await asOwner("DELETE", `${API_KEYS}${id}/`)).status).toBe(204)
      }
    }))
})
