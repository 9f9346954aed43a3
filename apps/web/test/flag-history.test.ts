import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { seriousViolations, useConsole } from "./harness.ts"

// A flag's history, usage and code in Chromium, against the real server: the activity told in words, the
// project's feed, restoring an earlier version, the usage chart over calls sent to the real capture
// endpoint, and the snippets. Each step is checked against what the API then holds.
const world = useConsole()
const { owner, held, withPage } = world

const apiFlags = () => `/api/projects/${owner.project}/feature_flags/`
const flagPath = (id: number, tab?: string) => `/project/${owner.project}/flags/${id}${tab === undefined ? "" : `?tab=${tab}`}`

/** A call to the API with the owner's key; the answer's body, after checking it succeeded. */
const sent = async (method: string, route: string, body: unknown) => {
  const response = await fetch(`${world.base}${route}`, {
    method,
    headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  expect(response.status, `${method} ${route}`).toBeLessThan(300)
  return response.json()
}

/** axe in the light and the dark scheme, and no sideways scrolling of the page, on the page as it is now. */
const checked = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
  // What of the page's own content reaches past the window's right edge (what scrolls inside a box of its
  // own does not move the page; the shell's header is the shell's to test).
  const beyond = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((element) => {
        for (let box = element.parentElement; box !== null; box = box.parentElement) {
          if (["auto", "scroll", "hidden"].includes(getComputedStyle(box).overflowX)) return false
        }
        return element.getBoundingClientRect().right > window.innerWidth + 0.5
      })
      .map((element) => `${element.tagName.toLowerCase()}.${element.className}: ${element.textContent?.slice(0, 40)}`)
  )
  expect(beyond, `${what}: nothing of the page reaches past the window`).toEqual([])
}

const PHONE = { viewport: { width: 390, height: 844 } }
const DESK = { viewport: { width: 1440, height: 900 } }

const ACME = { key: "email", type: "person", operator: "icontains", value: "@acme.com" }
let token = ""
/** The owner as an entry names them. */
const WHO = "Admin"

beforeAll(async () => {
  token = (await held(`/api/projects/${owner.project}/`)).api_token
})

/** The entry of the activity list that says `words`. */
const entry = (page: Page, words: string) => page.locator("ol.activity > li").filter({ hasText: words })

describe("a flag's history in Chromium", () => {
  let id = 0

  it("tells rollout moves, switches and renames in words, the release conditions compared, and no version rows", () =>
    withPage(DESK, async (page) => {
      const flag = await sent("POST", apiFlags(), { key: "story-a", name: "Story", filters: { groups: [{ properties: [ACME], rollout_percentage: 30 }] } })
      id = flag.id
      let version = flag.version
      const patch = async (fields: Record<string, unknown>) => {
        version = (await sent("PATCH", `${apiFlags()}${id}/`, { ...fields, version })).version
      }
      await patch({ filters: { groups: [{ properties: [ACME], rollout_percentage: 50 }] } })
      await patch({ active: false })
      await patch({ key: "story-b" })
      await patch({ name: "The story flag" })

      await world.logInAt(page, flagPath(id, "activity"))
      await entry(page, `${WHO} renamed the key from story-a to story-b`).waitFor()
      await entry(page, `${WHO} turned the flag off`).waitFor()
      await entry(page, `${WHO} changed the description from "Story" to "The story flag"`).waitFor()
      await entry(page, `${WHO} created the flag`).waitFor()
      const rollout = entry(page, `${WHO} changed the rollout from 30 % to 50 %`)
      await rollout.waitFor()
      // The conditions before and after in words, the changed line marked on each side (the entry's own,
      // not its restore dialog's).
      expect(await rollout.locator(":scope > .filters-diff del").allTextContents()).toEqual(["Removed: Condition 1: 30 % of users where email contains \"@acme.com\""])
      expect(await rollout.locator(":scope > .filters-diff ins").allTextContents()).toEqual(["Added: Condition 1: 50 % of users where email contains \"@acme.com\""])
      // The API lists a version step in each update; the page says nothing of it, nor of `name`.
      const text = (await page.locator("ol.activity > li > .story, ol.activity > li > .changes").allInnerTexts()).join("\n")
      expect(text).not.toMatch(/version/i)
      expect(text).not.toMatch(/\bname\b/)
      const logged = await held(`${apiFlags()}${id}/activity/`)
      expect(logged.results.filter((item: { detail: { changes: Array<{ field: string }> | null } }) =>
        item.detail.changes?.some((change) => change.field === "version")).length).toBe(4)
      await checked(page, "activity tab")
    }))

  it("shows the project's flag activity from the project's navigation, a page at a time", () =>
    withPage(PHONE, async (page) => {
      // Twelve more entries: the feed's first page holds ten.
      let { version } = await held(`${apiFlags()}${id}/`)
      for (let i = 0; i < 12; i++) version = (await sent("PATCH", `${apiFlags()}${id}/`, { tags: [`t${i}`], version })).version
      await world.logInAt(page, `/project/${owner.project}`)
      await page.getByRole("navigation", { name: "Project" }).getByRole("link", { name: "Flag activity" }).click()
      await page.waitForURL(`${world.base}/project/${owner.project}/flag-activity`)
      const feed = await held(`${apiFlags()}activity/?limit=10&page=1`)
      await entry(page, `${WHO} added the tag t11 and removed the tag t10`).waitFor()
      expect(await page.locator("ol.activity > li").count()).toBe(10)
      expect(feed.results).toHaveLength(10)
      // Each entry names its flag, a link to the flag's own activity.
      await page.locator("ol.activity > li").first().getByRole("link", { name: "story-b" }).waitFor()
      await checked(page, "project flag activity, 390 px")
      await page.getByRole("link", { name: "Next page" }).click()
      await page.waitForURL(`${world.base}/project/${owner.project}/flag-activity?page=2`)
      await entry(page, `${WHO} renamed the key from story-a to story-b`).waitFor()
      await entry(page, `${WHO} created the flag`).waitFor()
      await entry(page, `${WHO} created the flag`).getByRole("link", { name: "story-a" }).click()
      await page.waitForURL(`${world.base}${flagPath(id, "activity")}`)
    }))

  it("records a save that changes the description as that alone, the conditions kept as the API spelled them", () =>
    withPage(DESK, async (page) => {
      const flag = await sent("POST", apiFlags(), { key: "spelled-by-api", name: "Before", filters: { groups: [{ rollout_percentage: 100 }] } })
      await world.logInAt(page, flagPath(flag.id))
      await page.getByLabel("Description").fill("After")
      await page.getByRole("button", { name: "Save", exact: true }).click()
      await page.getByRole("status").getByText("Saved.").waitFor()
      const now = await held(`${apiFlags()}${flag.id}/`)
      expect(now.name).toBe("After")
      expect(now.filters).toEqual(flag.filters)
      const logged = await held(`${apiFlags()}${flag.id}/activity/`)
      const fields = logged.results.flatMap((item: { detail: { changes: Array<{ field: string }> | null } }) =>
        (item.detail.changes ?? []).map((change) => change.field)).filter((field: string) => field !== "version")
      expect(fields).toEqual(["name"])
    }))

  it("restores an entry's earlier values after a confirmation of what changes; Cancel and a concurrent edit write nothing", () =>
    withPage(DESK, async (page) => {
      await world.logInAt(page, flagPath(id, "activity"))
      const before = await held(`${apiFlags()}${id}/`)
      expect(before.filters.groups[0].rollout_percentage).toBe(50)
      // The rollout entry is on the second page now.
      await page.getByRole("link", { name: "Next page" }).click()
      const rollout = entry(page, `${WHO} changed the rollout from 30 % to 50 %`)
      await rollout.getByRole("button", { name: /^Restore this version/ }).click()
      const dialog = page.getByRole("dialog", { name: "Restore the flag as it was before this change?" })
      await dialog.getByText("Changed the rollout from 50 % to 30 %.").waitFor()
      await checked(page, "restore confirmation")
      await dialog.getByRole("button", { name: "Cancel" }).click()
      await dialog.waitFor({ state: "hidden" })
      expect((await held(`${apiFlags()}${id}/`)).version).toBe(before.version)

      await rollout.getByRole("button", { name: /^Restore this version/ }).click()
      await dialog.getByRole("button", { name: "Restore this version" }).click()
      await page.getByRole("status").getByText("The earlier version is restored.").waitFor()
      const restored = await held(`${apiFlags()}${id}/`)
      expect([restored.version, restored.filters.groups[0].rollout_percentage, restored.key, restored.active]).toEqual([before.version + 1, 30, "story-b", false])

      // Someone else changes the flag meanwhile: a restore is refused (409) and shown as a save's is.
      await sent("PATCH", `${apiFlags()}${id}/`, { name: "Changed elsewhere", version: restored.version })
      const renamed = entry(page, `${WHO} renamed the key from story-a to story-b`)
      await renamed.getByRole("button", { name: /^Restore this version/ }).click()
      await dialog.getByText("Renamed the key from story-b to story-a.").waitFor()
      await dialog.getByRole("button", { name: "Restore this version" }).click()
      await page.getByRole("alert").getByText("This flag was changed by someone else since you opened it.").waitFor()
      const after = await held(`${apiFlags()}${id}/`)
      expect([after.key, after.version]).toEqual(["story-b", restored.version + 1])
    }))

  it("offers no restore to a member who can only view the flag", async () => {
    const locked = await sent("POST", apiFlags(), { key: "locked-story", filters: { groups: [{ properties: [], rollout_percentage: 10 }] } })
    await sent("PATCH", `${apiFlags()}${locked.id}/`, { filters: { groups: [{ properties: [], rollout_percentage: 20 }] }, version: locked.version })
    // A member whose one role can only view flags.
    const organization = `/api/organizations/${owner.organization}`
    const email = "viewer@example.com"
    const password = "a viewer's password"
    const invite = await sent("POST", `${organization}/invites/`, { target_email: email, level: 1, send_email: false })
    const joined = await fetch(`${world.base}/api/signup/${invite.id}/`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ first_name: "Vi", password })
    })
    expect(joined.status).toBeLessThan(300)
    const members = await held(`${organization}/members/`)
    const viewer = members.results.find((member: { user: { email: string } }) => member.user.email === email)
    const role = await sent("POST", `${organization}/roles/`, { name: "Viewers", feature_flags_access_level: 21 })
    await sent("POST", `${organization}/roles/${role.id}/role_memberships/`, { user_uuid: viewer.user.uuid })

    const context = await world.browser.newContext(DESK)
    try {
      const login = await context.request.post(`${world.base}/api/login/`, { data: { email, password } })
      expect(login.status()).toBe(200)
      const seen = await context.request.get(`${world.base}${apiFlags()}${locked.id}/`)
      expect((await seen.json()).can_edit).toBe(false)
      const page = await context.newPage()
      await page.goto(`${world.base}${flagPath(locked.id, "activity")}`)
      await entry(page, "changed the rollout from 10 % to 20 %").waitFor()
      expect(await page.getByRole("button", { name: /^Restore this version/ }).count()).toBe(0)
    } finally {
      await context.close()
    }
  })
})

describe("a flag's usage and code in Chromium", () => {
  it("draws the calls the SDKs reported per day and value, and the Evaluate tab's runs count as none", () =>
    withPage(PHONE, async (page) => {
      const flag = await sent("POST", apiFlags(), {
        key: "usage-drawn",
        filters: {
          groups: [{ properties: [], rollout_percentage: 100 }],
          multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
        }
      })
      const called = (value: string) => ({ event: "$feature_flag_called", distinct_id: `p-${value}`, properties: { $feature_flag: "usage-drawn", $feature_flag_response: value } })
      const capture = await fetch(`${world.base}/batch/`, {
        method: "POST",
        body: JSON.stringify({ api_key: token, batch: [called("control"), called("control"), called("control"), called("test")] })
      })
      expect(capture.status).toBe(200)
      const report = await held(`${apiFlags()}${flag.id}/usage/`)
      expect(report.total).toBe(4)
      const today = report.days.at(-1)

      await world.logInAt(page, flagPath(flag.id, "usage"))
      await page.getByRole("img", { name: /^Calls per day .*: 4 in all, at most 4 in a day; control 3, test 1$/ }).waitFor()
      const row = page.getByRole("row", { name: new RegExp(`^${today}`) })
      expect(await row.getByRole("cell").allTextContents()).toEqual(["3", "1", "4"])
      await checked(page, "usage tab, 390 px")

      // A flag tried in the Evaluate tab only: no call, no "Last evaluated", nothing drawn.
      const tried = await sent("POST", apiFlags(), { key: "tried-only", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      await page.goto(`${world.base}${flagPath(tried.id, "evaluate")}`)
      for (const distinctId of ["ann", "bob", "cy"]) {
        await page.getByLabel("Distinct ID").fill(distinctId)
        await page.getByRole("button", { name: "Evaluate" }).click()
        await page.getByRole("status", { name: "Evaluation result" }).getByText("Matched condition set 1 (condition_match)").waitFor()
      }
      const after = await held(`${apiFlags()}${tried.id}/`)
      expect(after.last_called_at).toBeNull()
      expect((await held(`${apiFlags()}${tried.id}/usage/`)).total).toBe(0)
      await page.getByRole("link", { name: "Usage" }).click()
      await page.getByText("No calls reported in this range.").waitFor()
      await page.getByText("Last evaluated: Never").waitFor()
    }))

  it("gives snippets for posthog-js, posthog-node and the embedding with the token, this server and the flag's key", () =>
    withPage(PHONE, async (page) => {
      const flag = await sent("POST", apiFlags(), {
        key: "code-shown",
        filters: {
          groups: [{ properties: [], rollout_percentage: 100 }],
          multivariate: { variants: [{ key: "red", rollout_percentage: 50 }, { key: "blue", rollout_percentage: 50 }] },
          payloads: { red: "\"#f00\"" }
        }
      })
      await world.logInAt(page, flagPath(flag.id, "code"))
      const code = (name: string) => page.getByRole("region", { name }).locator("pre").textContent()
      const browser = await code("In the browser (posthog-js)")
      expect(browser).toContain(`posthog.init(${JSON.stringify(token)}, { api_host: ${JSON.stringify(world.base)} })`)
      expect(browser).toContain(`posthog.getFeatureFlag("code-shown")`)
      expect(browser).toContain(`variant === "blue"`)
      expect(browser).toContain(`posthog.getFeatureFlagResult("code-shown")?.payload`)
      const server = await code("On a Node server (posthog-node, local evaluation)")
      expect(server).toContain(`new PostHog(${JSON.stringify(token)}, {\n  host: ${JSON.stringify(world.base)},`)
      expect(server).toContain("personalApiKey: process.env.HEDGEROW_PERSONAL_API_KEY")
      expect(server).toContain("featureFlagsPollingInterval: 30_000")
      expect(server).toContain(`flags.getFlag("code-shown")`)
      const embedded = await code("Embedded in a Node application (Hedgerow in-process)")
      expect(embedded).toContain(`project: { apiToken: ${JSON.stringify(token)} }`)
      expect(embedded).toContain(`hedgerow.flags.getVariant("code-shown", "user-42", options)`)
      await checked(page, "code tab, 390 px")

      // A boolean flag is read as on or off.
      const plain = await sent("POST", apiFlags(), { key: "code-plain", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
      await page.goto(`${world.base}${flagPath(plain.id, "code")}`)
      const on = await code("In the browser (posthog-js)")
      expect(on).toContain(`if (posthog.isFeatureEnabled("code-plain"))`)
      expect(on).not.toContain("payload")
    }))
})
