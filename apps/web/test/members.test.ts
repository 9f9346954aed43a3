import type { Locator, Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { isFocused, seriousViolations, useConsole } from "./harness.ts"

// The members, invites and sign-up pages in Chromium, against the real server: each step is checked
// against what the API then holds (asked with the owner's key), not only against what the page shows.
const world = useConsole()
const { owner, held, withPage } = world

const invitesPath = () => `/organization/${owner.organization}/invites`
const membersPath = () => `/organization/${owner.organization}/members`
const apiInvites = () => `/api/organizations/${owner.organization}/invites/`
const apiMembers = () => `/api/organizations/${owner.organization}/members/`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** A request to the API as the owner (their key), or with no credentials at all (`as: "nobody"`). */
const call = (method: string, path: string, body?: unknown, as: "owner" | "nobody" = "owner") =>
  fetch(`${world.base}${path}`, {
    method,
    headers: {
      ...(as === "owner" ? { authorization: `Bearer ${owner.key}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** The words of the error a control is described by (the field's error beside it). */
const errorOf = async (page: Page, control: Locator) => {
  await page.waitForFunction((element) => element?.getAttribute("aria-invalid") === "true", await control.elementHandle())
  const ids = (await control.getAttribute("aria-describedby"))!.split(" ")
  return page.locator(`[id="${ids[ids.length - 1]}"]`).textContent()
}

/** A new member at `level`, made through the API: invited by the owner, then signed up from the invite. */
const join = async (email: string, level: 1 | 8) => {
  const invite = await call("POST", apiInvites(), { target_email: email, level, send_email: false })
  expect(invite.status).toBe(201)
  const { id } = await invite.json()
  const signup = await call("POST", `/api/signup/${id}/`, { first_name: email.split("@")[0], password: "a teammate's password" }, "nobody")
  expect(signup.status).toBe(201)
}

const invitedEmails = async (): Promise<Array<string>> =>
  (await held(`${apiInvites()}?limit=100`)).results.map((invite: { target_email: string }) => invite.target_email)

describe("the members, invites and sign-up pages in Chromium", () => {
  it("invites a teammate by e-mail, who signs up from the invite's link and sees the owner's flags, as a member at the invited level", async () => {
    const flag = await call("POST", `/api/projects/${owner.project}/feature_flags/`, { key: "team-launch", name: "Launch to the team" })
    expect(flag.status).toBe(201)
    const organization = await held(`/api/organizations/${owner.organization}/`)
    let inviteId = ""

    await withPage({}, async (page) => {
      // From the organization's page to its invites, by its tabs.
      await world.logInAt(page, `/organization/${owner.organization}`)
      await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Invites" }).click()
      await page.waitForURL(`${world.base}${invitesPath()}`)
      await page.getByText("No invites are waiting.").waitFor()
      await accessible(page, "invites page, none yet")

      await page.getByLabel("Email", { exact: true }).fill("tess@example.com")
      await page.getByLabel("First name (optional)").fill("Tess")
      await page.getByLabel("Level", { exact: true }).selectOption({ label: "Admin" })
      await page.getByRole("button", { name: "Invite", exact: true }).click()
      await page.getByRole("status").getByText("tess@example.com is invited.").waitFor()

      const invites = await held(apiInvites())
      expect(invites.count).toBe(1)
      expect(invites.results[0]).toMatchObject({ target_email: "tess@example.com", first_name: "Tess", level: 8, is_expired: false })
      inviteId = invites.results[0].id
      // The link the e-mail carries is shown, in the form and in the list, with a button to copy it.
      const link = `${world.base}/signup/${inviteId}`
      await page.getByRole("cell", { name: "tess@example.com", exact: true }).waitFor()
      expect(await page.locator(".invite-link code").allTextContents()).toEqual([link, link])
      await page.getByRole("button", { name: "Copy invite link for tess@example.com" }).first().waitFor()
      await accessible(page, "invites page, one invite")
    })

    // The link is a page of the console (no route of the API), served as any deep link is.
    const html = { accept: "text/html" }
    const [root, deep] = await Promise.all([fetch(`${world.base}/`, { headers: html }), fetch(`${world.base}/signup/${inviteId}`, { headers: html })])
    expect(deep.status).toBe(200)
    expect(await deep.text()).toBe(await root.text())

    // The teammate, in a browser of their own, from the link: no session needed.
    await withPage({}, async (page) => {
      await page.goto(`${world.base}/signup/${inviteId}`)
      await page.getByRole("heading", { level: 1, name: `Join ${organization.name}` }).waitFor()
      await page.getByText(`You are invited to join ${organization.name} as t**s@example.com.`).waitFor()
      expect(await page.getByLabel("First name").inputValue()).toBe("Tess")
      await accessible(page, "sign-up page")

      // A password the API refuses: its words by the Password field, and nobody has joined.
      const password = page.getByLabel("Password")
      await password.fill("short")
      await page.getByRole("button", { name: "Create account and join" }).click()
      const refusal = await call("POST", `/api/signup/${inviteId}/`, { first_name: "Tess", password: "short" }, "nobody")
      expect(refusal.status).toBe(400)
      const envelope = await refusal.json()
      expect(envelope.attr).toBe("password")
      expect(await errorOf(page, password)).toBe(envelope.detail)
      await accessible(page, "sign-up page with an error")

      await password.fill("tess's long password")
      await page.getByRole("button", { name: "Create account and join" }).click()
      // Logged in by the answer, the console takes her home, then to the project's flags.
      await page.waitForURL((url) => !url.pathname.startsWith("/signup"))
      await page.getByRole("button", { name: "Log out" }).waitFor()
      await page.goto(`${world.base}/project/${owner.project}/flags`)
      await page.getByRole("link", { name: "team-launch" }).waitFor()
      expect(new URL(page.url()).pathname).toBe(`/project/${owner.project}/flags`)
    })

    const members = await held(`${apiMembers()}?email=tess@example.com`)
    expect(members.count).toBe(1)
    expect(members.results[0]).toMatchObject({ level: 8, user: { email: "tess@example.com", first_name: "Tess" } })
    expect((await held(apiInvites())).count).toBe(0)

    // The used link now says, in the API's words, that it cannot be used.
    await withPage({ colorScheme: "dark" }, async (page) => {
      await page.goto(`${world.base}/signup/${inviteId}`)
      const answer = await call("GET", `/api/signup/${inviteId}/`, undefined, "nobody")
      expect(answer.status).toBe(400)
      const alert = page.getByRole("alert")
      await alert.waitFor()
      expect(await alert.textContent()).toBe((await answer.json()).detail)
      await accessible(page, "sign-up page, invite used")
    })
  })

  it("invites several by pasting addresses, pages the list by the URL and cancels one; refusals stand by their fields in the API's words", () =>
    withPage({}, async (page) => {
      await world.logInAt(page, invitesPath())
      await page.getByText("No invites are waiting.").waitFor()

      // One address that is not one: the API refuses the invite, by the Email field.
      const email = page.getByLabel("Email", { exact: true })
      await email.fill("not-an-address")
      await page.getByRole("button", { name: "Invite", exact: true }).click()
      const single = await call("POST", apiInvites(), { target_email: "not-an-address", level: 1 })
      expect(single.status).toBe(400)
      const singleEnvelope = await single.json()
      expect(singleEnvelope.attr).toBe("target_email")
      expect(await errorOf(page, email)).toBe(singleEnvelope.detail)

      // Pasted, one a line: the second is refused by index, shown by the addresses, and nothing is created.
      const addresses = page.getByLabel("Email addresses")
      await addresses.fill("ana@example.com\nnot-an-address\n")
      await page.getByRole("button", { name: "Invite all" }).click()
      const bulk = await call("POST", `${apiInvites()}bulk/`, [{ target_email: "ana@example.com", level: 1 }, { target_email: "not-an-address", level: 1 }])
      expect(bulk.status).toBe(400)
      const bulkEnvelope = await bulk.json()
      expect(bulkEnvelope.attr).toBe("1__target_email")
      expect(await errorOf(page, addresses)).toBe(`not-an-address: ${bulkEnvelope.detail}`)
      expect(await invitedEmails()).toEqual([])
      await accessible(page, "invites page with errors")

      const pasted = ["ana@example.com", "ben@example.com", "cy@example.com"]
      await addresses.fill(`${pasted[0]}\n\n  ${pasted[1]}\n${pasted[2]}\n`)
      await page.getByLabel("Level of each").selectOption({ label: "Admin" })
      await page.getByRole("button", { name: "Invite all" }).click()
      await page.getByRole("status").getByText("3 addresses are invited.").waitFor()
      const invites = (await held(`${apiInvites()}?limit=100`)).results
      expect(invites.map((invite: { target_email: string }) => invite.target_email).sort()).toEqual(pasted)
      expect(invites.every((invite: { level: number }) => invite.level === 8)).toBe(true)
      for (const address of pasted) await page.getByRole("cell", { name: address, exact: true }).waitFor()

      // Withdrawn from its row, once asked ("Keep invite" keeps it): the API no longer holds it.
      const cancel = page.getByRole("button", { name: "Cancel invite for ben@example.com" })
      const question = page.getByRole("dialog", { name: "Cancel the invite for ben@example.com?" })
      await cancel.click()
      expect(await isFocused(question.getByRole("button", { name: "Keep invite" }))).toBe(true)
      await question.getByRole("button", { name: "Keep invite" }).click()
      await question.waitFor({ state: "hidden" })
      expect(await isFocused(cancel)).toBe(true)
      expect((await invitedEmails()).sort()).toEqual(pasted)
      await cancel.click()
      await accessible(page, "invites page, asking to cancel")
      await question.getByRole("button", { name: "Cancel invite" }).click()
      await page.getByRole("status").getByText("The invite for ben@example.com is cancelled.").waitFor()
      expect(await isFocused(page.getByRole("heading", { level: 2, name: "Invites" }))).toBe(true)
      expect((await invitedEmails()).sort()).toEqual(["ana@example.com", "cy@example.com"])
      await page.getByRole("cell", { name: "ben@example.com", exact: true }).waitFor({ state: "detached" })

      // Twenty more make a second page, reached by its link and named in the URL.
      const more = Array.from({ length: 20 }, (_, index) => ({ target_email: `bulk${index}@example.com`, send_email: false }))
      expect((await call("POST", `${apiInvites()}bulk/`, more)).status).toBe(200)
      await page.reload()
      await page.getByRole("link", { name: "Next page" }).click()
      await page.waitForURL(`${world.base}${invitesPath()}?page=2`)
      const second = await held(`${apiInvites()}?limit=20&offset=20`)
      expect(second.results.length).toBe(2)
      for (const invite of second.results) await page.getByRole("cell", { name: invite.target_email, exact: true }).waitFor()
      expect(await page.locator("table.invites tbody tr").count()).toBe(2)
      await page.getByText("Page 2 of 2").waitFor()
    }))

  it("changes a member's level and removes a member after asking; leaving as the only owner is refused in the API's words", async () => {
    await join("lee@example.com", 1)
    await join("max@example.com", 1)
    await withPage({}, async (page) => {
      await world.logInAt(page, membersPath())
      const held_ = await held(`${apiMembers()}?limit=20`)
      for (const member of held_.results) await page.getByRole("cell", { name: member.user.email, exact: true }).waitFor()
      expect(await page.locator("table.members tbody tr").count()).toBe(held_.count)
      await accessible(page, "members page")

      await page.getByLabel("Level of lee@example.com").selectOption({ label: "Admin" })
      await page.getByRole("button", { name: "Change level of lee@example.com" }).click()
      await page.getByRole("status").getByText("lee@example.com is now Admin.").waitFor()
      expect((await held(`${apiMembers()}?email=lee@example.com`)).results[0].level).toBe(8)

      // Removing asks first, in a dialog that opens on Cancel; Cancel leaves the member be.
      await page.getByRole("button", { name: "Remove max@example.com" }).click()
      const question = page.getByRole("dialog", { name: "Remove max@example.com from the organization?" })
      expect(await isFocused(question.getByRole("button", { name: "Cancel" }))).toBe(true)
      await question.getByRole("button", { name: "Cancel" }).click()
      await question.waitFor({ state: "hidden" })
      expect((await held(`${apiMembers()}?email=max@example.com`)).count).toBe(1)
      await page.getByRole("button", { name: "Remove max@example.com" }).click()
      await accessible(page, "members page, asking to remove")
      await question.getByRole("button", { name: "Remove member" }).click()
      await page.getByRole("status").getByText("max@example.com is removed.").waitFor()
      expect(await isFocused(page.getByRole("heading", { level: 2, name: "Members" }))).toBe(true)
      expect((await held(`${apiMembers()}?email=max@example.com`)).count).toBe(0)
      await page.getByRole("cell", { name: "max@example.com", exact: true }).waitFor({ state: "detached" })

      // The only owner cannot leave: the API's words, in the question, and they are still a member.
      await page.getByRole("button", { name: "Leave organization" }).click()
      const leave = page.getByRole("dialog", { name: /^Leave / })
      await leave.getByRole("button", { name: "Leave organization" }).click()
      const refusal = await call("DELETE", `${apiMembers()}@me/`)
      expect(refusal.status).toBe(400)
      const alert = leave.getByRole("alert")
      await alert.waitFor()
      expect(await alert.textContent()).toBe((await refusal.json()).detail)
      expect((await held(`${apiMembers()}?email=${encodeURIComponent(owner.email)}`)).results[0].level).toBe(15)
      await accessible(page, "members page with a refusal")
    })
  })

  it("lets a member leave the organization, who then has none", async () => {
    await join("nell@example.com", 1)
    await withPage({}, async (page) => {
      await page.goto(`${world.base}/login?next=${encodeURIComponent(membersPath())}`)
      await page.getByLabel("Email").fill("nell@example.com")
      await page.getByLabel("Password").fill("a teammate's password")
      await page.getByRole("button", { name: "Log in" }).click()
      await page.waitForURL(`${world.base}${membersPath()}`)
      // A member changes nobody's level: no level to choose, no one to remove.
      await page.getByRole("cell", { name: "nell@example.com", exact: true }).waitFor()
      expect(await page.getByRole("combobox").count()).toBe(0)
      expect(await page.getByRole("button", { name: /^Remove / }).count()).toBe(0)

      await page.getByRole("button", { name: "Leave organization" }).click()
      await page.getByRole("dialog", { name: /^Leave / }).getByRole("button", { name: "Leave organization" }).click()
      await page.getByText("You are not a member of any organization yet.").waitFor()
      expect((await held(`${apiMembers()}?email=nell@example.com`)).count).toBe(0)
    })
  })
})
