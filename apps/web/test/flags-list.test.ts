import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { isFocused, logInForm, seriousViolations, useConsole } from "./harness.ts"

// The flags list in Chromium against the real server: the release in words, the switches, search as
// you type, sorting, bulk actions and the deleted flags; each step checked against what the API then
// holds (asked with the owner's key).
const world = useConsole()
const { owner, held } = world

const flagsPath = (query = "") => `/project/${owner.project}/flags${query}`
const apiFlags = () => `/api/projects/${owner.project}/feature_flags/`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** A write with `key` (the owner's by default); its answer's body. */
const sent = async (method: string, path: string, body: unknown, status: number, key = owner.key) => {
  const response = await fetch(`${world.base}${path}`, {
    method,
    headers: { ...(key === "" ? {} : { authorization: `Bearer ${key}` }), "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(response.status, `${method} ${path}`).toBe(status)
  return response.json()
}

const condition = (rollout_percentage: number, properties: ReadonlyArray<Record<string, unknown>> = []) => ({ properties, rollout_percentage })
const email = { key: "email", type: "person", operator: "icontains", value: "@acme.com" }

/** Each seeded flag's key and the words its row's Release cell must show. */
const RELEASES: Record<string, string> = {
  "acme-beta": "30 % of users where email contains \"@acme.com\"",
  "everyone-on": "100 % of everyone",
  "checkout-split": "3 variants 34/33/33 · 2 conditions",
  "old-switch": "Off",
  "beta-cohort": "100 % of users in cohort Beta testers",
  "company-rollout": "20 % of companies"
}

const ids: Record<string, number> = {}
const member = { email: "viewer@example.com", password: "a viewer's password 42" }

beforeAll(async () => {
  const cohort = await sent("POST", `/api/projects/${owner.project}/cohorts/`, { name: "Beta testers", is_static: true }, 201)
  await sent("POST", `/api/projects/${owner.project}/groups_types/`, { group_type: "company" }, 201)
  await sent("PATCH", `/api/projects/${owner.project}/groups_types/update_metadata/`, [{ group_type_index: 0, name_plural: "companies" }], 200)
  const bodies: Record<string, Record<string, unknown>> = {
    "acme-beta": { filters: { groups: [condition(30, [email])] } },
    "everyone-on": { filters: { groups: [condition(100)] } },
    "checkout-split": {
      filters: {
        groups: [condition(50, [email]), condition(10)],
        multivariate: { variants: [["a", 34], ["b", 33], ["c", 33]].map(([key, rollout_percentage]) => ({ key, rollout_percentage })) }
      }
    },
    "old-switch": { active: false, filters: { groups: [condition(100)] } },
    "beta-cohort": { filters: { groups: [condition(100, [{ key: "id", type: "cohort", value: cohort.id }])] } },
    "company-rollout": { filters: { aggregation_group_type_index: 0, groups: [condition(20)] } }
  }
  for (const [key, body] of Object.entries(bodies)) ids[key] = (await sent("POST", apiFlags(), { key, ...body }, 201)).id

  // A member who may only view flags: level 1, in a role whose flag access is "can only view".
  const organization = `/api/organizations/${owner.organization}`
  const invite = await sent("POST", `${organization}/invites/`, { target_email: member.email, level: 1, send_email: false }, 201)
  await sent("POST", `/api/signup/${invite.id}/`, { first_name: "Vi", password: member.password }, 201, "")
  const members = await held(`${organization}/members/?limit=100`)
  const uuid = members.results.find((entry: { user: { email: string } }) => entry.user.email === member.email).user.uuid
  const role = await sent("POST", `${organization}/roles/`, { name: "Viewers", feature_flags_access_level: 21 }, 201)
  await sent("POST", `${organization}/roles/${role.id}/role_memberships/`, { user_uuid: uuid }, 201)
})

/** The Release cell of the row whose key is `key`. */
const releaseOf = (page: Page, key: string) => page.getByRole("row").filter({ has: page.getByRole("link", { name: key, exact: true }) }).locator("td.release")

/** The keys the list shows, in its order. */
const shownKeys = (page: Page) => page.locator("table.flags td.flag-key a").allTextContents()

describe("the flags list in Chromium", () => {
  it("describes each flag's release in words, in the list and under the flag's title", () =>
    world.withPage({}, async (page) => {
      await world.logInAt(page, flagsPath())
      await page.getByRole("link", { name: "acme-beta", exact: true }).waitFor()
      // The cohort's and the group type's names come from their own reads.
      await page.waitForFunction(() => document.body.innerText.includes("in cohort Beta testers") && document.body.innerText.includes("of companies"))
      for (const [key, words] of Object.entries(RELEASES)) expect(await releaseOf(page, key).textContent(), key).toBe(words)
      await accessible(page, "flags list")

      await page.getByRole("link", { name: "checkout-split", exact: true }).click()
      await page.getByRole("heading", { level: 1, name: "checkout-split" }).waitFor()
      expect(await page.locator(".release-summary").textContent()).toBe(RELEASES["checkout-split"])

      // A flag made minutes ago at 100 % of everyone is not said to be "not fully rolled out".
      await page.goto(`${world.base}${flagsPath(`/${ids["everyone-on"]}`)}`)
      await page.getByRole("heading", { level: 1, name: "everyone-on" }).waitFor()
      const status = await held(`${apiFlags()}${ids["everyone-on"]}/status/`)
      expect(status).toEqual({ status: "active", reason: "Flag has no usage data yet" })
      await page.locator(".status-reason").getByText(status.reason).waitFor()
      expect(await page.locator(".release-summary").textContent()).toBe("100 % of everyone")
    }))

  it("turns a flag off only once asked and confirmed, and on at once", () =>
    world.withPage({}, async (page) => {
      await world.logInAt(page, flagsPath())
      const toggle = page.getByRole("switch", { name: "Enabled: everyone-on" })
      await toggle.waitFor()
      expect(await toggle.getAttribute("aria-checked")).toBe("true")

      // Off is asked about first; Cancel, the dialog's first choice, changes nothing.
      await toggle.click()
      const dialog = page.getByRole("dialog", { name: "Turn off everyone-on?" })
      await dialog.waitFor()
      expect(await isFocused(dialog.getByRole("button", { name: "Cancel" }))).toBe(true)
      await accessible(page, "turn-off dialog")
      await dialog.getByRole("button", { name: "Cancel" }).click()
      expect((await held(`${apiFlags()}${ids["everyone-on"]}/`)).active).toBe(true)

      await toggle.click()
      await dialog.getByRole("button", { name: "Turn off" }).click()
      await page.waitForFunction(() => document.querySelector("[aria-label='Enabled: everyone-on']")?.getAttribute("aria-checked") === "false")
      expect((await held(`${apiFlags()}${ids["everyone-on"]}/`)).active).toBe(false)
      expect(await releaseOf(page, "everyone-on").textContent()).toBe("Off")
      // The keyboard keeps its place on the switch.
      expect(await isFocused(toggle)).toBe(true)

      // On again, by the keyboard: no question.
      await page.keyboard.press("Space")
      await page.waitForFunction(() => document.querySelector("[aria-label='Enabled: everyone-on']")?.getAttribute("aria-checked") === "true")
      expect(await dialog.isVisible()).toBe(false)
      expect((await held(`${apiFlags()}${ids["everyone-on"]}/`)).active).toBe(true)
      expect(await releaseOf(page, "everyone-on").textContent()).toBe("100 % of everyone")
    }))

  it("searches as the key is typed, the URL in step, and sorts by the columns the API orders by", () =>
    world.withPage({}, async (page) => {
      await world.logInAt(page, flagsPath())
      await page.getByRole("link", { name: "acme-beta", exact: true }).waitFor()
      // No button pressed: the list follows the typing once it pauses.
      await page.getByLabel("Search").pressSequentially("beta", { delay: 30 })
      await page.waitForURL(`${world.base}${flagsPath("?search=beta")}`)
      await page.waitForFunction(() => document.querySelectorAll("table.flags td.flag-key a").length === 2)
      const found = await held(`${apiFlags()}?search=beta`)
      expect(await shownKeys(page)).toEqual(found.results.map((flag: { key: string }) => flag.key))
      expect(await isFocused(page.getByLabel("Search"))).toBe(true)
      // The search is in the URL: a reload shows it again.
      await page.reload()
      expect(await page.getByLabel("Search").inputValue()).toBe("beta")

      await page.goto(`${world.base}${flagsPath()}`)
      await page.getByRole("button", { name: "Key" }).click()
      await page.waitForURL(`${world.base}${flagsPath("?order=key")}`)
      const byKey = await held(`${apiFlags()}?order=key&limit=20`)
      await page.waitForFunction((first) => document.querySelector("table.flags td.flag-key a")?.textContent === first, byKey.results[0].key)
      expect(await shownKeys(page)).toEqual(byKey.results.map((flag: { key: string }) => flag.key))
      expect(await page.getByRole("columnheader", { name: "Key" }).getAttribute("aria-sort")).toBe("ascending")
      // The rows stay until the sorted ones are in, and the keyboard stays on the heading's button.
      expect(await isFocused(page.getByRole("button", { name: "Key" }))).toBe(true)
      await page.getByRole("button", { name: "Key" }).click()
      await page.waitForURL(`${world.base}${flagsPath("?order=-key")}`)
      const byKeyDown = await held(`${apiFlags()}?order=-key&limit=20`)
      await page.waitForFunction((first) => document.querySelector("table.flags td.flag-key a")?.textContent === first, byKeyDown.results[0].key)
      expect(await shownKeys(page)).toEqual(byKeyDown.results.map((flag: { key: string }) => flag.key))
      expect(await page.getByRole("columnheader", { name: "Key" }).getAttribute("aria-sort")).toBe("descending")
      await page.getByRole("button", { name: "Enabled" }).click()
      await page.waitForURL(`${world.base}${flagsPath("?order=active")}`)
      const byActive = await held(`${apiFlags()}?order=active&limit=20`)
      await page.waitForFunction((first) => document.querySelector("table.flags td.flag-key a")?.textContent === first, byActive.results[0].key)
      expect(await shownKeys(page)).toEqual(byActive.results.map((flag: { key: string }) => flag.key))
      await accessible(page, "sorted flags list")
    }))

  it("enables, disables, tags and deletes the selected flags, asking before the risky ones, each refusal reported by its flag", () =>
    world.withPage({}, async (page) => {
      // A flag that depends on acme-beta: the API refuses to disable or delete acme-beta while it is on.
      const dependent = await sent("POST", apiFlags(), {
        key: "depends-on-acme",
        filters: { groups: [condition(100, [{ key: String(ids["acme-beta"]), type: "flag", operator: "flag_evaluates_to", value: true }])] }
      }, 201)
      await world.logInAt(page, flagsPath("?order=key"))
      const select = (key: string) => page.getByRole("checkbox", { name: `Select ${key}`, exact: true }).check()
      await page.getByRole("link", { name: "acme-beta", exact: true }).waitFor()
      await select("acme-beta")
      await select("beta-cohort")
      await page.getByText("2 flags selected").waitFor()

      // Disable: asked first, saying how many; one refused, the other done, both said.
      await page.getByRole("button", { name: "Disable", exact: true }).click()
      const dialog = page.getByRole("dialog", { name: "Disable 2 flags?" })
      await dialog.waitFor()
      await dialog.getByRole("button", { name: "Disable 2 flags" }).click()
      const report = page.locator(".bulk-report")
      await report.getByText("Disabled: 1 flag; 1 flag refused:").waitFor()
      const refusal = await sent("PATCH", `${apiFlags()}${ids["acme-beta"]}/`, { active: false }, 400)
      expect(await report.locator("li").textContent()).toBe(`acme-beta: ${refusal.detail}`)
      expect((await held(`${apiFlags()}${ids["beta-cohort"]}/`)).active).toBe(false)
      expect((await held(`${apiFlags()}${ids["acme-beta"]}/`)).active).toBe(true)
      // The refused flag stays selected, to try again.
      await page.getByText("1 flag selected").waitFor()
      expect(await page.getByRole("checkbox", { name: "Select acme-beta", exact: true }).isChecked()).toBe(true)
      await accessible(page, "bulk refusal")

      // Enable and tag: done at once, no question.
      await select("beta-cohort")
      await page.getByRole("button", { name: "Enable", exact: true }).click()
      await report.getByText("Enabled: 2 flags.").waitFor()
      expect((await held(`${apiFlags()}${ids["beta-cohort"]}/`)).active).toBe(true)
      await select("acme-beta")
      await select("beta-cohort")
      await page.getByLabel("Tag to add").fill("q3-launch")
      await page.getByRole("button", { name: "Add tag" }).click()
      await report.getByText("Tagged “q3-launch”: 2 flags.").waitFor()
      for (const key of ["acme-beta", "beta-cohort"]) expect((await held(`${apiFlags()}${ids[key]}/`)).tags, key).toContain("q3-launch")

      // Delete: asked first (Cancel changes nothing); the dependency refuses acme-beta, the other goes to
      // the deleted flags.
      await select("acme-beta")
      await select("beta-cohort")
      await page.getByRole("button", { name: "Delete", exact: true }).click()
      const deleting = page.getByRole("dialog", { name: "Delete 2 flags?" })
      await deleting.getByRole("button", { name: "Cancel" }).click()
      expect((await held(`${apiFlags()}${ids["beta-cohort"]}/`)).deleted).toBe(false)
      await page.getByRole("button", { name: "Delete", exact: true }).click()
      await deleting.getByRole("button", { name: "Delete 2 flags" }).click()
      await report.getByText("Deleted: 1 flag; 1 flag refused:").waitFor()
      expect((await held(`${apiFlags()}${ids["beta-cohort"]}/`)).deleted).toBe(true)
      expect((await held(`${apiFlags()}${ids["acme-beta"]}/`)).deleted).toBe(false)
      await page.getByRole("link", { name: "beta-cohort", exact: true }).waitFor({ state: "detached" })
      await sent("PATCH", `${apiFlags()}${dependent.id}/`, { deleted: true }, 200)
    }))

  it("shows a view-only member each flag's state without a switch or a box to select it but for their own, which a bulk change changes", () =>
    world.withPage({}, async (page) => {
      await page.goto(`${world.base}${flagsPath("?order=key")}`)
      const form = logInForm(page)
      await form.email.fill(member.email)
      await form.password.fill(member.password)
      await form.submit.click()
      await page.getByRole("link", { name: "acme-beta", exact: true }).waitFor()
      // A flag of the member's own, which its creator may edit: the one the bulk change below does.
      const csrf = (await page.context().cookies()).find((cookie) => cookie.name === "posthog_csrftoken")?.value ?? ""
      const own = await page.request.post(`${world.base}${apiFlags()}`, { data: { key: "viewers-own" }, headers: { "X-CSRFToken": csrf } })
      expect(own.status()).toBe(201)
      await page.reload()
      await page.getByRole("switch", { name: "Enabled: viewers-own" }).waitFor()
      // Every other flag shows its state without a switch.
      expect(await page.getByRole("switch").count()).toBe(1)
      const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: "old-switch", exact: true }) })
      expect(await row.locator("td[data-label='Enabled']").textContent()).toBe("Off")
      await accessible(page, "view-only flags list")
      // Only the flag the member may change can be selected, and "every flag" means every such flag.
      expect(await page.getByRole("checkbox", { name: /^Select / }).count()).toBe(2)
      await page.getByRole("checkbox", { name: "Select every flag on this page you can change" }).check()
      expect(await page.getByRole("checkbox", { name: "Select viewers-own", exact: true }).isChecked()).toBe(true)
      await page.getByLabel("Tag to add").fill("viewer-tag")
      await page.getByRole("button", { name: "Add tag" }).click()
      await page.locator(".bulk-report").getByText("Tagged “viewer-tag”: 1 flag.", { exact: true }).waitFor()
      expect((await held(`${apiFlags()}${(await own.json()).id}/`)).tags).toEqual(["viewer-tag"])
      // The API refuses the member the flags offered no box, asked with the page's session.
      const refused = await page.request.patch(`${world.base}${apiFlags()}${ids["acme-beta"]}/`, { data: { tags: ["viewer-tag"] }, headers: { "X-CSRFToken": csrf } })
      expect(refused.status()).toBe(403)
      expect((await held(`${apiFlags()}${ids["acme-beta"]}/`)).tags).not.toContain("viewer-tag")
    }))

  it("offers a view-only member no Restore among the deleted flags", () =>
    world.withPage({}, async (page) => {
      const gone = await sent("POST", apiFlags(), { key: "gone-for-viewers" }, 201)
      await sent("PATCH", `${apiFlags()}${gone.id}/`, { deleted: true }, 200)
      await page.goto(`${world.base}/project/${owner.project}/flags/deleted`)
      const form = logInForm(page)
      await form.email.fill(member.email)
      await form.password.fill(member.password)
      await form.submit.click()
      await page.getByRole("link", { name: "gone-for-viewers", exact: true }).waitFor()
      expect(await page.getByRole("button", { name: /^Restore / }).count()).toBe(0)
      await accessible(page, "view-only deleted flags")
    }))

  it("lists the deleted flags and restores one; a key taken meanwhile is refused by its row in the API's words", () =>
    world.withPage({}, async (page) => {
      const spring = await sent("POST", apiFlags(), { key: "spring-banner", name: "Spring banner" }, 201)
      await sent("PATCH", `${apiFlags()}${spring.id}/`, { deleted: true }, 200)
      const taken = await sent("POST", apiFlags(), { key: "summer-banner" }, 201)
      await sent("PATCH", `${apiFlags()}${taken.id}/`, { deleted: true }, 200)
      // Its key is taken by a new flag: the deleted one can no longer have it back.
      const successor = await sent("POST", apiFlags(), { key: "summer-banner" }, 201)

      await world.logInAt(page, flagsPath())
      await page.getByRole("link", { name: "Deleted flags" }).click()
      await page.waitForURL(`${world.base}/project/${owner.project}/flags/deleted`)
      await page.getByRole("heading", { level: 1, name: "Deleted flags" }).waitFor()
      const archive = await held(`${apiFlags()}?deleted=true`)
      await page.getByRole("button", { name: "Restore spring-banner" }).waitFor()
      expect(await shownKeys(page)).toEqual(archive.results.map((flag: { key: string }) => flag.key))
      await accessible(page, "deleted flags")

      // Searched as typed, too.
      await page.getByRole("searchbox", { name: "Search" }).pressSequentially("spring", { delay: 30 })
      await page.waitForURL(`${world.base}/project/${owner.project}/flags/deleted?search=spring`)
      await page.waitForFunction(() => document.querySelectorAll("table.flags td.flag-key a").length === 1)
      expect(await shownKeys(page)).toEqual(["spring-banner"])
      await page.getByRole("button", { name: "Restore spring-banner" }).click()
      await page.getByRole("status").getByText("Restored spring-banner.").waitFor()
      expect(await held(`${apiFlags()}${spring.id}/`)).toMatchObject({ deleted: false, key: "spring-banner" })
      await page.getByText("No deleted flag matches this search.").waitFor()

      await page.getByRole("searchbox", { name: "Search" }).fill("summer")
      await page.waitForURL(`${world.base}/project/${owner.project}/flags/deleted?search=summer`)
      const deletedSummer = (await held(`${apiFlags()}?deleted=true&search=summer`)).results[0]
      const restore = page.getByRole("button", { name: `Restore ${deletedSummer.key}` })
      await restore.click()
      const row = page.getByRole("row").filter({ has: restore })
      await row.getByRole("alert").waitFor()
      const refusal = await sent("PATCH", `${apiFlags()}${taken.id}/`, { deleted: false }, 400)
      expect(await row.getByRole("alert").textContent()).toBe(refusal.detail)
      expect((await held(`${apiFlags()}${taken.id}/`)).deleted).toBe(true)
      expect((await held(`${apiFlags()}${successor.id}/`)).deleted).toBe(false)
      await accessible(page, "refused restore")
    }))

  it("fits the list in a 390 px wide screen: no sideways scrolling of the page, long keys wrapped", () =>
    world.withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      await sent("POST", apiFlags(), { key: `a-very-long-flag-key-${"that-goes-on-".repeat(6)}end`, name: "A flag whose key is long" }, 201)
      await world.logInAt(page, flagsPath())
      await page.getByRole("link", { name: "acme-beta", exact: true }).waitFor()
      const widths = await page.evaluate(() => ({
        viewport: document.documentElement.clientWidth,
        main: document.querySelector("main")!.scrollWidth,
        table: document.querySelector("table.flags")!.getBoundingClientRect().right,
        cells: Math.max(...[...document.querySelectorAll("table.flags td")].map((cell) => cell.getBoundingClientRect().right))
      }))
      expect(widths.table).toBeLessThanOrEqual(widths.viewport)
      expect(widths.cells).toBeLessThanOrEqual(widths.viewport)
      expect(widths.main).toBeLessThanOrEqual(widths.viewport)
      // The whole page, once the shell fits too: nothing of the flags list makes it scroll sideways.
      const page_ = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }))
      expect(page_.scroll - page_.client, "the page's sideways overflow").toBeLessThanOrEqual(Math.max(0, await shellOverflow(page)))
      await accessible(page, "flags list at 390 px")
    }))
})

/** How far the shell's top bar alone reaches past the screen's right edge (0 when it fits). */
const shellOverflow = (page: Page) =>
  page.evaluate(() => {
    const bar = document.querySelector(".topbar")
    if (bar === null) return 0
    const right = Math.max(...[...bar.querySelectorAll("*")].map((element) => element.getBoundingClientRect().right))
    return Math.ceil(right - document.documentElement.clientWidth)
  })
