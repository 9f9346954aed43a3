import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { JS_BUDGET_BYTES } from "./budget.ts"
import { scriptsLoaded, seriousViolations, useConsole } from "./harness.ts"

// The flags pages in Chromium, against the real server: each step is checked against what the API then
// holds (asked with the owner's key), not only against what the page shows.
const world = useConsole()
const { owner, held, withPage } = world

const flagsPath = () => `/project/${owner.project}/flags`
const apiFlags = () => `/api/projects/${owner.project}/feature_flags/`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** What the API's evaluation answers for a person, asked as an SDK does (`/flags?v=2`, the project's token). */
const evaluated = async (key: string, distinctId: string, properties: Record<string, unknown>) => {
  const project = await held(`/api/projects/${owner.project}/`)
  const response = await fetch(`${world.base}/flags/?v=2`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: project.api_token, distinct_id: distinctId, person_properties: properties, flag_keys_to_evaluate: [key] })
  })
  expect(response.status).toBe(200)
  return (await response.json()).flags[key] as {
    enabled: boolean
    variant: string | null
    reason: { code: string; description: string }
    metadata: { payload: string | null }
  }
}

/** Moves a slider by keyboard, as a person would, from where it is to `value`. */
const slide = async (page: Page, label: string, from: number, to: number) => {
  const slider = page.getByLabel(label, { exact: true })
  await slider.focus()
  for (let at = from; at !== to; at += to > from ? 1 : -1) await page.keyboard.press(to > from ? "ArrowRight" : "ArrowLeft")
  expect(await slider.inputValue()).toBe(String(to))
}

const KEY = "checkout-redesign"

describe("the flags pages in Chromium", () => {
  it("creates a multivariate flag with a property filter and payloads, changes its rollout, shows the change as activity and evaluates it as /flags does", () =>
    withPage({}, async (page) => {
      await world.logInAt(page, flagsPath())
      await page.getByText("This project has no feature flags yet.").waitFor()
      await accessible(page, "empty flags list")

      await page.getByRole("button", { name: "New feature flag" }).click()
      await page.waitForURL(`${world.base}${flagsPath()}/new`)
      await page.getByLabel("Key", { exact: true }).fill(KEY)
      await page.getByLabel("Description").fill("The new checkout")
      await page.getByLabel("Tags").fill("checkout, web")
      // A new flag starts off; this one is released at once.
      await page.getByRole("switch", { name: "Active" }).check()
      await page.getByRole("button", { name: "Add a filter to condition 1" }).click()
      await page.getByLabel("Condition 1 filter 1 Property", { exact: true }).fill("email")
      await page.getByLabel("Condition 1 filter 1 Operator", { exact: true }).selectOption("icontains")
      await page.getByLabel("Condition 1 filter 1 Value", { exact: true }).fill("@example.com")
      // Short labels on screen (the legends say which condition and filter), full names for each control.
      const shownLabels = await page.getByRole("group", { name: "Filter 1", exact: true }).locator("label").evaluateAll((labels) =>
        labels.map((label) => [...label.childNodes].filter((node) => !(node instanceof Element && node.matches(".visually-hidden"))).map((node) => node.textContent).join(""))
      )
      expect(shownLabels).toEqual(["Property", "Operator", "Value"])
      for (const _ of [1, 2]) await page.getByRole("button", { name: "Add a variant" }).click()
      await page.getByLabel("Variant 1 Key", { exact: true }).fill("control")
      await page.getByLabel("Variant 1 Split (%)", { exact: true }).fill("50")
      await page.getByLabel("Variant 1 Payload (JSON)", { exact: true }).fill(`{"color": "blue"}`)
      await page.getByLabel("Variant 2 Key", { exact: true }).fill("test")
      await page.getByLabel("Variant 2 Split (%)", { exact: true }).fill("50")
      await page.getByLabel("Variant 2 Payload (JSON)", { exact: true }).fill(`{"color": green}`)
      await accessible(page, "new flag form")

      // A payload that is not JSON is refused by the field, before anything is sent.
      await page.getByRole("button", { name: "Save" }).click()
      const payload = page.getByLabel("Variant 2 Payload (JSON)", { exact: true })
      await page.getByText(/^Not valid JSON/).waitFor()
      expect(await payload.getAttribute("aria-invalid")).toBe("true")
      expect((await held(apiFlags())).count).toBe(0)

      await payload.fill(`{"color": "green"}`)
      await page.getByRole("button", { name: "Save" }).click()
      await page.waitForURL(new RegExp(`${flagsPath()}/\\d+$`))
      await page.getByRole("heading", { level: 1, name: KEY }).waitFor()
      const id = new URL(page.url()).pathname.split("/").pop()!
      const created = await held(`${apiFlags()}${id}/`)
      expect(created).toMatchObject({ key: KEY, name: "The new checkout", active: true, tags: ["checkout", "web"], version: 1 })
      expect(created.filters.groups).toEqual([
        { variant: null, properties: [{ key: "email", type: "person", operator: "icontains", value: "@example.com" }], rollout_percentage: 100 }
      ])
      expect(created.filters.multivariate.variants).toEqual([
        { key: "control", name: "", rollout_percentage: 50 },
        { key: "test", name: "", rollout_percentage: 50 }
      ])
      expect(created.filters.payloads).toEqual({ control: `{"color": "blue"}`, test: `{"color": "green"}` })

      // The rollout, by the slider; the flag is live, so the save asks first; the API then holds it, one version on.
      await slide(page, "Condition 1 Rollout", 100, 40)
      await page.getByRole("button", { name: "Save" }).click()
      await page.getByRole("dialog").getByRole("button", { name: "Save the changes" }).click()
      await page.getByRole("status").getByText("Saved.").waitFor()
      const changed = await held(`${apiFlags()}${id}/`)
      expect(changed.version).toBe(2)
      expect(changed.filters.groups[0].rollout_percentage).toBe(40)
      await accessible(page, "flag page")

      // The activity tab tells the change the API recorded, in words, its stored JSON behind a disclosure.
      await page.getByRole("link", { name: "Activity" }).click()
      await page.waitForURL(`${world.base}${flagsPath()}/${id}?tab=activity`)
      const activity = await held(`${apiFlags()}${id}/activity/`)
      const change = activity.results[0].detail.changes.find((entry: { field: string }) => entry.field === "filters")
      expect(change.before.groups[0].rollout_percentage).toBe(100)
      expect(change.after.groups[0].rollout_percentage).toBe(40)
      await page.getByText("changed the rollout from 100 % to 40 %").first().waitFor()
      await page.getByText("Stored JSON").first().click()
      expect(await page.getByLabel("Before, as JSON").first().textContent()).toBe(JSON.stringify(change.before, null, 2))
      expect(await page.getByLabel("After, as JSON").first().textContent()).toBe(JSON.stringify(change.after, null, 2))
      await accessible(page, "activity tab")

      // Two people evaluated in the page get what /flags gives them.
      await page.getByRole("link", { name: "Test evaluation" }).click()
      const reasons: Array<string> = []
      for (const [distinctId, properties] of [["user-a", { email: "a@example.com" }], ["user-b", { email: "b@elsewhere.org" }]] as const) {
        await page.getByLabel("Distinct ID").fill(distinctId)
        await page.getByLabel("Person properties (JSON)").fill(JSON.stringify(properties))
        await page.getByRole("button", { name: "Evaluate" }).click()
        const expected = await evaluated(KEY, distinctId, properties)
        const shown = [
          expected.variant ?? String(expected.enabled),
          expected.variant ?? "None",
          expected.metadata.payload === null ? "None" : JSON.stringify(JSON.parse(expected.metadata.payload), null, 2),
          `${expected.reason.description} (${expected.reason.code})`
        ]
        const result = page.getByRole("status", { name: "Evaluation result" }).locator("dd")
        // The two people's reasons differ, so the last one's shows when its answer is in.
        await page.waitForFunction((reason) => document.querySelector(".evaluation dd:last-of-type")?.textContent === reason, shown[3]!)
        expect(await result.allTextContents(), distinctId).toEqual(shown)
        reasons.push(expected.reason.code)
      }
      expect(reasons[1]).toBe("no_condition_match")
      expect(reasons[0]).not.toBe("no_condition_match")
      await accessible(page, "test evaluation tab")

      // The API's refusal names a field: its words stand by that field.
      await page.goto(`${world.base}${flagsPath()}/new`)
      await page.getByLabel("Key", { exact: true }).fill(KEY)
      await page.getByRole("button", { name: "Save" }).click()
      const key = page.getByLabel("Key", { exact: true })
      await page.waitForFunction(() => document.querySelector("input[name=key]")?.getAttribute("aria-invalid") === "true")
      const message = await page.locator(`[id="${await key.getAttribute("aria-describedby")}"]`).textContent()
      const refusal = await fetch(`${world.base}${apiFlags()}`, {
        method: "POST",
        headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
        body: JSON.stringify({ key: KEY })
      })
      expect(refusal.status).toBe(400)
      const envelope = await refusal.json()
      expect(envelope.attr).toBe("key")
      expect(message).toBe(envelope.detail)
      expect((await held(apiFlags())).count).toBe(1)
    }))

  it("filters and pages the list through the URL, with status badges", () =>
    withPage({ colorScheme: "dark" }, async (page) => {
      for (const key of ["beta-banner", "old-pricing"]) {
        const response = await fetch(`${world.base}${apiFlags()}`, {
          method: "POST",
          headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
          body: JSON.stringify({ key, active: key !== "old-pricing", tags: key === "beta-banner" ? ["web"] : [] })
        })
        expect(response.status).toBe(201)
      }
      await world.logInAt(page, flagsPath())
      const keys = () => page.getByRole("table").locator("td.flag-key a").allTextContents()
      await page.getByRole("table").waitFor()
      const all = await held(`${apiFlags()}?limit=20`)
      expect(await keys()).toEqual(all.results.map((flag: { key: string }) => flag.key))

      // Inactive only: from the select, into the URL, and the same after a reload.
      await page.getByLabel("Status").selectOption("false")
      await page.waitForURL(`${world.base}${flagsPath()}?active=false`)
      await page.getByRole("cell", { name: "Inactive" }).waitFor()
      const inactive = await held(`${apiFlags()}?active=false`)
      expect(await keys()).toEqual(inactive.results.map((flag: { key: string }) => flag.key))
      await page.reload()
      await page.getByRole("cell", { name: "Inactive" }).waitFor()
      expect(await page.getByLabel("Status").inputValue()).toBe("false")

      // Search and a tag, by the form.
      await page.goto(`${world.base}${flagsPath()}`)
      await page.getByLabel("Search").fill("checkout")
      await page.getByLabel("Tags").fill("web")
      await page.getByRole("button", { name: "Apply filters" }).click()
      await page.waitForURL(`${world.base}${flagsPath()}?search=checkout&tags=web`)
      const found = await held(`${apiFlags()}?search=checkout&tags=${encodeURIComponent(JSON.stringify(["web"]))}`)
      expect(found.results.map((flag: { key: string }) => flag.key)).toEqual([KEY])
      await page.getByRole("link", { name: KEY }).waitFor()
      expect(await keys()).toEqual([KEY])
      await page.getByRole("cell", { name: "Active" }).waitFor()

      // A page past the end says so and links to the first (the API holds nothing there either).
      await page.goto(`${world.base}${flagsPath()}?page=2`)
      await page.getByText("There is nothing on this page.").waitFor()
      expect((await held(`${apiFlags()}?limit=20&offset=20`)).results).toEqual([])
      await page.getByRole("link", { name: "Go to the first page" }).click()
      await page.waitForURL(`${world.base}${flagsPath()}`)
      await page.getByRole("link", { name: KEY }).waitFor()

      await page.goto(`${world.base}${flagsPath()}?search=no-such-flag`)
      await page.getByText("No feature flag matches these filters.").waitFor()
      expect((await held(`${apiFlags()}?search=no-such-flag`)).count).toBe(0)
      await accessible(page, "filtered flags list")
    }))

  it(`loads the flags list, logged in, with at most ${JS_BUDGET_BYTES / 1000} KB of compressed JavaScript on a first visit`, async () => {
    const context = await world.browser.newContext()
    try {
      // Logged in by the API (the context's cookies), so that the first visit is the flags page's own.
      const login = await context.request.post(`${world.base}/api/login/`, { data: { email: owner.email, password: owner.password } })
      expect(login.status()).toBe(200)
      const page = await context.newPage()
      const started = performance.now()
      const { loaded, total } = await scriptsLoaded(page, async () => {
        await page.goto(`${world.base}${flagsPath()}`)
        await page.getByRole("link", { name: KEY }).waitFor()
      })
      const shown = performance.now() - started
      console.log(`flags page, first load: ${(total / 1000).toFixed(1)} KB of compressed JavaScript in ${loaded.length} files, list shown in ${shown.toFixed(0)} ms`)
      for (const script of loaded) expect(script.encoding, script.url).toBe("gzip")
      expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES)
    } finally {
      await context.close()
    }
  })

  it("refuses a save over someone else's change, says so, and reloads theirs; deletes and restores", async () => {
    const flag = (await held(`${apiFlags()}?search=${KEY}`)).results[0]
    const flagPage = `${flagsPath()}/${flag.id}`
    const first = await world.browser.newContext()
    const second = await world.browser.newContext()
    try {
      const mine = await first.newPage()
      const theirs = await second.newPage()
      await world.logInAt(mine, flagPage)
      await world.logInAt(theirs, flagPage)
      await mine.getByLabel("Description").waitFor()
      await theirs.getByLabel("Description").fill("Changed by the other one")
      await theirs.getByRole("button", { name: "Save" }).click()
      await theirs.getByRole("status").getByText("Saved.").waitFor()

      await mine.getByLabel("Description").fill("Changed by me")
      await mine.getByRole("button", { name: "Save" }).click()
      await mine.getByRole("alert").getByText("This flag was changed by someone else since you opened it.").waitFor()
      expect(await held(`${apiFlags()}${flag.id}/`)).toMatchObject({ name: "Changed by the other one", version: flag.version + 1 })
      expect(await seriousViolations(mine)).toEqual([])

      await mine.getByRole("button", { name: "Reload the flag" }).click()
      await mine.waitForFunction(() => (document.querySelector("input[name=name]") as HTMLInputElement | null)?.value === "Changed by the other one")
      expect(await mine.getByRole("alert").count()).toBe(0)

      await mine.getByRole("button", { name: "Delete feature flag" }).click()
      await mine.getByRole("dialog").getByRole("button", { name: "Delete", exact: true }).click()
      await mine.getByRole("button", { name: "Restore", exact: true }).waitFor()
      expect(await held(`${apiFlags()}${flag.id}/`)).toMatchObject({ deleted: true, status: "DELETED" })
      await mine.getByText("Deleted", { exact: true }).waitFor()
      await mine.getByRole("button", { name: "Restore", exact: true }).click()
      await mine.getByRole("button", { name: "Delete feature flag" }).waitFor()
      expect(await held(`${apiFlags()}${flag.id}/`)).toMatchObject({ deleted: false, name: "Changed by the other one" })
    } finally {
      await first.close()
      await second.close()
    }
  })
})
