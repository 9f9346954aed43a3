import { SignInLinkService, systemActor } from "@hedgerow/core"
import { beforeAll, describe, expect, it } from "vitest"
import { ALL_FLAGS, hrefOf } from "../src/router/routes.ts"
import { isFocused, seriousViolations, useConsole } from "./harness.ts"
import { turnOnTwoFactor } from "./two-factor-setup.ts"

// A sign-in link for a user with two-factor authentication, in Chromium against the real server: the link
// takes the password's place, never the code's, so the code step follows before the console opens.
const world = useConsole()
const { owner, withPage } = world

let twoFactor: Awaited<ReturnType<typeof turnOnTwoFactor>>
beforeAll(async () => {
  twoFactor = await turnOnTwoFactor(world)
})

describe("a sign-in link for a user with two-factor authentication", () => {
  it("asks for the code, by keyboard on a phone, before the console opens; the link is spent by then", () =>
    withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      const { token } = await world.operate(SignInLinkService.use((s) => s.issue(systemActor, { email: owner.email })))
      await page.goto(`${world.base}${hrefOf({ page: "signInLink" })}#${token}`)
      await page.getByRole("button", { name: "Sign in", exact: true }).click()
      const code = page.getByLabel("Two-factor code")
      await code.waitFor()
      expect(await isFocused(code)).toBe(true)
      expect(new URL(page.url()).hash).toBe("")
      await page.getByText("The link is accepted. Your account uses two-factor authentication: give a code to finish.").waitFor()
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)).toBe(true)
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme })
        expect(await seriousViolations(page), colorScheme).toEqual([])
      }
      // Spent already: following it again, elsewhere, is refused.
      const again = await fetch(`${world.base}/api/login/link/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ token })
      })
      expect(again.status).toBe(400)

      await page.getByRole("button", { name: "Use a backup code" }).click()
      await code.fill(twoFactor.backupCodes[0]!)
      await code.press("Enter")
      await page.waitForURL((url) => url.pathname === hrefOf({ page: "flags", projectId: String(owner.project), list: ALL_FLAGS }))
      const me = await page.evaluate(() => fetch("/api/users/@me/").then((response) => response.json()))
      expect(me.email).toBe(owner.email)
    }))
})
