import { totpCode } from "@hedgerow/core"
import { describe, expect, it } from "vitest"
import { logInForm, seriousViolations, useConsole } from "./harness.ts"

// Logging in to the console as a user with two-factor authentication, in Chromium against the real
// server: the password, then the app's code computed here from the secret setup gave.
const world = useConsole()
const { owner, withPage } = world
const STEP_MS = 30_000

/** The owner turns two-factor authentication on over the API, from a session of their own; the secret comes back. */
const turnOn = async (): Promise<string> => {
  const loggedIn = await fetch(`${world.base}/api/login/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: owner.email, password: owner.password })
  })
  expect(loggedIn.status).toBe(200)
  const cookies = loggedIn.headers.getSetCookie().map((cookie) => cookie.split(";")[0]!)
  const csrf = cookies.find((cookie) => cookie.startsWith("posthog_csrftoken="))!.split("=")[1]!
  const headers = { cookie: cookies.join("; "), "x-csrftoken": csrf, "content-type": "application/json", origin: world.base }
  const { secret } = await (await fetch(`${world.base}/api/users/@me/two_factor_start_setup/`, { headers })).json() as { secret: string }
  const validated = await fetch(`${world.base}/api/users/@me/two_factor_validate/`, {
    method: "POST",
    headers,
    body: JSON.stringify({ token: totpCode(secret, Date.now()) })
  })
  expect(validated.status).toBe(200)
  return secret
}

describe("logging in to the console with two-factor authentication", () => {
  it("asks for the code after the password, shows a wrong code's refusal, and logs in with the right one", async () => {
    const secret = await turnOn()
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

      const wrong = String((Number(totpCode(secret, Date.now())) + 500_000) % 1_000_000).padStart(6, "0")
      await code.fill(wrong)
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
