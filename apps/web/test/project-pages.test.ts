import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
// By path, as the harness takes the network: the receiver is the one the server's own webhook suites use.
import { eventually, startReceiver } from "../../../packages/store/src/testing/webhook-receiver.ts"
import { isFocused, logInForm, seriousViolations, useConsole } from "./harness.ts"

// A project's cohorts, group types and webhooks pages in Chromium against the real server; each step is
// checked against what the API then holds (asked with the owner's key). Webhooks are delivered to a real
// HTTP receiver on loopback, which the server is allowed to reach for this file.
const receiver = startReceiver((path) => path === "/down" ? 503 : 200)
let receiverUrl = ""
const world = useConsole({
  env: () => ({
    HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true",
    HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS: "200",
    HEDGEROW_WEBHOOKS_TIMEOUT_MS: "2000",
    HEDGEROW_WEBHOOKS_POLL_MS: "50"
  })
})
const { owner, held } = world

const api = (path: string) => `/api/projects/${owner.project}${path}`
const page = (path: string) => `/project/${owner.project}${path}`
const PHONE = { viewport: { width: 390, height: 844 } }

/** A call with the owner's key (or `as`'s session-less key, "" for none); its status and JSON body. */
const call = async (method: string, path: string, body?: unknown) => {
  const response = await fetch(`${world.base}${path}`, {
    method,
    headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : JSON.parse(text) }
}

/**
 * axe in the light and the dark scheme, and nothing of the page's content (its `main`) wider than the
 * window, as it is now.
 */
const checked = async (browserPage: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await browserPage.emulateMedia({ colorScheme })
    expect(await seriousViolations(browserPage), `${what}, ${colorScheme}`).toEqual([])
  }
  const overflow = await browserPage.evaluate(() => {
    const main = document.querySelector("main")!
    return { content: main.scrollWidth - main.clientWidth, right: main.getBoundingClientRect().right - window.innerWidth }
  })
  expect(overflow.content, `${what}: content wider than the page`).toBeLessThanOrEqual(0)
  expect(overflow.right, `${what}: the page wider than the window`).toBeLessThanOrEqual(0)
}

const member = { email: "mo@example.com", password: "a member's password" }

beforeAll(async () => {
  receiverUrl = (await receiver).url("/hooks")
  // A member at level 1, who may read webhooks but not change them.
  const invite = await call("POST", `/api/organizations/${owner.organization}/invites/`, { target_email: member.email, level: 1, send_email: false })
  expect(invite.status).toBe(201)
  const signup = await fetch(`${world.base}/api/signup/${invite.body.id}/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ first_name: "Mo", password: member.password })
  })
  expect(signup.status).toBe(201)
  return async () => (await receiver).close()
})

describe("a project's cohorts in Chromium", () => {
  it("creates a dynamic cohort with the flag form's property editor, changes it, deletes it after asking and restores it", () =>
    world.withPage(PHONE, async (browser) => {
      await world.logInAt(browser, page("/cohorts"))
      await browser.getByText("This project has no cohorts yet.").waitFor()
      await checked(browser, "the empty cohorts list")
      await browser.getByRole("button", { name: "New cohort" }).click()
      await browser.getByLabel("Name", { exact: true }).fill("Acme staff")
      await browser.getByRole("button", { name: "Add a filter to group 1" }).click()
      await browser.getByLabel("Group 1 filter 1 Property").fill("email")
      await browser.getByLabel("Group 1 filter 1 Operator").selectOption("icontains")
      await browser.getByLabel("Group 1 filter 1 Value").fill("@acme.com")
      await checked(browser, "a new cohort's form")
      await browser.getByRole("button", { name: "Create cohort" }).click()
      await browser.waitForURL(/\/cohorts\/\d+$/)
      const id = browser.url().split("/").at(-1)!
      const created = await held(api(`/cohorts/${id}/`))
      expect(created.name).toBe("Acme staff")
      expect(created.is_static).toBe(false)
      expect(created.filters.properties.values[0].values).toEqual([
        expect.objectContaining({ key: "email", type: "person", operator: "icontains", value: "@acme.com" })
      ])
      await browser.getByRole("heading", { level: 1, name: "Acme staff" }).waitFor()
      expect(await browser.getByLabel("Group 1 filter 1 Value").inputValue()).toBe("@acme.com")

      // A second group, and "any group" kept as the top's match.
      await browser.getByLabel("Name", { exact: true }).fill("Acme and Globex staff")
      await browser.getByRole("button", { name: "Add a group" }).click()
      await browser.getByRole("button", { name: "Add a filter to group 2" }).click()
      await browser.getByLabel("Group 2 filter 1 Property").fill("email")
      await browser.getByLabel("Group 2 filter 1 Operator").selectOption("ends_with")
      await browser.getByLabel("Group 2 filter 1 Value").fill("@globex.com")
      // Leaving by a tab with the edits unsaved is asked first; Stay keeps them. Once saved, the tab goes.
      await browser.getByRole("link", { name: "Activity" }).click()
      const leave = browser.getByRole("dialog", { name: "Leave without saving?" })
      await leave.waitFor()
      await leave.getByRole("button", { name: "Stay" }).click()
      expect(await browser.getByLabel("Name", { exact: true }).inputValue()).toBe("Acme and Globex staff")
      await browser.getByRole("button", { name: "Save" }).click()
      await browser.getByRole("status").getByText("Saved.").waitFor()
      const changed = await held(api(`/cohorts/${id}/`))
      expect(changed.name).toBe("Acme and Globex staff")
      expect(changed.filters.properties.type).toBe("OR")
      expect(changed.filters.properties.values.map((group: { values: Array<{ value: string }> }) => group.values.map((filter) => filter.value)))
        .toEqual([["@acme.com"], ["@globex.com"]])

      // The activity says it in words.
      await browser.getByRole("link", { name: "Activity" }).click()
      await browser.getByRole("listitem").filter({ hasText: "created the cohort" }).waitFor()
      await browser.getByText("Name: “Acme staff” → “Acme and Globex staff”").waitFor()
      await checked(browser, "a cohort's activity")

      // Delete asks first: Cancel (where focus opens) keeps it.
      await browser.getByRole("button", { name: "Delete cohort" }).click()
      const dialog = browser.getByRole("dialog", { name: "Delete Acme and Globex staff?" })
      await dialog.waitFor()
      expect(await isFocused(dialog.getByRole("button", { name: "Cancel" }))).toBe(true)
      await dialog.getByRole("button", { name: "Cancel" }).click()
      expect((await held(api(`/cohorts/${id}/`))).deleted).toBe(false)
      await browser.getByRole("button", { name: "Delete cohort" }).click()
      await dialog.getByRole("button", { name: "Delete cohort" }).click()
      await browser.getByRole("status").getByText("The cohort is deleted; it can be restored.").waitFor()
      expect((await held(api(`/cohorts/${id}/`))).deleted).toBe(true)
      // Restore took Delete's place, and the keyboard is on it.
      expect(await isFocused(browser.getByRole("button", { name: "Restore cohort" }))).toBe(true)
      // A deleted cohort reads only: its fields are disabled and there is no Save.
      await browser.getByRole("link", { name: "Settings" }).click()
      expect(await browser.getByLabel("Name", { exact: true }).isDisabled()).toBe(true)
      expect(await browser.getByRole("button", { name: "Save" }).count()).toBe(0)
      await browser.getByRole("button", { name: "Restore cohort" }).click()
      await browser.getByRole("status").getByText("The cohort is restored.").waitFor()
      expect(await isFocused(browser.getByRole("button", { name: "Delete cohort" }))).toBe(true)
      expect((await held(api(`/cohorts/${id}/`))).deleted).toBe(false)
      expect(await browser.getByLabel("Name", { exact: true }).isDisabled()).toBe(false)
    }))

  it("makes a static cohort from distinct ids, adds and removes persons, and finds it by search as it is typed", () =>
    world.withPage({}, async (browser) => {
      await world.logInAt(browser, page("/cohorts/new"))
      await browser.getByLabel("Name", { exact: true }).fill("Beta testers")
      await browser.getByLabel("Type", { exact: true }).selectOption("static")
      await browser.getByLabel("Distinct IDs", { exact: true }).fill("user-1\nuser-2")
      await browser.getByRole("button", { name: "Create cohort" }).click()
      await browser.waitForURL(/\/cohorts\/\d+\?tab=persons$/)
      const id = new URL(browser.url()).pathname.split("/").at(-1)!
      const members = async () =>
        ((await held(api(`/cohorts/${id}/persons/`))).results as Array<{ distinct_ids: Array<string> }>).map((person) => person.distinct_ids[0])
      expect(await members()).toEqual(["user-1", "user-2"])
      await browser.getByRole("button", { name: "Remove user-2" }).waitFor()
      await checked(browser, "a static cohort's persons")

      await browser.getByLabel("Distinct IDs to add").fill("user-3, user-4")
      await browser.getByRole("button", { name: "Add persons" }).click()
      await browser.getByRole("status").getByText("2 distinct ids were added.").waitFor()
      expect(await members()).toEqual(["user-1", "user-2", "user-3", "user-4"])
      await browser.getByText("4 persons.").waitFor()
      expect(await browser.getByLabel("Distinct IDs to add").inputValue()).toBe("")

      await browser.getByRole("button", { name: "Remove user-1" }).click()
      await browser.getByRole("status").getByText("user-1 was removed.").waitFor()
      expect(await members()).toEqual(["user-2", "user-3", "user-4"])
      expect(await browser.getByRole("button", { name: "Remove user-1" }).count()).toBe(0)
      // The removed row's button is gone: the keyboard goes on from the list's heading.
      expect(await isFocused(browser.getByRole("heading", { name: "Persons" }))).toBe(true)

      // The list, searched as the name is typed: the URL follows, and so does the list.
      await browser.goto(`${world.base}${page("/cohorts")}`)
      await browser.getByRole("link", { name: "Beta testers" }).waitFor()
      await browser.getByRole("link", { name: "Acme and Globex staff" }).waitFor()
      await browser.getByLabel("Search", { exact: true }).pressSequentially("beta")
      await browser.waitForURL(`${world.base}${page("/cohorts?search=beta")}`)
      await browser.getByRole("link", { name: "Acme and Globex staff" }).waitFor({ state: "detached" })
      expect(await browser.getByRole("table").getByRole("link").allTextContents()).toEqual(["Beta testers"])
      expect(await browser.getByLabel("Search", { exact: true }).inputValue()).toBe("beta")
      expect(await isFocused(browser.getByLabel("Search", { exact: true }))).toBe(true)
      await browser.getByLabel("Search", { exact: true }).fill("nothing like it")
      await browser.getByText("No cohort's name contains “nothing like it”.").waitFor()
    }))
})

describe("a cohort an active flag uses", () => {
  it("is not deleted: the dialog shows the API's refusal in its words, and the cohort stays", () =>
    world.withPage({}, async (browser) => {
      const cohort = await call("POST", api("/cohorts/"), { name: "Pilot customers", is_static: true, _create_static_person_ids: ["pilot-1"] })
      expect(cohort.status).toBe(201)
      const flag = await call("POST", api("/feature_flags/"), {
        key: "pilot-feature",
        filters: { groups: [{ properties: [{ key: "id", type: "cohort", value: cohort.body.id }], rollout_percentage: 100 }] }
      })
      expect(flag.status).toBe(201)
      // What the API answers such a delete, asked beside the page (and refused, so nothing changes).
      const refusal = await call("PATCH", api(`/cohorts/${cohort.body.id}/`), { deleted: true })
      expect(refusal.status).toBe(400)
      await world.logInAt(browser, page(`/cohorts/${cohort.body.id}`))
      await browser.getByRole("button", { name: "Delete cohort" }).click()
      const dialog = browser.getByRole("dialog", { name: "Delete Pilot customers?" })
      await dialog.getByRole("button", { name: "Delete cohort" }).click()
      await dialog.getByRole("alert").getByText(refusal.body.detail, { exact: true }).waitFor()
      expect((await held(api(`/cohorts/${cohort.body.id}/`))).deleted).toBe(false)
      await dialog.getByRole("button", { name: "Cancel" }).click()
      expect(await browser.getByRole("button", { name: "Restore cohort" }).count()).toBe(0)
    }))
})

describe("a project's group types in Chromium", () => {
  it("adds a group type, names it, and deletes it after saying what flags on its index do", () =>
    world.withPage(PHONE, async (browser) => {
      await world.logInAt(browser, page("/group-types"))
      await browser.getByText("This project has no group types yet.").waitFor()
      await browser.getByLabel("Group type", { exact: true }).fill("company")
      await browser.getByRole("button", { name: "Add group type" }).click()
      await browser.getByRole("status").getByText("company was added at index 0.").waitFor()
      expect((await held(api("/groups_types/"))).map((one: { group_type: string }) => one.group_type)).toEqual(["company"])

      // The API's refusal of a name the project has, by the field.
      await browser.getByLabel("Group type", { exact: true }).fill("company")
      await browser.getByRole("button", { name: "Add group type" }).click()
      const refused = await call("POST", api("/groups_types/"), { group_type: "company" })
      await browser.getByText(refused.body.detail, { exact: true }).waitFor()

      const card = browser.getByRole("article", { name: "company" })
      await card.getByLabel("Singular name").fill("Company")
      await card.getByLabel("Plural name").fill("Companies")
      await card.getByRole("button", { name: "Save names of company" }).click()
      await card.getByRole("status").getByText("Names saved.").waitFor()
      expect(await held(api("/groups_types/"))).toEqual([
        expect.objectContaining({ group_type: "company", group_type_index: 0, name_singular: "Company", name_plural: "Companies" })
      ])
      await checked(browser, "group types")

      await card.getByRole("button", { name: "Delete company" }).click()
      const dialog = browser.getByRole("dialog", { name: "Delete the group type company?" })
      await dialog.getByText("Flags that aggregate by it are kept, and evaluate to off", { exact: false }).waitFor()
      await dialog.getByRole("button", { name: "Delete group type" }).click()
      await browser.getByRole("status").getByText("company was deleted.").waitFor()
      expect(await held(api("/groups_types/"))).toEqual([])
      await browser.getByText("This project has no group types yet.").waitFor()
    }))
})

describe("a project's webhooks in Chromium", () => {
  it("adds a webhook with its secret shown once, sends a test to a real receiver and shows the delivery, disables and deletes it", () =>
    world.withPage(PHONE, async (browser) => {
      await world.logInAt(browser, page("/webhooks"))
      await browser.getByText("This project has no webhooks yet.").waitFor()
      await browser.getByLabel("Receiver URL").fill(receiverUrl)
      await browser.getByLabel("Description").fill("Deploy bot")
      await browser.getByRole("checkbox", { name: "Every change" }).uncheck()
      await browser.getByRole("checkbox", { name: "A flag is changed feature_flag.updated" }).check()
      await browser.getByRole("button", { name: "Add webhook" }).click()
      const secretHeading = browser.getByRole("heading", { name: `The signing secret of ${receiverUrl}` })
      await secretHeading.waitFor()
      expect(await isFocused(secretHeading)).toBe(true)
      const secret = await browser.locator(".new-key-value code").textContent()
      expect(secret).toMatch(/^whsec_/)
      const listed = await held(api("/webhooks/"))
      expect(listed.results).toEqual([expect.objectContaining({ url: receiverUrl, description: "Deploy bot", events: ["feature_flag.updated"], enabled: true })])
      expect(JSON.stringify(listed)).not.toContain(secret)
      await checked(browser, "webhooks with a new secret")
      const id: string = listed.results[0].id

      await browser.getByRole("link", { name: receiverUrl }).click()
      await browser.getByText("Nothing has been sent to this webhook yet.").waitFor()
      // The secret is not on the webhook's page.
      expect(await browser.getByText(secret!).count()).toBe(0)
      await browser.getByRole("button", { name: "Send test" }).click()
      await browser.getByRole("status").getByText("A test delivery was sent; it is listed under Deliveries.").waitFor()
      const received = await eventually(async () => (await receiver).on("/hooks")[0])
      expect(JSON.parse(received.body).type).toBe("webhook.test")
      // The list reads itself again while the delivery is pending, until the receiver's answer shows.
      const row = browser.getByRole("row").filter({ hasText: "webhook.test" })
      await row.getByText("Delivered").waitFor()
      await row.getByText("HTTP 200", { exact: true }).waitFor()
      // Its attempts, under the answer: when, what the receiver said, and the opening of its reply.
      await row.getByText("HTTP 200", { exact: true }).click()
      await row.getByRole("listitem").filter({ hasText: /HTTP 200 after \d+ ms/ }).waitFor()
      await row.getByText("answer 200 to request 0").waitFor()
      const deliveries = await held(api(`/webhooks/${id}/deliveries/`))
      expect(deliveries.results).toEqual([expect.objectContaining({ id: received.headers["webhook-id"], event: "webhook.test", status: "delivered" })])
      expect(await row.getByRole("cell").nth(2).textContent()).toBe(String(deliveries.results[0].attempts.length))
      await checked(browser, "a webhook and its delivery")

      await browser.getByRole("button", { name: "Disable" }).click()
      await browser.getByRole("status").getByText("The webhook is disabled", { exact: false }).waitFor()
      expect((await held(api(`/webhooks/${id}/`))).enabled).toBe(false)
      expect(await browser.getByRole("switch", { name: "Enabled" }).isChecked()).toBe(false)

      // Its settings, changed in the form.
      await browser.getByLabel("Description").fill("Release bot")
      await browser.getByRole("checkbox", { name: "A flag is created feature_flag.created" }).check()
      await browser.getByRole("button", { name: "Save" }).click()
      await browser.getByRole("status").getByText("Saved.").waitFor()
      expect(await held(api(`/webhooks/${id}/`))).toEqual(
        expect.objectContaining({ description: "Release bot", events: ["feature_flag.updated", "feature_flag.created"], enabled: false })
      )

      await browser.getByRole("button", { name: "Delete webhook" }).click()
      const dialog = browser.getByRole("dialog", { name: `Delete the webhook to ${receiverUrl}?` })
      expect(await isFocused(dialog.getByRole("button", { name: "Cancel" }))).toBe(true)
      await dialog.getByRole("button", { name: "Delete webhook" }).click()
      await browser.waitForURL(`${world.base}${page("/webhooks")}`)
      await browser.getByText("This project has no webhooks yet.").waitFor()
      expect((await call("GET", api(`/webhooks/${id}/`))).status).toBe(404)
    }))

  it("pages a webhook's deliveries 20 at a time, as the API counts them", () =>
    world.withPage({}, async (browser) => {
      const created = await call("POST", api("/webhooks/"), { url: (await receiver).url("/many"), description: "Busy" })
      expect(created.status).toBe(201)
      const id: string = created.body.id
      for (let n = 0; n < 21; n++) expect((await call("POST", api(`/webhooks/${id}/test/`))).status).toBe(201)
      const listed = await held(api(`/webhooks/${id}/deliveries/?limit=20&offset=20`))
      expect(listed.count).toBe(21)
      await world.logInAt(browser, page(`/webhooks/${id}`))
      const pages = browser.getByRole("navigation", { name: "Deliveries pages" })
      await pages.getByText("Page 1 of 2").waitFor()
      expect(await browser.getByRole("row").filter({ hasText: "webhook.test" }).count()).toBe(20)
      await pages.getByRole("link", { name: "Next page" }).click()
      await browser.waitForURL(`${world.base}${page(`/webhooks/${id}?page=2`)}`)
      await pages.getByText("Page 2 of 2").waitFor()
      const rows = browser.getByRole("row").filter({ hasText: "webhook.test" })
      await rows.first().waitFor()
      expect(await rows.count()).toBe(1)
      expect(listed.results).toHaveLength(1)
      expect(await call("DELETE", api(`/webhooks/${id}/`)).then((answer) => answer.status)).toBe(204)
    }))

  it("shows a member who may not change webhooks the list and a webhook read-only, with no way to add, test or delete", () =>
    world.withPage({}, async (browser) => {
      const created = await call("POST", api("/webhooks/"), { url: (await receiver).url("/down"), description: "Pager" })
      expect(created.status).toBe(201)
      await browser.goto(`${world.base}${page("/webhooks")}`)
      const form = logInForm(browser)
      await form.email.fill(member.email)
      await form.password.fill(member.password)
      await form.submit.click()
      await browser.waitForURL(`${world.base}${page("/webhooks")}`)
      await browser.getByText("Only the organization's administrators and owners can add or change webhooks.").waitFor()
      expect(await browser.getByLabel("Receiver URL").count()).toBe(0)
      expect(await browser.getByRole("button", { name: "Add webhook" }).count()).toBe(0)
      await checked(browser, "webhooks, read-only")

      await browser.getByRole("link", { name: created.body.url }).click()
      await browser.getByText("Only the organization's administrators and owners can change, test or delete webhooks.").waitFor()
      await browser.getByText("Pager", { exact: true }).waitFor()
      for (const name of ["Send test", "Disable", "Delete webhook", "Save"]) {
        expect(await browser.getByRole("button", { name }).count(), name).toBe(0)
      }
      expect(await browser.getByRole("textbox").count()).toBe(0)
      await browser.getByText("Nothing has been sent to this webhook yet.").waitFor()
      await checked(browser, "a webhook, read-only")
    }))
})
