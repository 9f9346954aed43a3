import { BatchExportService, systemActor } from "@hedgerow/core"
import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { hrefOf } from "../src/router/routes.ts"
import { isFocused, seriousViolations, sidewaysOverflow, useConsole } from "./harness.ts"

// The shell at a phone's size and a laptop's, and what it does when things go wrong: the account's
// links behind a button on a narrow screen, every table fitting the window with long words in it, a
// session that ends under an open page, and the focus on an error once it shows.
const world = useConsole()
const { owner, withPage, sent } = world

const PHONE = { width: 390, height: 844 }
const LAPTOP = { width: 1440, height: 900 }

/** Words with no place to break but the ones the page makes: a label at the API's 40-character limit, an e-mail, a name. */
const LONG = {
  keyLabel: "Ci".repeat(20),
  email: "someone.with.a.very.long.mailbox.name.for.wrapping@a-long-organization-domain-name.example",
  batchExport: "Nightly".repeat(12),
  domain: "a-really-quite-long-subdomain-label-for-testing-the-wrapping.example",
  flagKey: "checkout".repeat(15)
}

/** Ids the tests need: a key of the owner's, the flag with the long key. */
const seeded = { keyId: "", flagId: "" }


/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
  await page.emulateMedia({ colorScheme: null })
}

/** Whether the whole of `locator`'s box is inside the window. */
const inView = async (page: Page, box: { x: number; y: number; width: number; height: number } | null) => {
  const size = page.viewportSize()!
  return box !== null && box.x >= 0 && box.y >= 0 && box.x + box.width <= size.width && box.y + box.height <= size.height
}

/** Ends the page's session behind its back, as a log-out in another tab of the same browser does. */
const endSession = async (page: Page) => {
  const csrf = (await page.context().cookies()).find((cookie) => cookie.name === "posthog_csrftoken")!.value
  const out = await page.request.post(`${world.base}/api/logout/`, { headers: { "x-csrftoken": csrf, origin: world.base } })
  expect(out.status()).toBeLessThan(300)
  // The session is gone for the API itself, not only for this browser.
  expect((await page.request.get(`${world.base}/api/users/@me/`)).status()).toBe(401)
}

beforeAll(async () => {
  const organization = `/api/organizations/${owner.organization}`
  seeded.keyId = (await sent("POST", "/api/personal_api_keys/", { label: LONG.keyLabel, scopes: ["feature_flag:read"] })).id
  const joined = await sent("POST", `${organization}/invites/`, { target_email: LONG.email, level: 8, send_email: false })
  await sent("POST", `/api/signup/${joined.id}/`, { first_name: "Lee", password: "a teammate's password" }, "")
  await sent("POST", `${organization}/invites/`, { target_email: `invited.${LONG.email}`, first_name: "Tess", send_email: false })
  await sent("POST", `${organization}/domains/`, { domain: LONG.domain })
  await world.operate(BatchExportService.use((s) => s.create(systemActor, owner.organization, { project_id: owner.project, name: LONG.batchExport })))
  seeded.flagId = String((await sent("POST", `/api/projects/${owner.project}/feature_flags/`, { key: LONG.flagKey, name: "A flag whose key is long" })).id)
})

describe("the header on a phone's screen", () => {
  it("puts the account's links behind an Account button, each reachable by the keyboard and inside the window", async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      const organizationPage = hrefOf({ page: "organization", organizationId: owner.organization, pageNumber: 1 })
      await world.logInAt(page, organizationPage)
      const account = page.getByRole("button", { name: "Account", exact: true })
      await account.waitFor()
      // Closed, the links are neither seen nor read out.
      expect(await page.getByRole("link", { name: "Personal API keys" }).count()).toBe(0)
      expect(await account.getAttribute("aria-expanded")).toBe("false")
      expect(await inView(page, await account.boundingBox())).toBe(true)

      await account.focus()
      await page.keyboard.press("Enter")
      expect(await account.getAttribute("aria-expanded")).toBe("true")
      await page.getByText(owner.email, { exact: true }).waitFor()
      // Tab goes from the button through the panel's links to Log out, each whole inside the window.
      for (const name of ["Personal API keys", "Two-factor authentication", "Log out"]) {
        await page.keyboard.press("Tab")
        const control = page.getByRole(name === "Log out" ? "button" : "link", { name, exact: true })
        expect(await isFocused(control), name).toBe(true)
        expect(await inView(page, await control.boundingBox()), name).toBe(true)
      }
      expect(await inView(page, await page.getByText(owner.email, { exact: true }).boundingBox())).toBe(true)
      expect(await sidewaysOverflow(page)).toEqual({ overflow: 0, wider: [] })
      await accessible(page, "the account panel open")

      // Escape closes the panel and gives the focus back to its button.
      await page.keyboard.press("Escape")
      expect(await account.getAttribute("aria-expanded")).toBe("false")
      expect(await isFocused(account)).toBe(true)

      // A link followed from the panel leads to its page and closes the panel.
      await account.click()
      await page.getByRole("link", { name: "Two-factor authentication" }).click()
      await page.getByRole("heading", { level: 1, name: "Two-factor authentication" }).waitFor()
      expect(await account.getAttribute("aria-expanded")).toBe("false")

      // The organization's tabs wrap inside the window.
      await page.goto(`${world.base}${organizationPage}`)
      const tabs = page.getByRole("navigation", { name: "Organization" })
      await tabs.waitFor()
      for (const name of ["Projects", "Members", "Invites", "Domains", "Batch exports"]) {
        expect(await inView(page, await tabs.getByRole("link", { name, exact: true }).boundingBox()), name).toBe(true)
      }
      // The switcher's panel opens inside the window too.
      await page.getByRole("button", { name: /^Switch organization or project/ }).click()
      await page.getByRole("heading", { name: "Organizations" }).waitFor()
      expect(await sidewaysOverflow(page)).toEqual({ overflow: 0, wider: [] })
    })
  })

  it("shows the account's links in its line on a wide screen, with no Account button", async () => {
    await withPage({ viewport: LAPTOP }, async (page) => {
      await world.logInAt(page, hrefOf({ page: "personalApiKeys" }))
      await page.getByRole("link", { name: "Personal API keys" }).waitFor()
      expect(await page.getByRole("button", { name: "Account", exact: true }).count()).toBe(0)
      expect(await page.getByText(owner.email, { exact: true }).isVisible()).toBe(true)
      expect(await page.getByRole("button", { name: "Log out" }).isVisible()).toBe(true)
    })
  })
})

describe("tables with long words in them", () => {
  const pages = [
    { what: "personal API keys", path: () => hrefOf({ page: "personalApiKeys" }), shows: LONG.keyLabel },
    { what: "members", path: () => hrefOf({ page: "members", organizationId: owner.organization, pageNumber: 1 }), shows: LONG.email },
    { what: "invites", path: () => hrefOf({ page: "invites", organizationId: owner.organization, pageNumber: 1 }), shows: `invited.${LONG.email}` },
    { what: "domains", path: () => hrefOf({ page: "domains", organizationId: owner.organization, pageNumber: 1 }), shows: LONG.domain },
    { what: "batch exports", path: () => hrefOf({ page: "batchExports", organizationId: owner.organization, pageNumber: 1 }), shows: LONG.batchExport },
    {
      what: "a flag whose key is long",
      path: () => hrefOf({ page: "flag", projectId: String(owner.project), flagId: seeded.flagId, tab: "settings", pageNumber: 1 }),
      shows: LONG.flagKey
    }
  ]
  it.each(pages.flatMap((visit) => [PHONE, LAPTOP].map((size) => [visit.what, `${size.width}px`, visit, size] as const)))(
    "%s at %s: the page does not scroll sideways, and the long words are whole inside the window",
    async (_, __, visit, size) => {
      await withPage({ viewport: size }, async (page) => {
        await world.logInAt(page, visit.path())
        const words = page.getByText(visit.shows, { exact: true }).first()
        await words.waitFor()
        await page.waitForFunction(() => !document.body.innerText.includes("Loading…"))
        expect(await sidewaysOverflow(page)).toEqual({ overflow: 0, wider: [] })
        const box = (await words.boundingBox())!
        expect(box.x + box.width).toBeLessThanOrEqual(size.width)
      })
    }
  )

  it("shows each row of a table as a card on a phone, each cell under its column's words", async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      await world.logInAt(page, hrefOf({ page: "personalApiKeys" }))
      const row = page.getByRole("row", { name: new RegExp(LONG.keyLabel) })
      await row.waitFor()
      const scopes = row.locator("td[data-label='Scopes']")
      expect(await scopes.evaluate((cell) => getComputedStyle(cell, "::before").content)).toBe("\"Scopes\"")
      // The row's cells stand under each other, not beside.
      const value = (await row.locator("td[data-label='Value']").boundingBox())!
      expect((await scopes.boundingBox())!.y).toBeGreaterThan(value.y)
      // The table keeps its column headers for a screen reader.
      expect(await page.getByRole("columnheader", { name: "Scopes" }).count()).toBe(1)
      await accessible(page, "the keys as cards")
    })
  })
})

describe("a session that ends under an open page", () => {
  it("says so instead of the API's words, and logging in again comes back to the same page", async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      const keyPage = hrefOf({ page: "personalApiKey", keyId: seeded.keyId })
      await world.logInAt(page, keyPage)
      const label = page.getByLabel("Label", { exact: true })
      await label.waitFor()
      await endSession(page)

      // A write the page then makes is refused: the page says the session ended, and how to go on.
      await label.fill("Renamed after the end")
      await page.getByRole("button", { name: "Save", exact: true }).click()
      const dialog = page.getByRole("alertdialog", { name: "Your session has ended" })
      await dialog.waitFor()
      expect(await page.getByText("Authentication credentials were not provided.").count()).toBe(0)
      const again = dialog.getByRole("link", { name: "Log in again" })
      expect(await isFocused(again)).toBe(true)
      expect(new URL((await again.getAttribute("href"))!, world.base).searchParams.get("next")).toBe(keyPage)
      await accessible(page, "the session-ended dialog")

      // Closed to copy what was typed, the page stays, with a line that still leads back in.
      await dialog.getByRole("button", { name: "Close" }).click()
      expect(await label.inputValue()).toBe("Renamed after the end")
      await page.locator(".session-ended").getByRole("link", { name: "Log in again" }).waitFor()

      // A read the page makes after (another page of the shell, leaving the unsaved label behind when
      // asked) says the same.
      await page.getByRole("link", { name: "Personal API keys", exact: true }).first().click()
      await page.getByRole("dialog", { name: "Leave without saving?" }).getByRole("button", { name: "Leave without saving" }).click()
      await page.getByRole("alertdialog", { name: "Your session has ended" }).waitFor()
      await page.getByRole("alertdialog").getByRole("link", { name: "Log in again" }).click()
      await page.waitForURL((url) => url.pathname === "/login")
      await page.getByLabel("Email").fill(owner.email)
      await page.getByLabel("Password").fill(owner.password)
      await page.getByRole("button", { name: "Log in" }).click()
      await page.waitForURL(`${world.base}${hrefOf({ page: "personalApiKeys" })}`)
      await page.getByRole("link", { name: LONG.keyLabel }).waitFor()
      expect(await page.getByRole("alertdialog").count()).toBe(0)
    })
  })

  it("sends a page opened with no session to the log-in, with that page as where to go after", async () => {
    await withPage({ viewport: LAPTOP }, async (page) => {
      const batchExports = hrefOf({ page: "batchExports", organizationId: owner.organization, pageNumber: 1 })
      await world.logInAt(page, batchExports)
      await page.getByRole("rowheader", { name: LONG.batchExport, exact: true }).waitFor()
      await endSession(page)
      // A page load finds no session: that is no session ending under the page, so the log-in comes at once.
      await page.reload()
      await page.waitForURL((url) => url.pathname === "/login" && url.searchParams.get("next") === batchExports)
      expect(await page.getByRole("alertdialog").count()).toBe(0)
    })
  })
})

describe("unsaved edits", () => {
  it("are asked about before a link of the console leaves them, and kept when the person stays", async () => {
    await withPage({ viewport: LAPTOP }, async (page) => {
      const keyPage = hrefOf({ page: "personalApiKey", keyId: seeded.keyId })
      await world.logInAt(page, keyPage)
      const label = page.getByLabel("Label", { exact: true })
      await label.waitFor()
      const saved = await label.inputValue()
      // Untouched, a link leaves at once.
      await page.getByRole("link", { name: "Two-factor authentication" }).click()
      await page.waitForURL(`${world.base}${hrefOf({ page: "twoFactor" })}`)
      await page.goBack()
      await label.fill("Edited, not saved")

      const question = page.getByRole("dialog", { name: "Leave without saving?" })
      await page.getByRole("link", { name: "Two-factor authentication" }).click()
      await question.waitFor()
      expect(await isFocused(question.getByRole("button", { name: "Stay" }))).toBe(true)
      await page.keyboard.press("Enter")
      await question.waitFor({ state: "hidden" })
      expect(new URL(page.url()).pathname).toBe(keyPage)
      expect(await label.inputValue()).toBe("Edited, not saved")

      await page.getByRole("link", { name: "Two-factor authentication" }).click()
      await question.getByRole("button", { name: "Leave without saving" }).click()
      await page.waitForURL(`${world.base}${hrefOf({ page: "twoFactor" })}`)
      // Nothing was saved on the way out.
      expect((await world.held(`/api/personal_api_keys/${seeded.keyId}/`)).label).toBe(saved)
    })
  })
})

describe("focus once something goes wrong", () => {
  it("moves to a page's failure as it shows", async () => {
    await withPage({ viewport: LAPTOP }, async (page) => {
      await world.logInAt(page, hrefOf({ page: "personalApiKeys" }))
      await page.getByRole("link", { name: LONG.keyLabel }).waitFor()
      await page.goto(`${world.base}${hrefOf({ page: "personalApiKey", keyId: "01900000-0000-7000-8000-000000000000" })}`)
      const failure = page.getByRole("alert").filter({ hasText: "Not found." })
      await failure.waitFor()
      expect(await isFocused(failure)).toBe(true)
    })
  })

  it("moves to the field a refusal names when the form's button had it", async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      await world.logInAt(page, hrefOf({ page: "personalApiKey", keyId: seeded.keyId }))
      const label = page.getByLabel("Label", { exact: true })
      await label.fill("x".repeat(41))
      await page.getByRole("button", { name: "Save", exact: true }).click()
      await page.getByText("Ensure this field has no more than 40 characters.").waitFor()
      expect(await isFocused(label)).toBe(true)
      expect(await label.getAttribute("aria-invalid")).toBe("true")
    })
  })

  it("moves to a refusal in a confirmation's dialog, and the notice of a change shows inside the window", async () => {
    await withPage({ viewport: PHONE }, async (page) => {
      const { id } = await sent("POST", "/api/personal_api_keys/", { label: "Revoked twice", scopes: ["feature_flag:read"] })
      await world.logInAt(page, hrefOf({ page: "personalApiKeys" }))
      const row = page.getByRole("row", { name: /Revoked twice/ })
      await row.getByRole("button", { name: "Revoke “Revoked twice”" }).click()
      // Meanwhile a script revokes it: the dialog's Revoke is refused.
      const gone = await fetch(`${world.base}/api/personal_api_keys/${id}/`, { method: "DELETE", headers: { authorization: `Bearer ${owner.key}` } })
      expect(gone.status).toBe(204)
      const dialog = page.getByRole("dialog", { name: "Revoke “Revoked twice”?" })
      await dialog.getByRole("button", { name: "Revoke key" }).click()
      const refusal = dialog.getByRole("alert")
      await refusal.waitFor()
      expect(await isFocused(refusal)).toBe(true)
      await dialog.getByRole("button", { name: "Cancel" }).click()

      // A save at the foot of a form taller than the window: its notice shows in the window, read out.
      await page.goto(`${world.base}${hrefOf({ page: "personalApiKey", keyId: seeded.keyId })}`)
      await page.getByLabel("Label", { exact: true }).fill("Saved on a phone")
      const save = page.getByRole("button", { name: "Save", exact: true })
      await save.scrollIntoViewIfNeeded()
      await save.click()
      const notice = page.getByRole("status").filter({ hasText: "Saved." })
      await notice.waitFor()
      expect(await inView(page, await notice.boundingBox())).toBe(true)
      await accessible(page, "a notice shown")
    })
  })
})
