import { totpCode } from "@hedgerow/core"
import { describe, expect, it } from "vitest"
import { logInForm, seriousViolations, useConsole } from "./harness.ts"
import { turnOnTwoFactor, wrongCode } from "./two-factor-setup.ts"

// Logging in to the console as a user with two-factor authentication, in Chromium against the real
// server: the password, then the app's code computed here from the secret setup gave.
const world = useConsole()
const { owner, withPage } = world
const STEP_MS = 30_000

describe("two-factor authentication in the console", () => {
  it("sets up an app from the settings page, shows backup codes once, and turns it off again", async () => {
    await withPage({}, async (page) => {
      await world.logInAt(page, "/settings/two-factor")
      await page.getByRole("button", { name: "Set up an authenticator app" }).click()
      await page.getByRole("heading", { name: "Add Hedgerow to your authenticator app" }).waitFor()
      const secret = (await page.locator(".key-value code").innerText()).replaceAll(" ", "")
      expect(secret).toMatch(/^[A-Z2-7]{32}$/)
      expect(await page.getByRole("link", { name: "Open in an authenticator app" }).getAttribute("href"))
        .toBe(`otpauth://totp/Hedgerow:${encodeURIComponent(owner.email)}?secret=${secret}&issuer=Hedgerow&algorithm=SHA1&digits=6&period=30`)
      expect(await seriousViolations(page)).toEqual([])

      const code = page.getByLabel("Code from the app")
      await code.fill(wrongCode(secret))
      await page.getByRole("button", { name: "Turn on" }).click()
      await page.getByRole("alert").getByText("Token is not valid", { exact: true }).waitFor()
      // The keyboard is where it was, not back at the top of the page.
      await page.waitForFunction(() => document.activeElement?.textContent === "Turn on")
      await code.fill(totpCode(secret, Date.now()))
      await page.getByRole("button", { name: "Turn on" }).click()
      await page.getByText("On, with an authenticator app. Backup codes left: 0.").waitFor()
      const noCodes = page.getByText("Without backup codes, a lost phone means no way to log in", { exact: false })
      await noCodes.waitFor()
      const status = await fetch(`${world.base}/api/users/@me/two_factor_status/`, { headers: { authorization: `Bearer ${owner.key}` } })
      expect((await status.json() as { is_enabled: boolean }).is_enabled).toBe(true)

      await page.getByRole("button", { name: "New backup codes" }).click()
      await page.getByRole("dialog").getByRole("button", { name: "Make new codes" }).click()
      await page.getByRole("heading", { name: "Your backup codes" }).waitFor()
      const codes = await page.locator(".new-key-value li code").allInnerTexts()
      expect(codes).toHaveLength(5)
      for (const one of codes) expect(one).toMatch(/^[a-z2-7]{8}$/)
      await page.getByText("Backup codes left: 5.", { exact: false }).waitFor()
      expect(await noCodes.count()).toBe(0)
      expect(await seriousViolations(page)).toEqual([])

      await page.getByRole("button", { name: "Turn off" }).click()
      await page.getByRole("dialog").getByRole("button", { name: "Turn off" }).click()
      await page.getByRole("status").getByText("Two-factor authentication is off.").waitFor()
      await page.getByRole("button", { name: "Set up an authenticator app" }).waitFor()
    })
  })

  it("asks for the code at log-in after the password, shows a wrong code's refusal, and logs in with the right one", async () => {
    const { secret } = await turnOnTwoFactor(world)
    await withPage({}, async (page) => {
      await page.goto(`${world.base}/login`)
      const form = logInForm(page)
      await form.email.fill(owner.email)
      await form.password.fill(owner.password)
      await form.submit.click()

      const code = page.getByLabel("Two-factor code")
      await code.waitFor()
      expect(await code.evaluate((element) => element === document.activeElement)).toBe(true)
      expect(await code.getAttribute("autocomplete")).toBe("one-time-code")
      expect(await seriousViolations(page)).toEqual([])
      const verify = page.getByRole("button", { name: "Verify" })

      await code.fill(wrongCode(secret))
      await verify.click()
      await page.getByRole("alert").getByText("Invalid authentication code", { exact: true }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/login")

      // A wrong code makes the next one wait a second.
      await new Promise((resolve) => setTimeout(resolve, 1100))
      await code.fill(totpCode(secret, Date.now() + STEP_MS))
      await verify.click()
      await page.waitForURL((url) => url.pathname !== "/login")
      expect((await page.context().cookies()).some((cookie) => cookie.name === "sessionid")).toBe(true)
    })
  })
})
