import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { isFocused, logInForm, seriousViolations, useConsole } from "./harness.ts"

// The flag form's rights, confirmations, targeting editor and unsaved-edits guard in Chromium, against
// the real server; every step checked against what the API then holds (asked with the owner's key).
const world = useConsole()
const { owner, held } = world

const apiFlags = () => `/api/projects/${owner.project}/feature_flags/`
const flagsPath = () => `/project/${owner.project}/flags`
const flagPage = (id: number, query = "") => `${flagsPath()}/${id}${query}`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** A call with the owner's key (or none); its status and body. */
const call = async (method: string, path: string, body?: unknown, key: string | null = owner.key) => {
  const response = await fetch(`${world.base}${path}`, {
    method,
    headers: { ...(key === null ? {} : { authorization: `Bearer ${key}` }), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json().catch(() => null) }
}

/** A flag made by the owner through the API, live for everyone unless `fields` say otherwise. */
const made = async (key: string, fields: Record<string, unknown> = {}) => {
  const created = await call("POST", apiFlags(), { key, filters: { groups: [{ properties: [], rollout_percentage: 100 }] }, ...fields })
  expect(created.status).toBe(201)
  return created.body as { id: number; key: string; version: number }
}
const flagHeld = (id: number) => held(`${apiFlags()}${id}/`)

/** An SDK's evaluation of `key`, which sets the flag's `last_called_at`. */
const evaluate = async (key: string) => {
  const project = await held(`/api/projects/${owner.project}/`)
  const response = await fetch(`${world.base}/flags/?v=2`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: project.api_token, distinct_id: "user-1", flag_keys_to_evaluate: [key] })
  })
  expect(response.status).toBe(200)
}

const dialog = (page: Page, name: string | RegExp) => page.getByRole("dialog", { name })
const save = (page: Page) => page.getByRole("button", { name: "Save", exact: true }).click()
const saved = (page: Page) => page.getByRole("status").getByText("Saved.").waitFor()

/** Something of the page's main content reaches past the window's right edge (the shell's header is not this form's). */
const scrollsSideways = (page: Page) =>
  page.evaluate(() => [...document.querySelectorAll("main *")].some((element) => element.getBoundingClientRect().right > document.documentElement.clientWidth))

describe("the flag form in Chromium", () => {
  it("starts a new flag off, does not save on Enter in Key, and saves it off", () =>
    world.withPage({}, async (page) => {
      const before = (await held(apiFlags())).count
      await world.logInAt(page, `${flagsPath()}/new`)
      const active = page.getByRole("switch", { name: "Active" })
      expect(await active.isChecked()).toBe(false)
      const key = page.getByLabel("Key", { exact: true })
      await key.fill("quiet-start")
      await key.press("Enter")
      // Nothing was sent: still the new flag's page, and the API holds no more flags.
      await page.getByRole("heading", { level: 1, name: "New feature flag" }).waitFor()
      expect(page.url()).toBe(`${world.base}${flagsPath()}/new`)
      expect((await held(apiFlags())).count).toBe(before)
      await accessible(page, "new flag form")

      await save(page)
      await page.getByRole("heading", { level: 1, name: "quiet-start" }).waitFor()
      const id = Number(new URL(page.url()).pathname.split("/").pop())
      expect(await flagHeld(id)).toMatchObject({ key: "quiet-start", active: false, status: "INACTIVE" })
    }))

  it("takes a typed rollout, splits variants evenly, shows a refusal by its field until it is fixed, and moves the focus to it", () =>
    world.withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      const flag = await made("typed-rollout", { active: false })
      await world.logInAt(page, flagPage(flag.id))
      const number = page.getByLabel("Condition 1 Rollout percentage", { exact: true })
      await number.fill("30")
      expect(await page.getByLabel("Condition 1 Rollout", { exact: true }).inputValue()).toBe("30")

      // A new variant takes an even share of all: 100, then 50/50, then 34/33/33.
      const splits = () => page.getByLabel(/^Variant \d Split \(%\)$/).evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))
      for (const _ of [1, 2, 3]) await page.getByRole("button", { name: "Add a variant" }).click()
      expect(await splits()).toEqual(["34", "33", "33"])
      await page.getByLabel("Variant 1 Split (%)", { exact: true }).fill("50")
      expect(await splits()).toEqual(["50", "33", "33"])
      await page.getByRole("button", { name: "Split evenly" }).click()
      expect(await splits()).toEqual(["34", "33", "33"])

      // Splits that do not make 100: the API's refusal by the variants, the focus on it, nothing saved.
      await page.getByLabel("Variant 1 Split (%)", { exact: true }).fill("10")
      await save(page)
      const refusal = await call("PATCH", `${apiFlags()}${flag.id}/`, {
        filters: { groups: [{ properties: [], rollout_percentage: 30 }], multivariate: { variants: [{ key: "a", rollout_percentage: 10 }, { key: "b", rollout_percentage: 33 }] } }
      })
      expect(refusal.status).toBe(400)
      const error = page.getByRole("region", { name: "Variants" }).getByText(refusal.body.detail, { exact: true })
      await error.waitFor()
      expect(await isFocused(error)).toBe(true)
      expect((await flagHeld(flag.id)).version).toBe(flag.version)
      expect(await scrollsSideways(page)).toBe(false)
      await accessible(page, "variants refused, at 390 px")
      // Fixed: the words go as the split is edited.
      await page.getByLabel("Variant 1 Split (%)", { exact: true }).fill("34")
      expect(await error.count()).toBe(0)
      await save(page)
      await saved(page)
      const stored = await flagHeld(flag.id)
      expect(stored.filters.groups[0].rollout_percentage).toBe(30)
      expect(stored.filters.multivariate.variants.map((variant: { rollout_percentage: number }) => variant.rollout_percentage)).toEqual([34, 33, 33])

      // A key another flag has: the API's words by the Key field, which takes the focus; typing clears them.
      await made("taken-key")
      const key = page.getByLabel("Key", { exact: true })
      await key.fill("taken-key")
      await save(page)
      await page.waitForFunction(() => document.querySelector("input[name=key]")?.getAttribute("aria-invalid") === "true")
      expect(await isFocused(key)).toBe(true)
      await key.press("End")
      await key.press("2")
      expect(await key.getAttribute("aria-invalid")).toBeNull()
      expect((await flagHeld(flag.id)).key).toBe("typed-rollout")
    }))

  it("suggests property names from other flags and PostHog's common ones, and the values other flags use for a name", () =>
    world.withPage({}, async (page) => {
      await made("plan-gate", { filters: { groups: [{ properties: [{ key: "plan", type: "person", operator: "exact", value: ["pro", "team"] }], rollout_percentage: 100 }] } })
      await world.logInAt(page, `${flagsPath()}/new`)
      await page.getByRole("button", { name: "Add a filter to condition 1" }).click()
      const property = page.getByLabel("Condition 1 filter 1 Property", { exact: true })
      const options = (input: typeof property) =>
        input.evaluate((element) => [...((element as HTMLInputElement).list?.options ?? [])].map((option) => option.value))
      await page.waitForFunction(() => [...document.querySelectorAll("datalist option")].some((option) => (option as HTMLOptionElement).value === "plan"))
      const names = await options(property)
      expect(names).toEqual(expect.arrayContaining(["plan", "email", "$browser", "$os", "$current_url"]))
      await property.fill("plan")
      expect(await options(page.getByLabel("Condition 1 filter 1 Value", { exact: true }))).toEqual(["pro", "team"])
    }))

  it("asks before turning a live flag off, renaming a recently evaluated key and moving a live rollout; Cancel keeps the flag, confirming saves it", () =>
    world.withPage({}, async (page) => {
      const flag = await made("live-checkout")
      await evaluate("live-checkout")
      await world.logInAt(page, flagPage(flag.id))

      // Off: cancelled, then confirmed.
      await page.getByRole("switch", { name: "Active" }).uncheck()
      await save(page)
      const off = dialog(page, `Save the changes to "live-checkout"?`)
      await off.getByText(`Turning "live-checkout" off: every SDK that asks for it gets false, for everyone, until it is turned on again.`).waitFor()
      await accessible(page, "turning off, asked")
      await off.getByRole("button", { name: "Cancel" }).click()
      expect(await flagHeld(flag.id)).toMatchObject({ active: true, version: flag.version })
      await save(page)
      await off.getByRole("button", { name: "Save the changes" }).click()
      await saved(page)
      expect(await flagHeld(flag.id)).toMatchObject({ active: false, version: flag.version + 1 })

      // Turned on again: nothing to ask (it reaches people again, on purpose).
      await page.getByRole("switch", { name: "Active" }).check()
      await save(page)
      await page.getByRole("status").getByText("Saved.").waitFor()
      expect(await flagHeld(flag.id)).toMatchObject({ active: true, version: flag.version + 2 })

      // A rename of a key evaluated minutes ago.
      await page.getByLabel("Key", { exact: true }).fill("checkout-live")
      await save(page)
      const rename = dialog(page, /Save the changes/)
      await rename.getByText(/the flag was evaluated in the last 24 hours, and code that asks for "live-checkout" will get nothing/).waitFor()
      await rename.getByRole("button", { name: "Cancel" }).click()
      expect((await flagHeld(flag.id)).key).toBe("live-checkout")
      await save(page)
      await rename.getByRole("button", { name: "Save the changes" }).click()
      await saved(page)
      expect((await flagHeld(flag.id)).key).toBe("checkout-live")

      // The rollout of a live flag, typed: before and after in words.
      await page.getByLabel("Condition 1 Rollout percentage", { exact: true }).fill("30")
      await page.getByRole("button", { name: "Add a filter to condition 1" }).click()
      await page.getByLabel("Condition 1 filter 1 Property", { exact: true }).fill("email")
      await page.getByLabel("Condition 1 filter 1 Operator", { exact: true }).selectOption("icontains")
      await page.getByLabel("Condition 1 filter 1 Value", { exact: true }).fill("@acme.com")
      await save(page)
      const moved = dialog(page, /Save the changes/)
      await moved.getByText("Changing whom this live flag reaches:").waitFor()
      expect(await moved.locator("dd").allTextContents()).toEqual([
        "Condition 1: 100 % of everyone",
        `Condition 1: 30 % of users where email contains "@acme.com"`
      ])
      await moved.getByRole("button", { name: "Cancel" }).click()
      expect((await flagHeld(flag.id)).filters.groups[0]).toMatchObject({ rollout_percentage: 100, properties: [] })
      await save(page)
      await moved.getByRole("button", { name: "Save the changes" }).click()
      await saved(page)
      expect((await flagHeld(flag.id)).filters.groups[0]).toMatchObject({
        rollout_percentage: 30,
        properties: [{ key: "email", operator: "icontains", value: "@acme.com" }]
      })
    }))

  it("asks before deleting; a deleted flag is read-only with a banner, and Restore says why the API refuses it", () =>
    world.withPage({}, async (page) => {
      const flag = await made("old-banner")
      await world.logInAt(page, flagPage(flag.id))
      await page.getByRole("button", { name: "Delete feature flag" }).click()
      const asked = dialog(page, `Delete "old-banner"?`)
      await asked.getByText(/SDKs stop getting it at once/).waitFor()
      await asked.getByRole("button", { name: "Cancel" }).click()
      expect(await flagHeld(flag.id)).toMatchObject({ deleted: false })
      await page.getByRole("button", { name: "Delete feature flag" }).click()
      await asked.getByRole("button", { name: "Delete", exact: true }).click()
      await page.getByText("This flag is deleted.").waitFor()
      expect(await flagHeld(flag.id)).toMatchObject({ deleted: true, status: "DELETED" })

      // Read-only: every control disabled, no Save, no Delete; the Restore button has the focus.
      const restore = page.getByRole("button", { name: "Restore", exact: true })
      expect(await isFocused(restore)).toBe(true)
      expect(await page.getByLabel("Key", { exact: true }).isDisabled()).toBe(true)
      expect(await page.getByLabel("Condition 1 Rollout percentage", { exact: true }).isDisabled()).toBe(true)
      expect(await page.getByRole("button", { name: "Save", exact: true }).count()).toBe(0)
      expect(await page.getByRole("button", { name: "Delete feature flag" }).count()).toBe(0)
      await accessible(page, "deleted flag")

      // Its key taken by a new flag: the API's refusal, in its words.
      const taker = await made("old-banner")
      await restore.click()
      const refusal = await call("PATCH", `${apiFlags()}${flag.id}/`, { deleted: false })
      expect(refusal.status).toBe(400)
      await page.getByRole("alert").getByText(refusal.body.detail, { exact: true }).waitFor()
      expect(await flagHeld(flag.id)).toMatchObject({ deleted: true })

      expect((await call("PATCH", `${apiFlags()}${taker.id}/`, { deleted: true })).status).toBe(200)
      await restore.click()
      await page.getByRole("button", { name: "Delete feature flag" }).waitFor()
      expect(await flagHeld(flag.id)).toMatchObject({ deleted: false })
      expect(await page.getByLabel("Key", { exact: true }).isDisabled()).toBe(false)
      await page.getByRole("button", { name: "Save", exact: true }).waitFor()
    }))

  it("asks before leaving unsaved edits by a tab, Back, a reload or closing the page", () =>
    world.withPage({}, async (page) => {
      const flag = await made("guarded-edits", { name: "As stored" })
      await world.logInAt(page, flagPage(flag.id, "?tab=activity"))
      await page.getByRole("link", { name: "Settings" }).click()
      await page.getByLabel("Description").fill("Not saved yet")

      await page.getByRole("link", { name: "Activity" }).click()
      const leave = dialog(page, "Leave without saving?")
      await leave.waitFor()
      await accessible(page, "leaving unsaved edits, asked")
      await leave.getByRole("button", { name: "Stay" }).click()
      expect(page.url()).toBe(`${world.base}${flagPage(flag.id)}`)
      expect(await page.getByLabel("Description").inputValue()).toBe("Not saved yet")

      // Back, to the activity tab: held too.
      await page.evaluate(() => window.history.back())
      await leave.waitFor()
      await leave.getByRole("button", { name: "Stay" }).click()
      expect(page.url()).toBe(`${world.base}${flagPage(flag.id)}`)

      await page.getByRole("link", { name: "Activity" }).click()
      await leave.getByRole("button", { name: "Leave without saving" }).click()
      await page.waitForURL(`${world.base}${flagPage(flag.id, "?tab=activity")}`)
      expect((await flagHeld(flag.id)).name).toBe("As stored")

      // Saved edits leave freely.
      await page.getByRole("link", { name: "Settings" }).click()
      await page.getByLabel("Description").fill("Saved now")
      await save(page)
      await saved(page)
      await page.getByRole("link", { name: "Activity" }).click()
      await page.waitForURL(`${world.base}${flagPage(flag.id, "?tab=activity")}`)

      // A reload or closing the tab: the page holds its unload (so the browser asks) only with edits.
      const unloadHeld = () => page.evaluate(() => {
        const unload = new Event("beforeunload", { cancelable: true })
        window.dispatchEvent(unload)
        return unload.defaultPrevented
      })
      await page.getByRole("link", { name: "Settings" }).click()
      await page.getByLabel("Description").waitFor()
      expect(await unloadHeld()).toBe(false)
      await page.getByLabel("Description").fill("Edited again")
      expect(await unloadHeld()).toBe(true)
    }))

  it("shows a view-only member the flag read-only, saying why and who can change it", async () => {
    const flag = await made("owners-only", { name: "Made by the owner" })
    const email = "viewer@example.com"
    const invite = await call("POST", `/api/organizations/${owner.organization}/invites/`, { target_email: email, level: 1, send_email: false })
    expect(invite.status).toBe(201)
    const password = "a viewer's password"
    expect((await call("POST", `/api/signup/${invite.body.id}/`, { first_name: "Vee", password }, null)).status).toBe(201)
    const members = await held(`/api/organizations/${owner.organization}/members/`)
    const uuid = members.results.find((member: { user: { email: string } }) => member.user.email === email).user.uuid
    const role = await call("POST", `/api/organizations/${owner.organization}/roles/`, { name: "Viewers", feature_flags_access_level: 21 })
    expect(role.status).toBe(201)
    expect((await call("POST", `/api/organizations/${owner.organization}/roles/${role.body.id}/role_memberships/`, { user_uuid: uuid })).status).toBe(201)

    await world.withPage({}, async (page) => {
      await page.goto(`${world.base}${flagPage(flag.id)}`)
      const form = logInForm(page)
      await form.email.fill(email)
      await form.password.fill(password)
      await form.submit.click()
      await page.waitForURL(`${world.base}${flagPage(flag.id)}`)
      const answered = await page.evaluate(async (path) => (await fetch(path)).json(), `${apiFlags()}${flag.id}/`)
      expect(answered).toMatchObject({ can_edit: false })

      await page.getByText("You can view this flag but not change it: its creator, the organization's admins and owners, and members of a role given access to it can.").waitFor()
      expect(await page.getByLabel("Description").inputValue()).toBe("Made by the owner")
      expect(await page.getByLabel("Description").isDisabled()).toBe(true)
      expect(await page.getByRole("switch", { name: "Active" }).isDisabled()).toBe(true)
      expect(await page.getByLabel("Condition 1 Rollout", { exact: true }).isDisabled()).toBe(true)
      for (const name of ["Save", "Delete feature flag", "Add a condition", "Add a variant"]) {
        expect(await page.getByRole("button", { name, exact: true }).count(), name).toBe(0)
      }
      expect(await scrollsSideways(page)).toBe(false)
      await accessible(page, "a view-only member's flag")
    })
  })
})
