import AxeBuilder from "@axe-core/playwright"
import { HedgerowServer } from "@hedgerow/http-server"
import { ConfigProvider, Layer, ManagedRuntime, Option } from "effect"
import * as path from "node:path"
import type { Browser, BrowserContextOptions, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { JS_BUDGET_BYTES } from "./budget.ts"
import { launchChromium } from "./chromium.ts"

// The built console (turbo builds it before this suite) served by the real server over an in-memory
// store, driven in Chromium; the owner of the first start logs in with a password given over the API.
const dist = path.resolve(import.meta.dirname, "..", "dist")

let runtime: ManagedRuntime.ManagedRuntime<any, any>
let base = ""
let browser: Browser
/** The first start's owner, with a password to log in with, and its key to ask the API what it holds. */
const owner = { email: "", password: "correct-horse-battery-9", organization: "", project: 0, key: "" }

/** What the API holds at `path`, asked with the owner's key. */
const held = async (path: string) => {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${owner.key}` } })
  expect(response.status, path).toBe(200)
  return response.json()
}

beforeAll(async () => {
  runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, webConsoleDir: dist })
    .pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: {} })))))
  ;[base, browser] = await Promise.all([runtime.runPromise(HedgerowServer.baseUrl), launchChromium()])
  const first = Option.getOrThrow(await runtime.runPromise(HedgerowServer.bootstrapIfEmpty()))
  Object.assign(owner, {
    email: first.user.email,
    organization: first.organization_id,
    project: first.project_id,
    key: first.personal_api_key
  })
  const password = await fetch(`${base}/api/users/@me/`, {
    method: "PATCH",
    headers: { authorization: `Bearer ${owner.key}`, "content-type": "application/json" },
    body: JSON.stringify({ password: owner.password })
  })
  expect(password.status).toBe(200)
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

  it("shows the API's refusal of a log-in in its words, next to the field it names", () =>
    withPage({}, async (page) => {
      await page.goto(`${base}/login`)
      const form = logInForm(page)
      /** What the API answers this log-in, asked directly. */
      const refusal = async (email: string, password: string) => {
        const answer = await fetch(`${base}/api/login/`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ email, password })
        })
        expect(answer.status).toBe(400)
        return await answer.json() as { detail: string; attr: string | null }
      }

      // A field the API names: its words are the field's description, and the field is marked invalid.
      await form.password.fill("whatever-it-is")
      await form.submit.click()
      const blank = await refusal("", "whatever-it-is")
      expect(blank.attr).toBe("email")
      const message = page.getByText(blank.detail, { exact: true })
      await message.waitFor()
      expect(await form.email.getAttribute("aria-describedby")).toBe(await message.getAttribute("id"))
      expect(await form.email.getAttribute("aria-invalid")).toBe("true")
      expect(await form.password.getAttribute("aria-invalid")).toBeNull()

      // Wrong credentials name no field: the words stand above the button, announced.
      await form.email.fill("nobody@example.com")
      await form.password.fill("not-the-password")
      await form.password.press("Enter")
      const wrong = await refusal("nobody@example.com", "not-the-password")
      expect(wrong.attr).toBeNull()
      await page.getByRole("alert").getByText(wrong.detail, { exact: true }).waitFor()
      expect(await form.email.getAttribute("aria-invalid")).toBeNull()
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

  it("logs in and back to the deep link it came from, switches by keyboard, shows what the API holds, and logs out for good", () =>
    withPage({}, async (page) => {
      const organizationPage = `/organization/${owner.organization}`
      await page.goto(`${base}${organizationPage}`)
      const form = logInForm(page)
      await form.email.fill(owner.email)
      await form.password.fill(owner.password)
      await form.submit.click()

      // Back where the link pointed, with the organization's projects as the API lists them.
      await page.waitForURL(`${base}${organizationPage}`)
      const organization = await held(`/api/organizations/${owner.organization}/`)
      await page.getByRole("heading", { level: 1, name: organization.name }).waitFor()
      const projects = await held(`/api/organizations/${owner.organization}/projects/?limit=20`)
      const listed = page.getByRole("main").getByRole("link")
      await listed.first().waitFor()
      expect(await listed.allTextContents()).toEqual(projects.results.map((project: { name: string }) => project.name))
      await page.reload()
      await page.getByRole("heading", { level: 1, name: organization.name }).waitFor()

      // The switcher opens from the keyboard, lists the organization and its projects, and Escape closes it.
      const switcher = page.getByRole("button", { name: /Switch organization or project/ })
      await switcher.focus()
      await page.keyboard.press("Enter")
      expect(await switcher.getAttribute("aria-expanded")).toBe("true")
      const projectLink = page.getByRole("navigation", { name: "Organizations and projects" }).getByRole("link", { name: projects.results[0].name })
      await projectLink.waitFor()
      await page.keyboard.press("Escape")
      expect(await switcher.getAttribute("aria-expanded")).toBe("false")
      expect(await switcher.evaluate((element) => element === document.activeElement)).toBe(true)

      // To the project through the switcher: its public token is the one the API holds.
      await switcher.click()
      await projectLink.click()
      await page.waitForURL(`${base}/project/${owner.project}`)
      const project = await held(`/api/projects/${owner.project}/`)
      await page.getByRole("heading", { level: 1, name: project.name }).waitFor()
      await page.getByText(project.api_token, { exact: true }).waitFor()
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme })
        expect(await seriousViolations(page), `project page, ${colorScheme}`).toEqual([])
        await page.goto(`${base}${organizationPage}`)
        await page.getByRole("heading", { level: 1, name: organization.name }).waitFor()
        expect(await seriousViolations(page), `organization page, ${colorScheme}`).toEqual([])
        await page.goBack()
        await page.getByRole("heading", { level: 1, name: project.name }).waitFor()
      }

      // Log-out (a write: it needs the CSRF token the page echoes) ends the session on the server.
      await page.getByRole("button", { name: "Log out" }).click()
      await page.waitForURL(`${base}/login`)
      const me = await page.evaluate(() => fetch("/api/users/@me/").then((response) => response.status))
      expect(me).toBe(401)
      await page.goto(`${base}/project/${owner.project}`)
      await form.submit.waitFor()
      expect(new URL(page.url()).pathname).toBe("/login")
    }))
})
