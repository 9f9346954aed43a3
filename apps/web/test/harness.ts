import AxeBuilder from "@axe-core/playwright"
import { HedgerowServer } from "@hedgerow/http-server"
// By path, not by package: the CLI serves the console and the harness's tests run the CLI, so a
// dependency of the console's on the harness would close a cycle in the workspace's graph.
import { type LocalNetwork, type Network, startNetwork } from "../../test-harness/src/network/index.ts"
import { ConfigProvider, type Effect, Layer, ManagedRuntime, Option } from "effect"
import * as path from "node:path"
import type { Browser, BrowserContextOptions, Locator, Page } from "playwright-core"
import { afterAll, beforeAll, expect } from "vitest"
import { suiteSettings } from "../../../vitest.shared.ts"
import { launchChromium } from "./chromium.ts"

/**
 * A browser suite's world: the built console (turbo builds it before the suites) served by the real
 * server over an in-memory store, and Chromium; the owner of the first start logs in with a password
 * given over the API. `useConsole` starts both before the file's tests and stops them after.
 */
const dist = path.resolve(import.meta.dirname, "..", "dist")

export interface ConsoleWorld {
  base: string
  browser: Browser
  /** The first start's owner, with a password to log in with, and its key to ask the API what it holds. */
  readonly owner: { email: string; password: string; organization: string; project: number; key: string }
  /** What the API holds at `path`, asked with the owner's key. */
  readonly held: (path: string) => Promise<any>
  /** A write that must succeed, with the owner's key (or `as`'s; `""` for none); its answer's body. */
  readonly sent: (method: string, route: string, body: unknown, as?: string) => Promise<any>
  /** `use` given a page in a browser context of its own (no cookies shared; axe needs one), closed after it. */
  readonly withPage: (options: BrowserContextOptions, use: (page: Page) => Promise<void>) => Promise<void>
  /** Logs the owner in from `path` (a deep link) and waits to be back there. */
  readonly logInAt: (page: Page, path: string) => Promise<void>
  /** What an operator does in-process, as `hedgerow admin` does: core's services on the server's store. */
  readonly operate: <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>
  /** The DNS (and mail) server the server is configured with, given `useConsole({ network: true })`. */
  network: Network | undefined
}

/**
 * `network`: the server asks a DNS server on loopback, whose TXT records the test publishes (domain
 * verification), and sends mail to one whose mailbox it reads; otherwise it has neither. `env`: more of
 * the server's settings, read as it starts (after the file's earlier `beforeAll`s).
 */
export const useConsole = (options: { readonly network?: boolean; readonly env?: () => Record<string, string> } = {}): ConsoleWorld => {
  let runtime: ManagedRuntime.ManagedRuntime<any, any> | undefined
  let local: LocalNetwork | undefined
  const world: ConsoleWorld = {
    base: "",
    browser: undefined as unknown as Browser,
    owner: { email: "", password: "correct-horse-battery-9", organization: "", project: 0, key: "" },
    held: async (path) => {
      const response = await fetch(`${world.base}${path}`, { headers: { authorization: `Bearer ${world.owner.key}` } })
      expect(response.status, path).toBe(200)
      return response.json()
    },
    sent: async (method, route, body, as = world.owner.key) => {
      const response = await fetch(`${world.base}${route}`, {
        method,
        headers: { ...(as === "" ? {} : { authorization: `Bearer ${as}` }), "content-type": "application/json" },
        body: JSON.stringify(body)
      })
      expect(response.status, `${method} ${route}`).toBeLessThan(300)
      return response.json()
    },
    withPage: async (options, use) => {
      const context = await world.browser.newContext(options)
      try {
        await use(await context.newPage())
      } finally {
        await context.close()
      }
    },
    logInAt: async (page, path) => {
      await page.goto(`${world.base}${path}`)
      const form = logInForm(page)
      await form.email.fill(world.owner.email)
      await form.password.fill(world.owner.password)
      await form.submit.click()
      await page.waitForURL(`${world.base}${path}`)
    },
    operate: (effect) => runtime!.runPromise(effect),
    network: undefined
  }
  beforeAll(async () => {
    if (options.network === true) {
      local = await startNetwork()
      world.network = local.network
    }
    runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, webConsoleDir: dist })
      .pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { ...suiteSettings(), ...local?.env, ...options.env?.() } })))))
    ;[world.base, world.browser] = await Promise.all([runtime.runPromise(HedgerowServer.baseUrl), launchChromium()])
    const first = Option.getOrThrow(await runtime.runPromise(HedgerowServer.bootstrapIfEmpty()))
    Object.assign(world.owner, {
      email: first.user.email,
      organization: first.organization_id,
      project: first.project_id,
      key: first.personal_api_key
    })
    const password = await fetch(`${world.base}/api/users/@me/`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${world.owner.key}`, "content-type": "application/json" },
      body: JSON.stringify({ password: world.owner.password })
    })
    expect(password.status).toBe(200)
  })
  afterAll(async () => {
    await world.browser?.close()
    await runtime?.dispose()
    await local?.close()
  })
  return world
}

/**
 * axe's serious and critical findings on the page as it is now, by rule and the elements concerned. The
 * console has no frames, so axe runs in the page itself (its legacy mode) rather than gathering each
 * frame's findings in a new page, and works out violations only.
 */
export const seriousViolations = async (page: Page) => {
  const { violations } = await new AxeBuilder({ page }).setLegacyMode().options({ resultTypes: ["violations"] }).analyze()
  return violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({ rule: violation.id, nodes: violation.nodes.map((node) => node.target.join(" ")) }))
}

export const logInForm = (page: Page) => ({
  email: page.getByLabel("Email"),
  password: page.getByLabel("Password"),
  submit: page.getByRole("button", { name: "Log in" })
})

export const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement)

/** The scripts `load` makes the page fetch: each one's URL, the bytes that came over the wire and their encoding. */
export const scriptsLoaded = async (page: Page, load: () => Promise<void>) => {
  const scripts: Array<Promise<{ url: string; bytes: number; encoding: string | undefined }>> = []
  page.on("response", (response) => {
    if (response.request().resourceType() !== "script") return
    scripts.push(Promise.all([response.request().sizes(), response.allHeaders()]).then(([sizes, headers]) => ({
      url: response.url(),
      bytes: sizes.responseBodySize,
      encoding: headers["content-encoding"]
    })))
  })
  await load()
  const loaded = await Promise.all(scripts)
  return { loaded, total: loaded.reduce((sum, script) => sum + script.bytes, 0) }
}

/**
 * How far the page scrolls sideways (the document's width past the window's, 0 when it does not), and
 * the elements (tag and class) that reach past the window's right edge, to say which one does.
 */
export const sidewaysOverflow = (page: Page) =>
  page.evaluate(() => {
    const overflow = Math.max(0, document.documentElement.scrollWidth - window.innerWidth)
    if (overflow === 0) return { overflow, wider: [] }
    const wider = [...document.body.querySelectorAll("*")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 0.5)
      .map((element) => `${element.tagName.toLowerCase()}${element.className === "" ? "" : `.${String(element.className).replace(/ /g, ".")}`}`)
    return { overflow, wider: [...new Set(wider)].slice(0, 12) }
  })
