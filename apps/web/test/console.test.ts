import AxeBuilder from "@axe-core/playwright"
import { HedgerowServer } from "@hedgerow/http-server"
import { ConfigProvider, Layer, ManagedRuntime } from "effect"
import * as path from "node:path"
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JS_BUDGET_BYTES } from "./budget.ts"
import { launchChromium } from "./chromium.ts"

// The built console (turbo builds it before this suite) served by the real server over an in-memory
// store, driven in Chromium. Nothing here has a session: the log-in endpoints arrive with the sessions work.
const dist = path.resolve(import.meta.dirname, "..", "dist")

let runtime: ManagedRuntime.ManagedRuntime<any, any>
let base = ""
let browser: Browser

beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, webConsoleDir: dist })
    .pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} })))))
  ;[base, browser] = await Promise.all([runtime.runPromise(HedgerowServer.baseUrl), launchChromium()])
})
afterAll(async () => {
  await browser?.close()
  await runtime?.dispose()
})

/** `use` given a page in a browser context of its own (no cookies shared; axe needs one), closed after it. */
const withPage = async (options: BrowserContextOptions, use: (page: Page) => Promise<void>) => {
  const context = await browser.newContext(options)
  try {
    await use(await context.newPage())
  } finally {
    await context.close()
  }
}

/** axe's serious and critical findings on the page as it is now, by rule and the elements concerned. */
const seriousViolations = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, nodes: violation.nodes.map((node) => node.target.join(" ")) }))
}

const logInForm = (page: Page) => ({
  email: page.getByLabel("Email"),
  password: page.getByLabel("Password"),
  submit: page.getByRole("button", { name: "Log in" })
})

const isFocused = (locator: ReturnType<Page["getByLabel"]>) => locator.evaluate((element) => element === document.activeElement)
const outlineOf = (locator: ReturnType<Page["getByLabel"]>) => locator.evaluate((element) => getComputedStyle(element).outlineStyle)

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

describe("the built console, as the server sends it", () => {
  it("is the page at / and at any deep link, its assets cached for a year, the API's unknown paths still the API's 404", async () => {
    const root = await fetch(`${base}/`, { headers: { accept: HTML } })
    expect(root.headers.get("cache-control")).toBe("no-cache")
    const page = await root.text()
    const deep = await fetch(`${base}/organization/some-id?page=2`, { headers: { accept: HTML } })
    expect(deep.status).toBe(200)
    expect(await deep.text()).toBe(page)

    const assets = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!)
    expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true)
    for (const asset of assets) {
      const response = await fetch(`${base}${asset}`)
      expect(response.status, asset).toBe(200)
      expect(response.headers.get("cache-control"), asset).toBe("public, max-age=31536000, immutable")
    }

    const unknown = await fetch(`${base}/api/no-such-thing/`, { headers: { accept: HTML } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ type: "invalid_request", code: "not_found", detail: "Not found.", attr: null })
  })
})

describe("the console in Chromium", () => {
  it("sends a deep link without a session to the log-in page, which keeps where to go next across a reload", () =>
    withPage({}, async (page) => {
      await page.goto(`${base}/project/1?tab=x`)
      const form = logInForm(page)
      await form.submit.waitFor()
      expect(new URL(page.url()).pathname).toBe("/login")
      expect(new URL(page.url()).searchParams.get("next")).toBe("/project/1?tab=x")
      expect(await page.title()).toBe("Log in · Hedgerow")
      expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Log in to Hedgerow")

      await page.reload()
      await form.submit.waitFor()
      expect(new URL(page.url()).searchParams.get("next")).toBe("/project/1?tab=x")
    }))

  it("has a log-in page with its accessible names, usable by keyboard with visible focus, and no serious axe finding, light or dark", async () => {
    for (const colorScheme of ["light", "dark"] as const) {
      await withPage({ colorScheme }, async (page) => {
        await page.goto(`${base}/login`)
        const form = logInForm(page)
        await form.submit.waitFor()
        expect(await form.email.getAttribute("type")).toBe("email")
        expect(await form.password.getAttribute("type")).toBe("password")

        // The keyboard reaches the fields and the button in order, each with a visible outline.
        for (const control of [form.email, form.password, form.submit]) {
          await page.keyboard.press("Tab")
          expect(await isFocused(control)).toBe(true)
          expect(await outlineOf(control)).toBe("solid")
        }

        // The scheme follows the system's.
        const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
        expect(background).toBe(colorScheme === "dark" ? "rgb(18, 22, 19)" : "rgb(255, 255, 255)")
        expect(await seriousViolations(page), colorScheme).toEqual([])
      })
    }
  })

  it("shows the API's refusal of a log-in in its words", () =>
    withPage({}, async (page) => {
      await page.goto(`${base}/login`)
      const form = logInForm(page)
      await form.email.fill("nobody@example.com")
      await form.password.fill("not-the-password")
      await form.password.press("Enter")
      // What the API answers this log-in, asked directly.
      const answer = await fetch(`${base}/api/login/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ email: "nobody@example.com", password: "not-the-password" })
      })
      expect(answer.ok).toBe(false)
      const { detail } = await answer.json() as { detail: string }
      await page.getByText(detail, { exact: true }).waitFor()
      expect(new URL(page.url()).pathname).toBe("/login")
      expect(await seriousViolations(page)).toEqual([])
    }))

  it(`loads at most ${JS_BUDGET_BYTES / 1000} KB of compressed JavaScript on a first visit, served gzipped`, () =>
    withPage({}, async (page) => {
      const scripts: Array<Promise<{ url: string; bytes: number; encoding: string | undefined }>> = []
      page.on("response", (response) => {
        if (response.request().resourceType() !== "script") return
        scripts.push(Promise.all([response.request().sizes(), response.allHeaders()]).then(([sizes, headers]) => ({
          url: response.url(),
          bytes: sizes.responseBodySize,
          encoding: headers["content-encoding"]
        })))
      })
      await page.goto(`${base}/`)
      await logInForm(page).submit.waitFor()
      const loaded = await Promise.all(scripts)
      const total = loaded.reduce((sum, script) => sum + script.bytes, 0)
      console.log(`first load: ${(total / 1000).toFixed(1)} KB of compressed JavaScript in ${loaded.length} files`)
      expect(loaded.length).toBeGreaterThan(0)
      for (const script of loaded) expect(script.encoding, script.url).toBe("gzip")
      expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES)
    }))
})
