import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { hrefOf, parseRoute } from "../src/router/routes.ts"
import { logInForm, seriousViolations, useConsole } from "./harness.ts"

// The page `hedgerow login --browser` sends a person to, in Chromium against the real server: the test
// plays the CLI over HTTP (a device code, then polls) while the page approves.
const world = useConsole()
const { owner, withPage } = world

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** What the CLI does first: a device code and a user code. */
const started = async () => {
  const response = await fetch(`${world.base}/api/cli-auth/device-code/`, { method: "POST" })
  expect(response.status).toBe(200)
  return (await response.json()) as { device_code: string; user_code: string; verification_uri_complete: string }
}

/** One poll of the CLI's: its status and body. */
const polled = async (device_code: string) => {
  const response = await fetch(`${world.base}/api/cli-auth/poll/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ device_code })
  })
  return { status: response.status, body: await response.json() }
}

const QUESTION = () => `Authorize the Hedgerow CLI on your computer to act as ${owner.email}?`

describe("the CLI authorization page's URL", () => {
  it("carries the code, or none when it is typed by hand", () => {
    for (const route of [{ page: "cliAuthorize", code: "ABCD-1234" }, { page: "cliAuthorize", code: "" }] as const) {
      const url = new URL(hrefOf(route), "http://console.test")
      expect(parseRoute(url.pathname, url.search)).toEqual(route)
    }
    expect(hrefOf({ page: "cliAuthorize", code: "AB&CD" })).toBe("/cli/authorize?code=AB%26CD")
    expect(parseRoute("/cli/authorize/more", "")).toEqual({ page: "notFound" })
  })
})

describe("the CLI authorization page in Chromium", () => {
  it("sends a person with no session to log in and back, shows the code, asks first, and approves: the CLI's next poll gets the key", () =>
    withPage({}, async (page) => {
      const grant = await started()
      await page.goto(grant.verification_uri_complete.replace(/^https?:\/\/[^/]+/, world.base))
      // No session: the log-in page, which comes back here.
      const form = logInForm(page)
      await form.email.fill(owner.email)
      await form.password.fill(owner.password)
      await form.submit.click()
      await page.waitForURL(`${world.base}/cli/authorize?code=${grant.user_code}`)

      const code = page.getByLabel("Code", { exact: true })
      await code.waitFor()
      expect(await code.inputValue()).toBe(grant.user_code)
      const project = await world.held(`/api/projects/${owner.project}/`)
      const picked = page.getByLabel("Project", { exact: true })
      await picked.getByRole("option", { name: project.name }).waitFor({ state: "attached" })
      expect(await picked.inputValue()).toBe(String(owner.project))
      await page.getByText(QUESTION(), { exact: true }).waitFor()
      expect(await page.title()).toBe("Authorize the Hedgerow CLI · Hedgerow")
      await accessible(page, "the question")
      // Nothing is sent before the person answers.
      expect(await polled(grant.device_code)).toEqual({ status: 202, body: { status: "pending" } })

      await page.getByRole("button", { name: "Authorize" }).click()
      const done = page.getByRole("status")
      await done.getByText(/^Return to your terminal/).waitFor()
      await page.getByRole("heading", { level: 1, name: "The Hedgerow CLI is authorized" }).waitFor()
      await accessible(page, "authorized")

      const taken = await polled(grant.device_code)
      expect(taken.status).toBe(200)
      expect(taken.body).toMatchObject({ status: "authorized", project_id: String(owner.project) })
      expect(await done.textContent()).toContain(`“${taken.body.label}”`)
      const who = await fetch(`${world.base}/api/users/@me/`, { headers: { authorization: `Bearer ${taken.body.personal_api_key}` } })
      expect(((await who.json()) as { email: string }).email).toBe(owner.email)
    }))

  it("takes a code typed by hand, and shows the API's refusal of a wrong one by the field", () =>
    withPage({}, async (page) => {
      const grant = await started()
      await world.logInAt(page, hrefOf({ page: "cliAuthorize", code: "" }))
      const code = page.getByLabel("Code", { exact: true })
      await code.waitFor()
      expect(await code.inputValue()).toBe("")
      await page.getByLabel("Project", { exact: true }).getByRole("option").first().waitFor({ state: "attached" })

      await code.fill("ZZZZ-0000")
      await page.getByRole("button", { name: "Authorize" }).click()
      await page.getByText("User code not found or expired", { exact: true }).waitFor()
      const described = (await code.getAttribute("aria-describedby")) ?? ""
      const words = await Promise.all(described.split(" ").map((id) => page.locator(`[id="${id}"]`).textContent()))
      expect(words).toContain("User code not found or expired")
      expect(await code.getAttribute("aria-invalid")).toBe("true")
      await accessible(page, "a wrong code")

      // Typed in lower case, without its dash.
      await code.fill(grant.user_code.replace("-", "").toLowerCase())
      await page.getByRole("button", { name: "Authorize" }).click()
      await page.getByRole("status").getByText(/^Return to your terminal/).waitFor()
      expect((await polled(grant.device_code)).status).toBe(200)
    }))
})
