/**
 * The README's pictures of the console: the built console served by the real server over an in-memory
 * store, a project seeded through the API as a team would have it, and Chromium at 1280×800 in the light
 * and the dark scheme (a flag's activity, usage and code among them); the organization's roles and a SAML
 * domain's settings; the personal API keys and the header's account menu on a phone's screen (390×844);
 * then the log-in page for an e-mail whose domain enforces SAML, a sign-in link that cannot be used, the
 * owner's two-factor settings once she has turned it on, and her log-in at the two-factor code. Writes
 * docs/screenshots/*.png. Run by `npm run screenshots -w @hedgerow/web` (which builds first); not a test.
 */
import { bodyOf, DomainService, systemActor, totpCode } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { ConfigProvider, Effect, Layer, ManagedRuntime, Option } from "effect"
import { SqlClient } from "effect/sql"
import { mkdir } from "node:fs/promises"
import * as path from "node:path"
import type { Page } from "playwright-core"
import { startReceiver } from "../../../packages/store/src/testing/webhook-receiver.ts"
import { launchChromium } from "../test/chromium.ts"

/** A domain of the team's, verified, whose identity provider every log-in must go through. */
const SAML_DOMAIN = "acme-group.example"

const dist = path.resolve(import.meta.dirname, "..", "dist")
const out = path.resolve(import.meta.dirname, "..", "..", "..", "docs", "screenshots")
const PASSWORD = "correct-horse-battery-9"

/** A flag as the API takes it, with people to evaluate it for (which sets its `last_called_at`). */
interface Seed {
  readonly key: string
  readonly name: string
  readonly tags: ReadonlyArray<string>
  readonly active?: boolean
  readonly rollout?: number
  readonly evaluation_runtime?: "server" | "client" | "all"
  readonly filters?: Record<string, unknown>
  readonly evaluated?: boolean
  /** Deleted once made: the deleted flags page shows it. */
  readonly deleted?: boolean
}

const MULTIVARIATE = "checkout-redesign"

const FLAGS: ReadonlyArray<Seed> = [
  { key: "new-onboarding-flow", name: "Guided onboarding for new sign-ups", tags: ["onboarding", "growth"], rollout: 25, evaluated: true },
  { key: "dark-mode", name: "Dark theme in the web app", tags: ["ui"], rollout: 100, evaluated: true },
  { key: "search-v2", name: "Search served by the new index", tags: ["search", "backend"], rollout: 10, evaluation_runtime: "server", evaluated: true },
  { key: "pricing-annual-toggle", name: "Annual billing switch on the pricing page", tags: ["pricing", "growth"], rollout: 50 },
  { key: "beta-dashboard", name: "Dashboards beta for opted-in teams", tags: ["beta"], rollout: 5, evaluated: true },
  { key: "legacy-csv-export", name: "Old CSV exporter, kept for one customer", tags: ["legacy"], active: false },
  { key: "free-shipping-banner", name: "Free shipping banner above the cart", tags: ["checkout", "marketing"], rollout: 100 },
  { key: "recommendations", name: "Product recommendations on the home page", tags: ["ml", "backend"], rollout: 30, evaluation_runtime: "server" },
  { key: "referral-program", name: "Invite a friend, both get a month free", tags: ["growth"], active: false },
  { key: "mobile-push-prompt", name: "Ask for push permission after the first order", tags: ["mobile"], rollout: 40, evaluation_runtime: "client" },
  { key: "holiday-theme", name: "Seasonal header artwork", tags: ["ui", "seasonal"], active: false },
  { key: "spring-sale-banner", name: "Spring sale banner, ended", tags: ["marketing"], rollout: 100, deleted: true },
  { key: "old-checkout-copy", name: "Earlier wording of the checkout buttons", tags: ["checkout"], rollout: 50, deleted: true },
  {
    key: MULTIVARIATE,
    name: "One-page checkout against the current three steps",
    tags: ["checkout", "experiment", "web"],
    evaluated: true,
    filters: {
      groups: [{
        properties: [
          { key: "email", type: "person", operator: "icontains", value: "@acme.example" },
          { key: "country", type: "person", operator: "exact", value: ["US", "CA"] }
        ],
        rollout_percentage: 50
      }],
      multivariate: {
        variants: [
          { key: "control", name: "Three steps", rollout_percentage: 34 },
          { key: "one-page", name: "One page", rollout_percentage: 33 },
          { key: "express", name: "One page with express pay", rollout_percentage: 33 }
        ]
      },
      payloads: {
        control: JSON.stringify({ steps: 3 }),
        "one-page": JSON.stringify({ steps: 1, summary: "sticky" }),
        express: JSON.stringify({ steps: 1, summary: "sticky", wallets: ["apple_pay", "google_pay"] })
      }
    }
  }
]

// The webhook's receiver is on loopback, which the server may reach for these pictures.
const receiver = await startReceiver(() => 200)
const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, webConsoleDir: dist })
  .pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true" } })))))

try {
  const base = await runtime.runPromise(HedgerowServer.baseUrl)
  const first = Option.getOrThrow(await runtime.runPromise(HedgerowServer.bootstrapIfEmpty({
    email: "ada@acme.example",
    organizationName: "Acme",
    projectName: "Storefront"
  })))
  const api = async (method: string, route: string, body?: unknown) => {
    const response = await fetch(`${base}${route}`, {
      method,
      headers: { authorization: `Bearer ${first.personal_api_key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`)
    return response.status === 204 ? undefined : response.json()
  }

  await api("PATCH", "/api/users/@me/", { password: PASSWORD, first_name: "Ada" })
  const flagsPath = `/api/projects/${first.project_id}/feature_flags/`
  const ids = new Map<string, number>()
  for (const flag of FLAGS) {
    const created = await api("POST", flagsPath, {
      key: flag.key,
      name: flag.name,
      tags: flag.tags,
      active: flag.active ?? true,
      ...(flag.evaluation_runtime === undefined ? {} : { evaluation_runtime: flag.evaluation_runtime }),
      filters: flag.filters ?? { groups: [{ properties: [], rollout_percentage: flag.rollout ?? 100 }] }
    })
    ids.set(flag.key, created.id)
    if (flag.deleted === true) await api("PATCH", `${flagsPath}${created.id}/`, { deleted: true })
  }
  const role = await api("POST", `/api/organizations/${first.organization_id}/roles/`, { name: "Checkout team", feature_flags_access_level: 21 })
  await api("POST", `${flagsPath}${ids.get(MULTIVARIATE)}/role_access/`, { role_id: role.id })

  // Some flags asked for by an SDK, so that they show when they were last evaluated.
  const { api_token } = await api("GET", `/api/projects/${first.project_id}/`)
  const evaluated = FLAGS.filter((flag) => flag.evaluated === true).map((flag) => flag.key)
  const answer = await fetch(`${base}/flags/?v=2`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ token: api_token, distinct_id: "user-1", evaluation_runtime: "all", flag_keys_to_evaluate: evaluated })
  })
  if (!answer.ok) throw new Error(`/flags: ${answer.status}`)

  await mkdir(out, { recursive: true })
  const browser = await launchChromium()
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 })
    const page = await context.newPage()
    await page.goto(`${base}/login`)
    await page.getByLabel("Email").fill(first.user.email)
    await page.getByLabel("Password").fill(PASSWORD)
    await page.getByRole("button", { name: "Log in" }).click()
    await page.waitForURL((url) => url.pathname !== "/login")

    /** `target` as it is now, in the light and the dark scheme: `<name>-light.png` and `<name>-dark.png`. */
    const capture = async (target: Page, name: string) => {
      for (const colorScheme of ["light", "dark"] as const) {
        await target.emulateMedia({ colorScheme })
        const file = path.join(out, `${name}-${colorScheme}.png`)
        await target.screenshot({ path: file })
        console.log(`wrote ${path.relative(process.cwd(), file)}`)
      }
    }
    const shoot = async (pagePath: string, name: string, ready: (page: Page) => Promise<void>) => {
      await page.goto(`${base}${pagePath}`)
      await ready(page)
      await capture(page, name)
    }
    await shoot(`/project/${first.project_id}/flags`, "flags-list", (page) => page.getByRole("link", { name: MULTIVARIATE }).waitFor())
    // The same list on a phone's screen: a card per flag.
    await page.setViewportSize({ width: 390, height: 844 })
    await shoot(`/project/${first.project_id}/flags`, "flags-list-narrow", async (page) => {
      await page.getByRole("link", { name: MULTIVARIATE }).waitFor()
      await page.locator("table.flags thead").evaluate((head) => head.scrollIntoView())
    })
    await page.setViewportSize({ width: 1280, height: 800 })
    await shoot(`/project/${first.project_id}/flags/deleted`, "deleted-flags", (page) => page.getByRole("link", { name: "spring-sale-banner" }).waitFor())
    // The flag's form is taller than the window: in view, its release conditions and its variants.
    await shoot(`/project/${first.project_id}/flags/${ids.get(MULTIVARIATE)}`, "flag", async (page) => {
      await page.getByLabel("Variant 3 Key", { exact: true }).waitFor()
      await page.locator(".status-reason").waitFor()
      await page.getByRole("heading", { name: "Release conditions" }).evaluate((heading) =>
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 16)
      )
    })
    // A live flag's rollout moved: the save asks first, before and after in words. Put back after the
    // shots, so that the form holds no edit when the next page is opened.
    const rollout = page.getByLabel("Condition 1 Rollout percentage", { exact: true })
    let was = ""
    await shoot(`/project/${first.project_id}/flags/${ids.get(MULTIVARIATE)}`, "flag-confirm-save", async (page) => {
      was = await rollout.inputValue()
      await rollout.fill("30")
      await page.getByRole("button", { name: "Save", exact: true }).click()
      await page.getByRole("dialog").getByText("Changing whom this live flag reaches:").waitFor()
    })
    await page.getByRole("dialog").getByRole("button", { name: "Cancel" }).click()
    await rollout.fill(was)

    // The flag's history, usage and code. History: a rollout moved, the flag switched off and on again.
    const multivariate = ids.get(MULTIVARIATE)!
    let current = await api("GET", `${flagsPath}${multivariate}/`)
    const change = async (fields: Record<string, unknown>) => {
      current = await api("PATCH", `${flagsPath}${multivariate}/`, { ...fields, version: current.version })
    }
    await change({ filters: { ...current.filters, groups: [{ ...current.filters.groups[0], rollout_percentage: 80 }] } })
    await change({ active: false })
    await change({ active: true, tags: [...current.tags, "launch"] })
    await shoot(`/project/${first.project_id}/flags/${multivariate}?tab=activity`, "flag-activity", (page) =>
      page.getByText("changed the rollout from 50 % to 80 %").first().waitFor())
    // Usage: a month of calls as the SDKs report them, each day's counts put in the store as the capture
    // endpoint keeps them (it counts a call on the day it arrives, so a month cannot be sent today).
    await runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      for (let day = 29; day >= 0; day--) {
        const base = 120 + Math.round(60 * Math.sin(day / 3)) + (29 - day) * 6
        for (const [value, share] of [["control", 0.34], ["one-page", 0.33], ["express", 0.33]] as const) {
          yield* sql`INSERT INTO feature_flag_calls (flag_id, day, value, count)
            VALUES (${multivariate}, (now() AT TIME ZONE 'UTC')::date - ${day}::int, ${value}, ${Math.round(base * share)})`
        }
      }
    }))
    await shoot(`/project/${first.project_id}/flags/${multivariate}?tab=usage`, "flag-usage", (page) =>
      page.getByRole("img", { name: /^Calls per day/ }).waitFor())
    await shoot(`/project/${first.project_id}/flags/${multivariate}?tab=code`, "flag-code", (page) =>
      page.getByRole("heading", { name: "In the browser (posthog-js)" }).waitFor())

    // The project's cohorts, a dynamic one's conditions, its group types and a webhook with a test delivered.
    const projectPath = `/api/projects/${first.project_id}`
    const cohort = await api("POST", `${projectPath}/cohorts/`, {
      name: "Enterprise admins",
      description: "Administrators at customers on the enterprise plan",
      filters: {
        properties: {
          type: "OR",
          values: [
            {
              type: "AND",
              values: [
                { key: "plan", type: "person", operator: "exact", value: ["enterprise"] },
                { key: "role", type: "person", operator: "exact", value: ["admin", "owner"] }
              ]
            },
            { type: "AND", values: [{ key: "email", type: "person", operator: "icontains", value: "@acme.example" }] }
          ]
        }
      }
    })
    await api("POST", `${projectPath}/cohorts/`, { name: "Beta testers", is_static: true, _create_static_person_ids: ["user-1", "user-2", "user-7"] })
    await api("POST", `${projectPath}/cohorts/`, { name: "Churn risk", filters: { properties: { type: "OR", values: [{ type: "AND", values: [{ key: "last_order_days", type: "person", operator: "gt", value: "60" }] }] } } })
    await api("POST", `${projectPath}/groups_types/`, { group_type: "organization" })
    await api("POST", `${projectPath}/groups_types/`, { group_type: "workspace" })
    await api("PATCH", `${projectPath}/groups_types/update_metadata/`, [
      { group_type_index: 0, name_singular: "Organization", name_plural: "Organizations" },
      { group_type_index: 1, name_singular: "Workspace", name_plural: "Workspaces" }
    ])
    const webhook = await api("POST", `${projectPath}/webhooks/`, {
      url: receiver.url("/hooks/hedgerow"),
      description: "Release notes bot",
      events: ["feature_flag.created", "feature_flag.updated"]
    })
    await api("POST", `${projectPath}/webhooks/${webhook.id}/test/`)
    await shoot(`/project/${first.project_id}/cohorts`, "cohorts", (page) => page.getByRole("link", { name: "Enterprise admins" }).waitFor())
    // The cohort's form is taller than the window: in view, who belongs.
    await shoot(`/project/${first.project_id}/cohorts/${cohort.id}`, "cohort", async (page) => {
      await page.getByLabel("Group 2 filter 1 Value").waitFor()
      await page.getByRole("heading", { name: "Who belongs" }).evaluate((heading) =>
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 16)
      )
    })
    await shoot(`/project/${first.project_id}/group-types`, "group-types", (page) => page.getByRole("article", { name: "workspace" }).waitFor())
    // The webhook's page below its settings: its events and its deliveries.
    await shoot(`/project/${first.project_id}/webhooks/${webhook.id}`, "webhook", async (page) => {
      await page.getByText("HTTP 200", { exact: true }).waitFor()
      await page.getByRole("group", { name: "Events" }).evaluate((events) =>
        window.scrollTo(0, events.getBoundingClientRect().top + window.scrollY - 16)
      )
    })

    // On a phone's screen (390×844): the personal API keys as cards, then the header's account menu open.
    await api("POST", "/api/personal_api_keys/", { label: "CI reader", scopes: ["feature_flag:read", "project:read"] })
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 1 })
    await phone.addCookies(await context.cookies())
    const phonePage = await phone.newPage()
    await phonePage.goto(`${base}/settings/personal-api-keys`)
    await phonePage.getByRole("link", { name: "CI reader" }).waitFor()
    await capture(phonePage, "phone-keys")
    await phonePage.getByRole("button", { name: "Account", exact: true }).click()
    await phonePage.getByRole("button", { name: "Log out" }).waitFor()
    await capture(phonePage, "phone-account-menu")

    // The log-in page, with no session: first for someone of the SAML domain once their e-mail is typed.
    await runtime.runPromise(Effect.gen(function*() {
      const domain = yield* DomainService.use((d) => d.create(systemActor, first.organization_id, bodyOf({ domain: SAML_DOMAIN })))
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${domain.id}`
      yield* DomainService.use((d) =>
        d.update(systemActor, first.organization_id, domain.id, bodyOf({
          saml_entity_id: "https://idp.acme.example/metadata",
          saml_acs_url: "https://idp.acme.example/sso",
          saml_x509_cert: "MIIC",
          sso_enforcement: "saml"
        }))
      )
    }))
    // The organization's roles, with teammates in them, and the SAML domain's settings in words.
    const organizationApi = `/api/organizations/${first.organization_id}`
    const teammates = [["grace@acme.example", "Grace"], ["lin@acme.example", "Lin"], ["omar@acme.example", "Omar"]] as const
    for (const [email, name] of teammates) {
      const invite = await api("POST", `${organizationApi}/invites/`, { target_email: email, send_email: false })
      const signup = await fetch(`${base}/api/signup/${invite.id}/`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ first_name: name, password: `${name}'s long password` })
      })
      if (!signup.ok) throw new Error(`signup: ${signup.status}`)
    }
    const uuidOf = async (email: string) => (await api("GET", `${organizationApi}/members/?${new URLSearchParams({ email })}`)).results[0].user.uuid
    const releases = await api("POST", `${organizationApi}/roles/`, { name: "Release managers" })
    for (const [roleId, email] of [[role.id, "grace@acme.example"], [role.id, "lin@acme.example"], [releases.id, "omar@acme.example"]]) {
      await api("POST", `${organizationApi}/roles/${roleId}/role_memberships/`, { user_uuid: await uuidOf(email) })
    }
    await shoot(`/organization/${first.organization_id}/roles`, "roles", (page) => page.getByRole("article", { name: "Release managers" }).waitFor())
    const samlDomain = (await api("GET", `${organizationApi}/domains/`)).results[0]
    await api("PATCH", `${organizationApi}/domains/${samlDomain.id}/`, { jit_provisioning_enabled: true })
    await shoot(`/organization/${first.organization_id}/domains`, "domain-sso", async (page) => {
      await page.getByText(`People at ${SAML_DOMAIN} must log in with SAML.`).waitFor()
      await page.getByRole("heading", { name: SAML_DOMAIN }).evaluate((heading) =>
        window.scrollTo(0, heading.getBoundingClientRect().top + window.scrollY - 16)
      )
    })

    const loggedOut = await browser.newContext({ viewport: { width: 1280, height: 800 }, deviceScaleFactor: 1 })
    const logInPage = await loggedOut.newPage()
    await logInPage.goto(`${base}/login`)
    await logInPage.getByLabel("Email").fill(`grace@${SAML_DOMAIN}`)
    await logInPage.getByRole("link", { name: "Log in with SAML" }).waitFor()
    await capture(logInPage, "log-in-sso")

    // A sign-in link that cannot be used (a second use looks the same): why, and the way to a new one.
    // The page spends a link only when Sign in is pressed.
    await logInPage.goto(`${base}/sign-in-link#${"0".repeat(43)}`)
    await logInPage.getByRole("button", { name: "Sign in" }).click()
    await logInPage.getByRole("heading", { name: "This sign-in link cannot be used" }).waitFor()
    await capture(logInPage, "sign-in-link-refused")

    // Then Ada, with an authenticator app (turned on from her session, as the settings page does), past
    // her password.
    const csrf = (await context.cookies()).find((cookie) => cookie.name === "posthog_csrftoken")!.value
    const { secret } = await (await page.request.get(`${base}/api/users/@me/two_factor_start_setup/`)).json() as { secret: string }
    const validated = await page.request.post(`${base}/api/users/@me/two_factor_validate/`, {
      data: { token: totpCode(secret, Date.now()) },
      headers: { "x-csrftoken": csrf, origin: base }
    })
    if (!validated.ok()) throw new Error(`two_factor_validate: ${validated.status()} ${await validated.text()}`)
    await shoot("/settings/two-factor", "two-factor-settings", (page) => page.getByRole("button", { name: "New backup codes" }).waitFor())
    await logInPage.goto(`${base}/login`)
    await logInPage.getByLabel("Email").fill(first.user.email)
    await logInPage.getByLabel("Password").fill(PASSWORD)
    await logInPage.getByRole("button", { name: "Log in", exact: true }).click()
    await logInPage.getByLabel("Two-factor code").waitFor()
    await capture(logInPage, "log-in-two-factor")
  } finally {
    await browser.close()
  }
} finally {
  await runtime.dispose()
  await receiver.close()
}
