import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
// By path, as harness.ts imports the harness's network: the CLI serves the console, so no package dependency.
import { bannerOf } from "../../test-harness/src/serve-banner.ts"
import { type ServerProcess, startServerProcess } from "../../test-harness/src/targets/server-process.ts"
import { hrefOf, parseRoute } from "../src/router/routes.ts"
import { launchChromium } from "./chromium.ts"
import { isFocused, seriousViolations } from "./harness.ts"

// The first start's one-time sign-in link, end to end: a real `hedgerow serve` (what `npm start` runs) on
// a new data directory prints it, and Chromium follows it into the console, logged in; the link's second
// use shows why it cannot be used and the way to a new one.
const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-console-link-"))
let server: ServerProcess
let browser: Browser
let link = ""
let owner = ""

beforeAll(async () => {
  ;[server, browser] = await Promise.all([startServerProcess({ env: { HEDGEROW_DATA_DIR: dataDir } }), launchChromium()])
  const banner = await bannerOf(server, 60_000)
  link = /^ {2}(http:\/\/\S+\/sign-in-link#[0-9A-Za-z]{43})$/m.exec(banner)![1]!
  owner = /owner (\S+)\.$/m.exec(banner)![1]!
}, 90_000)
afterAll(async () => {
  await browser?.close()
  await server?.stop()
  rmSync(dataDir, { recursive: true, force: true })
})

const withPage = async (options: Parameters<Browser["newContext"]>[0], use: (page: Page) => Promise<void>) => {
  const context = await browser.newContext(options)
  try {
    await use(await context.newPage())
  } finally {
    await context.close()
  }
}

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** Whether the page scrolls sideways. */
const scrollsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth)

describe("the sign-in link's page", () => {
  it("is /sign-in-link, and the secret is never part of the route", () => {
    expect(hrefOf({ page: "signInLink" })).toBe("/sign-in-link")
    expect(parseRoute("/sign-in-link", "")).toEqual({ page: "signInLink" })
    expect(parseRoute("/sign-in-link/more", "")).toEqual({ page: "notFound" })
  })
})

describe("the first start's sign-in link in Chromium", () => {
  it("logs the owner in and lands on the console's home, with the secret gone from the address bar and the history", () =>
    withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      const posted: Array<string> = []
      page.on("request", (request) => {
        if (request.url().includes("/api/login/link/")) posted.push(request.postData() ?? "")
        // The secret is never in a URL a request goes to.
        expect(request.url()).not.toContain(link.slice(link.indexOf("#") + 1))
      })
      await page.goto(link)
      // Nothing is posted on opening the link: a preview of it spends nothing. The person signs in.
      const signIn = page.getByRole("button", { name: "Sign in", exact: true })
      await signIn.waitFor()
      expect(new URL(page.url()).hash).toBe("")
      expect(posted).toEqual([])
      await page.keyboard.press("Enter")
      // Home leads to the current project's flags.
      await page.waitForURL((url) => /^\/project\/\d+\/flags$/.test(url.pathname))
      await page.getByRole("heading", { level: 1 }).first().waitFor()
      expect(new URL(page.url()).hash).toBe("")
      expect(posted).toEqual([JSON.stringify({ token: link.slice(link.indexOf("#") + 1) })])
      const me = await page.evaluate(() => fetch("/api/users/@me/").then((response) => response.json()))
      expect(me.email).toBe(owner)
      // Each step replaced the link's own history entry: Back leaves the console, and no entry holds the secret.
      await page.goBack()
      expect(page.url()).toBe("about:blank")
    }))

  it("a second use is refused in the API's words, with the command for a new link and a way to log in, at any size", () =>
    withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      await page.goto(link)
      await page.getByRole("button", { name: "Sign in", exact: true }).click()
      await page.getByRole("heading", { level: 1, name: "This sign-in link cannot be used" }).waitFor()
      expect(new URL(page.url()).hash).toBe("")
      expect(await page.getByRole("alert").innerText()).toBe("This sign-in link has been used, has expired or is not valid.")
      await page.getByText("npx hedgerow admin users sign-in-link <your e-mail>", { exact: true }).waitFor()
      expect(await page.title()).toBe("Sign in with a link · Hedgerow")
      expect(await page.locator("h1").count()).toBe(1)
      expect(await scrollsSideways(page)).toBe(false)
      await accessible(page, "a spent link, 390 px")
      await page.setViewportSize({ width: 1440, height: 900 })
      expect(await scrollsSideways(page)).toBe(false)
      // From the keyboard: the way to a password log-in.
      const logIn = page.getByRole("link", { name: "Log in with an e-mail and a password" })
      for (let i = 0; i < 10 && !(await isFocused(logIn)); i++) await page.keyboard.press("Tab")
      expect(await isFocused(logIn)).toBe(true)
      await page.keyboard.press("Enter")
      await page.waitForURL((url) => url.pathname === "/login")
      await page.getByRole("heading", { level: 1, name: "Log in to Hedgerow" }).waitFor()
    }))

  it("a link without its secret says it is incomplete", () =>
    withPage({}, async (page) => {
      await page.goto(new URL("/sign-in-link", link).href)
      await page.getByRole("heading", { level: 1, name: "This sign-in link cannot be used" }).waitFor()
      expect(await page.getByRole("alert").innerText()).toBe("The link is incomplete: open the whole link, with the part after its #.")
      await accessible(page, "a link without its secret")
    }))
})
