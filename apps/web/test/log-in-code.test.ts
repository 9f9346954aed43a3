import { totpCode } from "@hedgerow/core"
import type { Page } from "playwright-core"
import { beforeAll, describe, expect, it } from "vitest"
import { isFocused, logInForm, seriousViolations, useConsole } from "./harness.ts"
import { turnOnTwoFactor, wrongCode } from "./two-factor-setup.ts"

// The log-in page's code step for a user with two-factor authentication, in Chromium against the real
// server, on a phone's screen: where it leads, what it says, and the ways back.
const world = useConsole()
const { owner, withPage } = world
const PHONE = { width: 390, height: 844 }

let twoFactor: Awaited<ReturnType<typeof turnOnTwoFactor>>
beforeAll(async () => {
  twoFactor = await turnOnTwoFactor(world)
})

const fitsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)

/** The password step, done by keyboard; the code step's field once it shows. */
const toCodeStep = async (page: Page) => {
  const form = logInForm(page)
  await form.email.fill(owner.email)
  await form.password.fill(owner.password)
  await form.password.press("Enter")
  const code = page.getByLabel("Two-factor code")
  await code.waitFor()
  return code
}

describe("the log-in's code step", () => {
  it("asks for a code by keyboard on a phone, shows a refusal by the field, starts over, takes a backup code, and ends at next", async () => {
    const next = `/organization/${owner.organization}`
    await withPage({ viewport: PHONE }, async (page) => {
      await page.goto(`${world.base}/login?${new URLSearchParams({ next })}`)
      const code = await toCodeStep(page)
      expect(await isFocused(code)).toBe(true)
      expect(await code.getAttribute("inputmode")).toBe("numeric")
      expect(await code.getAttribute("autocomplete")).toBe("one-time-code")
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme })
        expect(await seriousViolations(page), colorScheme).toEqual([])
      }
      expect(await fitsSideways(page)).toBe(true)

      // A wrong code: the server's words by the field, tied to it and read out.
      await code.fill(wrongCode(twoFactor.secret))
      await code.press("Enter")
      const refusal = page.getByRole("alert")
      await refusal.getByText("Invalid authentication code", { exact: true }).waitFor()
      expect(await code.getAttribute("aria-invalid")).toBe("true")
      expect((await code.getAttribute("aria-describedby"))?.split(" ")).toContain(await refusal.getAttribute("id"))
      expect(await seriousViolations(page)).toEqual([])

      // Start over: the password again, the e-mail kept.
      await page.getByRole("button", { name: "Start over" }).click()
      const form = logInForm(page)
      await form.password.waitFor()
      expect(await form.email.inputValue()).toBe(owner.email)
      expect(await form.password.inputValue()).toBe("")
      expect(await isFocused(form.password)).toBe(true)

      // A wrong code makes the next one wait a second.
      await new Promise((resolve) => setTimeout(resolve, 1100))
      const again = await toCodeStep(page)
      // The keyboard reaches Verify, then the backup code's switch, which gives the field back its focus.
      await page.keyboard.press("Tab")
      expect(await isFocused(page.getByRole("button", { name: "Verify" }))).toBe(true)
      await page.keyboard.press("Tab")
      expect(await isFocused(page.getByRole("button", { name: "Use a backup code" }))).toBe(true)
      await page.keyboard.press("Enter")
      expect(await isFocused(again)).toBe(true)
      expect(await again.getAttribute("inputmode")).toBe("text")
      expect(await fitsSideways(page)).toBe(true)
      await again.fill(twoFactor.backupCodes[0]!)
      await again.press("Enter")
      await page.waitForURL(`${world.base}${next}`)
      expect((await page.context().cookies()).some((cookie) => cookie.name === "sessionid")).toBe(true)
    })
  })

  it("goes back to the password, in the server's words, when the log-in it finishes is gone", () =>
    withPage({}, async (page) => {
      await page.goto(`${world.base}/login`)
      const code = await toCodeStep(page)
      // The cookie that names the pending log-in is what the server finds it by.
      await page.context().clearCookies({ name: "hedgerow_2fa_login" })
      await code.fill(totpCode(twoFactor.secret, Date.now()))
      await code.press("Enter")
      const form = logInForm(page)
      await page.getByRole("alert").getByText("Login attempt has expired. Re-enter username/password.", { exact: true }).waitFor()
      expect(await isFocused(form.password)).toBe(true)
      expect(await code.count()).toBe(0)
      expect(new URL(page.url()).pathname).toBe("/login")
    }))
})
