import { BatchExportService, systemActor } from "@hedgerow/core"
import { readFileSync } from "node:fs"
import * as path from "node:path"
import type { BrowserContext, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ALL_FLAGS, COHORT_TABS, FLAG_TABS, hrefOf, parseRoute, type Route } from "../src/router/routes.ts"
import { seriousViolations, sidewaysOverflow, useConsole } from "./harness.ts"

// Every kind of page the router knows, each visited over data seeded through the API with the owner's
// key, on a phone's screen (390×844) and a wide one (1440×900): exactly one h1, a title of its own, no
// sideways scrolling of the page, and no serious or critical axe finding in the light scheme nor in the
// dark. Every visit is made at every size in `SIZES`. A route added to `Route` is a kind this file must
// visit: `VISITS` is a record over its `page` values (the compiler refuses one missing), and the first
// test reads the type's source so that the run fails too.
const world = useConsole()
const { owner } = world

/** What the seeding made, for the visits' URLs and for what each page shows once it has read it. */
const seeded = {
  organizationName: "",
  projectName: "",
  projectToken: "",
  /** The owner's current project: where home leads. */
  currentProject: "",
  flagId: "",
  flagKey: "checkout-redesign",
  deletedFlagKey: "old-banner",
  roleName: "Checkout team",
  memberEmail: "lee@example.com",
  inviteId: "",
  inviteEmail: "tess@example.com",
  domain: "acme-pages.example",
  batchExport: "Nightly events",
  keyId: "",
  keyLabel: "CI reader",
  cohortId: "",
  cohortName: "Beta testers",
  cohortMember: "user-beta-1",
  groupType: "company",
  webhookId: "",
  webhookUrl: "https://198.51.99.7/hedgerow"
}
type Seeded = typeof seeded

interface Visit {
  /** What the visit shows, in the test's name. */
  readonly what: string
  readonly path: (seeded: Seeded) => string
  /** Whether the page is seen logged in (the shell's pages) or with no session (log-in, an invite's sign-up). */
  readonly session: boolean
  /** Waits for what the page shows of the seeded data, once it has read it. */
  readonly ready: (page: Page, seeded: Seeded) => Promise<void>
}

const shows = (text: (seeded: Seeded) => string) => (page: Page, data: Seeded) => page.getByText(text(data), { exact: true }).first().waitFor()
const heading = (name: (seeded: Seeded) => string) => (page: Page, data: Seeded) =>
  page.getByRole("heading", { level: 1, name: name(data), exact: true }).waitFor()

const TAB_READY: Record<(typeof FLAG_TABS)[number], Visit["ready"]> = {
  settings: async (page, data) => {
    const key = page.getByLabel("Key", { exact: true })
    await key.waitFor()
    expect(await key.inputValue()).toBe(data.flagKey)
  },
  activity: (page) => page.getByText("changed the rollout from 100 % to 40 %").first().waitFor(),
  evaluate: (page) => page.getByLabel("Distinct ID").waitFor(),
  access: (page, data) => page.getByRole("rowheader", { name: data.roleName, exact: true }).waitFor(),
  usage: (page) => page.getByRole("img", { name: /^Calls per day/ }).waitFor(),
  code: (page, data) => page.getByText(`posthog.init(${JSON.stringify(data.projectToken)}`, { exact: false }).first().waitFor()
}

const VISITS: Record<Route["page"], ReadonlyArray<Visit>> = {
  home: [{
    what: "home, which leads to the current project's flags",
    path: () => hrefOf({ page: "home" }),
    session: true,
    ready: async (page, data) => {
      await page.waitForURL((url) => url.pathname === hrefOf({ page: "flags", projectId: data.currentProject, list: ALL_FLAGS }))
      await shows((data) => data.flagKey)(page, data)
    }
  }],
  login: [{ what: "log-in", path: () => hrefOf({ page: "login", next: undefined }), session: false, ready: heading(() => "Log in to Hedgerow") }],
  signInLink: [{
    what: "a sign-in link without its secret",
    path: () => hrefOf({ page: "signInLink" }),
    session: false,
    ready: heading(() => "This sign-in link cannot be used")
  }],
  signup: [{
    what: "an invite's sign-up",
    path: (data) => hrefOf({ page: "signup", inviteId: data.inviteId }),
    session: false,
    ready: heading((data) => `Join ${data.organizationName}`)
  }],
  organization: [{
    what: "an organization's projects",
    path: () => hrefOf({ page: "organization", organizationId: owner.organization, pageNumber: 1 }),
    session: true,
    ready: (page, data) => page.getByRole("main").getByRole("link", { name: data.projectName, exact: true }).waitFor()
  }],
  members: [{
    what: "members",
    path: () => hrefOf({ page: "members", organizationId: owner.organization, pageNumber: 1 }),
    session: true,
    ready: shows((data) => data.memberEmail)
  }],
  invites: [{
    what: "invites",
    path: () => hrefOf({ page: "invites", organizationId: owner.organization, pageNumber: 1 }),
    session: true,
    ready: shows((data) => data.inviteEmail)
  }],
  domains: [{
    what: "domains",
    path: () => hrefOf({ page: "domains", organizationId: owner.organization, pageNumber: 1 }),
    session: true,
    ready: (page, data) => page.getByRole("article", { name: data.domain }).waitFor()
  }],
  batchExports: [{
    what: "batch exports",
    path: () => hrefOf({ page: "batchExports", organizationId: owner.organization, pageNumber: 1 }),
    session: true,
    ready: shows((data) => data.batchExport)
  }],
  roles: [{
    what: "roles",
    path: () => hrefOf({ page: "roles", organizationId: owner.organization, pageNumber: 1 }),
    session: true,
    ready: (page, data) => page.getByRole("article", { name: data.roleName }).waitFor()
  }],
  project: [{
    what: "a project's details",
    path: () => hrefOf({ page: "project", projectId: String(owner.project) }),
    session: true,
    ready: shows((data) => data.projectToken)
  }],
  flags: [{
    what: "a project's flags",
    path: () => hrefOf({ page: "flags", projectId: String(owner.project), list: ALL_FLAGS }),
    session: true,
    ready: (page, data) => page.getByRole("link", { name: data.flagKey, exact: true }).waitFor()
  }],
  flagActivity: [{
    what: "a project's flag activity",
    path: () => hrefOf({ page: "flagActivity", projectId: String(owner.project), pageNumber: 1 }),
    session: true,
    ready: (page) => page.getByText("changed the rollout from 100 % to 40 %", { exact: false }).first().waitFor()
  }],
  deletedFlags: [{
    what: "a project's deleted flags",
    path: () => hrefOf({ page: "deletedFlags", projectId: String(owner.project), search: "", pageNumber: 1 }),
    session: true,
    ready: (page, data) => page.getByRole("link", { name: data.deletedFlagKey, exact: true }).waitFor()
  }],
  newFlag: [{
    what: "a new flag's form",
    path: () => hrefOf({ page: "newFlag", projectId: String(owner.project) }),
    session: true,
    ready: (page) => page.getByLabel("Key", { exact: true }).waitFor()
  }],
  flag: FLAG_TABS.map((tab): Visit => ({
    what: `a flag's ${tab} tab`,
    path: (data) => hrefOf({ page: "flag", projectId: String(owner.project), flagId: data.flagId, tab, pageNumber: 1 }),
    session: true,
    ready: TAB_READY[tab]
  })),
  cohorts: [{
    what: "a project's cohorts",
    path: () => hrefOf({ page: "cohorts", projectId: String(owner.project), search: "", pageNumber: 1 }),
    session: true,
    ready: (page, data) => page.getByRole("link", { name: data.cohortName, exact: true }).waitFor()
  }],
  newCohort: [{
    what: "a new cohort's form",
    path: () => hrefOf({ page: "newCohort", projectId: String(owner.project) }),
    session: true,
    ready: (page) => page.getByLabel("Name", { exact: true }).waitFor()
  }],
  cohort: COHORT_TABS.map((tab): Visit => ({
    what: `a static cohort's ${tab} tab`,
    path: (data) => hrefOf({ page: "cohort", projectId: String(owner.project), cohortId: data.cohortId, tab, pageNumber: 1 }),
    session: true,
    ready: tab === "settings"
      ? (page, data) => page.getByLabel("Name", { exact: true }).and(page.locator(`[value="${data.cohortName}"]`)).waitFor()
      : tab === "persons"
      ? shows((data) => data.cohortMember)
      : (page) => page.getByRole("listitem").filter({ hasText: "created the cohort" }).first().waitFor()
  })),
  groupTypes: [{
    what: "a project's group types",
    path: () => hrefOf({ page: "groupTypes", projectId: String(owner.project) }),
    session: true,
    ready: (page, data) => page.getByRole("article", { name: data.groupType }).waitFor()
  }],
  webhooks: [{
    what: "a project's webhooks",
    path: () => hrefOf({ page: "webhooks", projectId: String(owner.project), pageNumber: 1 }),
    session: true,
    ready: (page, data) => page.getByRole("link", { name: data.webhookUrl, exact: true }).waitFor()
  }],
  webhook: [{
    what: "a webhook and its deliveries",
    path: (data) => hrefOf({ page: "webhook", projectId: String(owner.project), webhookId: data.webhookId, pageNumber: 1 }),
    session: true,
    ready: (page) => page.getByText("Nothing has been sent to this webhook yet.").waitFor()
  }],
  personalApiKeys: [{
    what: "personal API keys",
    path: () => hrefOf({ page: "personalApiKeys" }),
    session: true,
    ready: (page, data) => page.getByRole("link", { name: data.keyLabel, exact: true }).waitFor()
  }],
  twoFactor: [{
    what: "two-factor authentication, off",
    path: () => hrefOf({ page: "twoFactor" }),
    session: true,
    ready: (page) => page.getByRole("button", { name: "Set up an authenticator app", exact: true }).waitFor()
  }],
  newPersonalApiKey: [{
    what: "a new personal API key's form",
    path: () => hrefOf({ page: "newPersonalApiKey" }),
    session: true,
    ready: (page) => page.getByLabel("Label", { exact: true }).waitFor()
  }],
  personalApiKey: [{
    what: "a personal API key",
    path: (data) => hrefOf({ page: "personalApiKey", keyId: data.keyId }),
    session: true,
    ready: heading((data) => data.keyLabel)
  }],
  cliAuthorize: [{
    what: "the CLI's authorization",
    path: () => hrefOf({ page: "cliAuthorize", code: "ABCD-1234" }),
    session: true,
    ready: async (page) => {
      await page.getByText(/^Authorize the Hedgerow CLI on your computer to act as /).waitFor()
      await page.getByLabel("Project", { exact: true }).waitFor()
    }
  }],
  notFound: [{ what: "an address with no page", path: () => "/no-such-page", session: true, ready: heading(() => "Page not found") }]
}

/** The `page` values the `Route` type names, read from its source: what VISITS must hold, at run time too. */
const routePages = (): Array<string> => {
  const source = readFileSync(path.resolve(import.meta.dirname, "..", "src", "router", "routes.ts"), "utf8")
  const type = source.slice(source.indexOf("export type Route ="), source.indexOf("\n\n", source.indexOf("export type Route =")))
  return [...type.matchAll(/readonly page: "(\w+)"/g)].map((match) => match[1]!)
}

const { sent } = world

/** The screens every page is seen on: a phone held upright, and a laptop's. */
const SIZES = [{ width: 390, height: 844 }, { width: 1440, height: 900 }] as const
type Size = (typeof SIZES)[number]
const sizeName = (size: Size) => `${size.width}×${size.height}`

/** A browser context per screen size, one logged in as the owner and one with no session. */
const contexts = new Map<string, { readonly session: BrowserContext; readonly none: BrowserContext }>()

beforeAll(async () => {
  const organization = `/api/organizations/${owner.organization}`
  const flags = `/api/projects/${owner.project}/feature_flags/`
  const flag = await sent("POST", flags, {
    key: seeded.flagKey,
    name: "One-page checkout",
    tags: ["checkout"],
    filters: {
      groups: [{ properties: [{ key: "email", type: "person", operator: "icontains", value: "@example.com" }], rollout_percentage: 100 }],
      multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "one-page", rollout_percentage: 50 }] },
      payloads: { "one-page": JSON.stringify({ steps: 1 }) }
    }
  })
  seeded.flagId = String(flag.id)
  // A change, for the activity tab to show.
  await sent("PATCH", `${flags}${flag.id}/`, { filters: { ...flag.filters, groups: [{ ...flag.filters.groups[0], rollout_percentage: 40 }] }, version: flag.version })
  // Calls the SDKs reported, for the usage tab to draw.
  const { api_token } = await world.held(`/api/projects/${owner.project}/`)
  const calls = ["control", "control", "one-page"].map((value) => ({ event: "$feature_flag_called", distinct_id: "ann", properties: { $feature_flag: seeded.flagKey, $feature_flag_response: value } }))
  await sent("POST", "/batch/", { api_key: api_token, batch: calls }, "")
  const deleted = await sent("POST", flags, { key: seeded.deletedFlagKey, name: "The spring banner" })
  await sent("PATCH", `${flags}${deleted.id}/`, { deleted: true, version: deleted.version })
  const role = await sent("POST", `${organization}/roles/`, { name: seeded.roleName, feature_flags_access_level: 21 })
  await sent("POST", `${flags}${flag.id}/role_access/`, { role_id: role.id })
  // A teammate who joined, and one invited still.
  const joined = await sent("POST", `${organization}/invites/`, { target_email: seeded.memberEmail, level: 8, send_email: false })
  await sent("POST", `/api/signup/${joined.id}/`, { first_name: "Lee", password: "a teammate's password" }, "")
  seeded.inviteId = (await sent("POST", `${organization}/invites/`, { target_email: seeded.inviteEmail, first_name: "Tess", send_email: false })).id
  await sent("POST", `${organization}/domains/`, { domain: seeded.domain })
  await world.operate(BatchExportService.use((s) => s.create(systemActor, owner.organization, { project_id: owner.project, name: seeded.batchExport })))
  seeded.keyId = (await sent("POST", "/api/personal_api_keys/", { label: seeded.keyLabel, scopes: ["feature_flag:read"] })).id
  const projectPath = `/api/projects/${owner.project}`
  seeded.cohortId = String((await sent("POST", `${projectPath}/cohorts/`, {
    name: seeded.cohortName,
    is_static: true,
    _create_static_person_ids: [seeded.cohortMember]
  })).id)
  await sent("POST", `${projectPath}/groups_types/`, { group_type: seeded.groupType })
  // A webhook with events to none of which the seeding gives rise after it: its deliveries stay empty.
  seeded.webhookId = (await sent("POST", `${projectPath}/webhooks/`, { url: seeded.webhookUrl, events: ["cohort.deleted"] })).id

  const [me, project] = await Promise.all([world.held("/api/users/@me/"), world.held(`/api/projects/${owner.project}/`)])
  Object.assign(seeded, {
    organizationName: me.organizations.find((item: { id: string }) => item.id === owner.organization).name,
    projectName: project.name,
    projectToken: project.api_token,
    currentProject: String(me.team.id)
  })

  for (const size of SIZES) {
    const none = await world.browser.newContext({ viewport: size })
    const session = await world.browser.newContext({ viewport: size })
    contexts.set(sizeName(size), { none, session })
    const login = await session.request.post(`${world.base}/api/login/`, { data: { email: owner.email, password: owner.password } })
    expect(login.status()).toBe(200)
  }
})

afterAll(async () => {
  for (const { session, none } of contexts.values()) {
    await session.close()
    await none.close()
  }
})

describe("every page of the console", () => {
  it("is visited here: a visit for each page the router knows, each at a URL the router reads as that page", () => {
    expect(Object.keys(VISITS).sort()).toEqual(routePages().sort())
    for (const [kind, visits] of Object.entries(VISITS)) {
      expect(visits.length, kind).toBeGreaterThan(0)
      for (const visit of visits) {
        const url = new URL(visit.path(seeded), "http://console.test")
        expect(parseRoute(url.pathname, url.search).page, visit.what).toBe(kind)
      }
    }
  })

  it("would see a serious finding: a button without a name planted on the log-in page is one", async () => {
    const page = await contexts.get(sizeName(SIZES[0]))!.none.newPage()
    try {
      await page.goto(`${world.base}${hrefOf({ page: "login", next: undefined })}`)
      await page.getByRole("heading", { level: 1 }).waitFor()
      expect(await seriousViolations(page)).toEqual([])
      await page.evaluate(() => document.querySelector("main")!.append(document.createElement("button")))
      expect((await seriousViolations(page)).map((finding) => finding.rule)).toContain("button-name")
    } finally {
      await page.close()
    }
  })

  const all = Object.values(VISITS).flat().flatMap((visit) => SIZES.map((size) => [visit.what, sizeName(size), visit] as const))
  it.each(all)("%s at %s: one h1, a title, no sideways scrolling, no serious axe finding, light or dark", async (_, size, visit) => {
    const page = await contexts.get(size)![visit.session ? "session" : "none"].newPage()
    try {
      await page.goto(`${world.base}${visit.path(seeded)}`)
      await visit.ready(page, seeded)
      // Every read answered: nothing is loading any more (the flag's status line included).
      await page.waitForFunction(() => !document.body.innerText.includes("Loading…"))
      expect(await page.locator("h1").count()).toBe(1)
      const title = await page.title()
      expect(title).toMatch(/^\S.* · Hedgerow$/)
      expect(await sidewaysOverflow(page), `${visit.what} at ${size}`).toEqual({ overflow: 0, wider: [] })
      for (const colorScheme of ["light", "dark"] as const) {
        await page.emulateMedia({ colorScheme })
        expect(await seriousViolations(page), `${visit.what}, ${colorScheme}`).toEqual([])
      }
    } finally {
      await page.close()
    }
  })
})
