import type { Locator } from "playwright-core"
import { describe, expect, it } from "vitest"
import { JS_BUDGET_BYTES } from "./budget.ts"
import { isFocused, logInForm, scriptsLoaded, seriousViolations, useConsole } from "./harness.ts"

const world = useConsole()
const { owner, held, withPage } = world

const outlineOf = (locator: Locator) => locator.evaluate((element) => getComputedStyle(element).outlineStyle)

const HTML = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"

describe("the built console, as the server sends it", () => {
  it("is the page at / and at any deep link, its assets cached for a year, the API's unknown paths still the API's 404", async () => {
    const root = await fetch(`${world.base}/`, { headers: { accept: HTML } })
    expect(root.headers.get("cache-control")).toBe("no-cache")
    const page = await root.text()
    const deep = await fetch(`${world.base}/organization/some-id?page=2`, { headers: { accept: HTML } })
    expect(deep.status).toBe(200)
    expect(await deep.text()).toBe(page)

    const assets = [...page.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1]!)
    expect(assets.some((asset) => asset.endsWith(".js"))).toBe(true)
    for (const asset of assets) {
      const response = await fetch(`${world.base}${asset}`)
      expect(response.status, asset).toBe(200)
      expect(response.headers.get("cache-control"), asset).toBe("public, max-age=31536000, immutable")
    }

    const unknown = await fetch(`${world.base}/api/no-such-thing/`, { headers: { accept: HTML } })
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toEqual({ type: "invalid_request", code: "not_found", detail: "Not found.", attr: null })
  })
})

describe("the console in Chromium", () => {
  it("sends a deep link without a session to the log-in page, which keeps where to go next across a reload", () =>
    withPage({}, async (page) => {
      await page.goto(`${world.base}/project/1?tab=x`)
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
        await page.goto(`${world.base}/login`)
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
      await page.goto(`${world.base}/login`)
      const form = logInForm(page)
      /** What the API answers this log-in, asked directly. */
      const refusal = async (email: string, password: string) => {
        const answer = await fetch(`${world.base}/api/login/`, {
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
      const { loaded, total } = await scriptsLoaded(page, async () => {
        await page.goto(`${world.base}/`)
        await logInForm(page).submit.waitFor()
      })
      console.log(`first load: ${(total / 1000).toFixed(1)} KB of compressed JavaScript in ${loaded.length} files`)
      expect(loaded.length).toBeGreaterThan(0)
      for (const script of loaded) expect(script.encoding, script.url).toBe("gzip")
      expect(total).toBeLessThanOrEqual(JS_BUDGET_BYTES)
    }))

  it("logs in and back to the deep link it came from, switches by keyboard, shows what the API holds, and logs out for good", () =>
    withPage({}, async (page) => {
      const organizationPage = `/organization/${owner.organization}`
      await page.goto(`${world.base}${organizationPage}`)
      const form = logInForm(page)
      await form.email.fill(owner.email)
      await form.password.fill(owner.password)
      await form.submit.click()

      // Back where the link pointed, with the organization's projects as the API lists them.
      await page.waitForURL(`${world.base}${organizationPage}`)
      const organization = await held(`/api/organizations/${owner.organization}/`)
      await page.getByRole("heading", { level: 1, name: organization.name }).waitFor()
      const projects = await held(`/api/organizations/${owner.organization}/projects/?limit=20`)
      const listed = page.getByRole("main").getByRole("list", { name: "Projects" }).getByRole("link")
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
      await page.waitForURL(`${world.base}/project/${owner.project}`)
      const project = await held(`/api/projects/${owner.project}/`)
      await page.getByRole("heading", { level: 1, name: project.name }).waitFor()
      await page.getByText(project.api_token, { exact: true }).waitFor()
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme })
        expect(await seriousViolations(page), `project page, ${colorScheme}`).toEqual([])
        await page.goto(`${world.base}${organizationPage}`)
        await page.getByRole("heading", { level: 1, name: organization.name }).waitFor()
        expect(await seriousViolations(page), `organization page, ${colorScheme}`).toEqual([])
        await page.goBack()
        await page.getByRole("heading", { level: 1, name: project.name }).waitFor()
      }

      // Log-out (a write: it needs the CSRF token the page echoes) ends the session on the server.
      await page.getByRole("button", { name: "Log out" }).click()
      await page.waitForURL(`${world.base}/login`)
      const me = await page.evaluate(() => fetch("/api/users/@me/").then((response) => response.status))
      expect(me).toBe(401)
      await page.goto(`${world.base}/project/${owner.project}`)
      await form.submit.waitFor()
      expect(new URL(page.url()).pathname).toBe("/login")
    }))
})
