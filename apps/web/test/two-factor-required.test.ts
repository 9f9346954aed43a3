import { totpCode } from "@hedgerow/core"
import { describe, expect, it } from "vitest"
import { logInForm, seriousViolations, useConsole } from "./harness.ts"

// An organization that requires two-factor authentication, in Chromium against the real server: the
// console sends a member whose session has not passed it to the two-factor page, which says why.
const world = useConsole()
const { owner, withPage } = world

/** The owner's organization's rule, set with the owner's personal API key (keys are never held to it). */
const enforce = async (on: boolean) => {
  const reply = await fetch(`${world.base}/api/organizations/${owner.organization}/`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
    body: JSON.stringify({ enforce_2fa: on })
  })
  expect(reply.status).toBe(200)
  expect((await reply.json() as { enforce_2fa: boolean }).enforce_2fa).toBe(on)
}

describe("an organization that requires two-factor authentication, in the console", () => {
  it("sends a password session to the two-factor page with the reason, and lets it through once an app is on", async () => {
    await enforce(true)
    try {
      await withPage({}, async (page) => {
        const flags = `/project/${owner.project}/flags`
        await page.goto(`${world.base}/login?${new URLSearchParams({ next: flags })}`)
        const form = logInForm(page)
        await form.email.fill(owner.email)
        await form.password.fill(owner.password)
        await form.submit.click()

        await page.waitForURL(`${world.base}/settings/two-factor?required=setup`)
        await page.getByRole("alert").getByText(
          "Your organization requires two-factor authentication. Set up an authenticator app to continue.",
          { exact: true }
        ).waitFor()
        await page.getByRole("heading", { name: "Two-factor authentication", level: 1 }).waitFor()
        expect(await seriousViolations(page)).toEqual([])

        await page.getByRole("button", { name: "Set up an authenticator app" }).click()
        const secret = (await page.locator(".key-value code").innerText()).replaceAll(" ", "")
        await page.getByLabel("Code from the app").fill(totpCode(secret, Date.now()))
        await page.getByRole("button", { name: "Turn on" }).click()
        await page.getByText("On, with an authenticator app. Backup codes left: 0.").waitFor()

        // The code that turned the app on passed this session: the flags are served now, and no redirect follows.
        await page.goto(`${world.base}${flags}`)
        await page.getByRole("heading", { name: "Default project", level: 1 }).waitFor()
        expect(new URL(page.url()).pathname).toBe(flags)
      })
    } finally {
      await enforce(false)
    }
  })
})
