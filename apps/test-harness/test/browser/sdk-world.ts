import { Bootstrap } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect, ManagedRuntime } from "effect"
import { createRequire } from "node:module"
import { dirname, join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { build } from "rolldown"
import { launchChromium } from "../../../web/test/chromium.ts"
import { type HedgerowApi, hedgerowApi } from "./hedgerow-api.ts"
import { NetworkLog } from "./network-log.ts"
import { type PageServer, servePage } from "./page-server.ts"

/**
 * What the browser SDK suites share: a Hedgerow server on the embedded store with an owner, a key and a
 * project; the management API as a script calls it; a team's page on another site, serving the SDKs'
 * builds as the team's bundle would ship them; and Debian's Chromium.
 */
export interface SdkWorld {
  readonly base: string
  readonly token: string
  readonly project: number
  readonly api: HedgerowApi
  /** The index of the project's group type `company`, made through the API before any event names it. */
  readonly companyIndex: number
  /** A new page of the team's site, the given SDK build imported into it as `window.sdk`, and its network log. */
  readonly open: (script: keyof typeof SCRIPTS) => Promise<{ readonly page: Page; readonly log: NetworkLog }>
  readonly dispose: () => Promise<void>
}

const require = createRequire(import.meta.url)
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`))

/** The SDK builds the page may import: posthog-js ships a self-contained module; posthog-js-lite is bundled here. */
const SCRIPTS = {
  "posthog-js": "/posthog-js.mjs",
  "posthog-js-lite": "/posthog-js-lite.mjs"
} as const

/**
 * A person's Chromium on a desktop: posthog-js drops the events of what looks like a bot, and headless
 * Chromium driven by a test looks like one twice over (it names itself `HeadlessChrome`, and says
 * `navigator.webdriver`).
 */
const DESKTOP_USER_AGENT =
  "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36"

/** posthog-js-lite as a bundler makes it part of an app: one browser module with its dependencies. */
const bundleLite = async (): Promise<string> => {
  const { output } = await build({
    input: join(packageDir("posthog-js-lite"), "dist", "index.mjs"),
    platform: "browser",
    write: false,
    output: { format: "esm" }
  })
  return output[0]!.code
}

export const startSdkWorld = async (): Promise<SdkWorld> => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  const { base, boot } = await runtime.runPromise(Effect.gen(function*() {
    const base = yield* HedgerowServer.baseUrl
    return { base, boot: yield* (yield* Bootstrap).run({ email: "sdk-browser@example.com" }) }
  }))
  const api = hedgerowApi(base, boot.personal_api_key, boot.project_id)
  const token: string = (await api.call("GET", "/api/projects/{project}/")).api_token
  const companyIndex: number = (await api.call("POST", "/api/projects/{project}/groups_types/", { group_type: "company" })).group_type_index
  const site: PageServer = await servePage({
    [SCRIPTS["posthog-js"]]: { file: join(packageDir("posthog-js"), "dist", "module.mjs") },
    [SCRIPTS["posthog-js-lite"]]: { text: await bundleLite() }
  })
  const browser: Browser = await launchChromium(["--disable-blink-features=AutomationControlled"])
  return {
    base,
    token,
    project: boot.project_id,
    api,
    companyIndex,
    open: async (script) => {
      const page = await browser.newPage({ userAgent: DESKTOP_USER_AGENT })
      const log = new NetworkLog(page)
      await page.goto(site.origin)
      await page.addScriptTag({ type: "module", content: `import * as sdk from '${SCRIPTS[script]}'; window.sdk = sdk` })
      await page.waitForFunction(() => "sdk" in window)
      return { page, log }
    },
    dispose: async () => {
      await browser.close()
      await site.close()
      await runtime.dispose()
    }
  }
}
