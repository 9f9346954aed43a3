import type { Page } from "playwright-core"
import { describe, expect, it } from "vitest"
import { isFocused, seriousViolations, useConsole } from "./harness.ts"

// The organization's Roles page in Chromium, against the real server: each step is checked against what
// the API then holds (asked with the owner's key), not only against what the page shows.
const world = useConsole()
const { owner, held, withPage } = world

const rolesPath = () => `/organization/${owner.organization}/roles`
const apiRoles = () => `/api/organizations/${owner.organization}/roles/`

/** axe in the light and the dark scheme, on the page as it is now. */
const accessible = async (page: Page, what: string) => {
  for (const colorScheme of ["light", "dark"] as const) {
    await page.emulateMedia({ colorScheme })
    expect(await seriousViolations(page), `${what}, ${colorScheme}`).toEqual([])
  }
}

/** A request to the API with the owner's key; its answer. */
const call = (method: string, path: string, body?: unknown, as?: string) =>
  fetch(`${world.base}${path}`, {
    method,
    headers: {
      ...(as === "" ? {} : { authorization: `Bearer ${as ?? owner.key}` }),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** A new member at `level`, made through the API: invited by the owner, then signed up from the invite. */
const join = async (email: string, level: 1 | 8) => {
  const invite = await call("POST", `/api/organizations/${owner.organization}/invites/`, { target_email: email, level, send_email: false })
  expect(invite.status).toBe(201)
  const signup = await call("POST", `/api/signup/${(await invite.json()).id}/`, { first_name: "Lee", password: "a teammate's password" }, "")
  expect(signup.status).toBe(201)
}

/** The roles the API holds, by name, each with its flag access and its members' addresses. */
const heldRoles = async () =>
  (await held(`${apiRoles()}?limit=100`)).results.map((role: { name: string; feature_flags_access_level: number; members: Array<{ user: { email: string } }> }) => ({
    name: role.name,
    access: role.feature_flags_access_level,
    members: role.members.map((member) => member.user.email)
  }))

describe("the Roles page in Chromium", () => {
  it("makes a role, adds and removes its members, renames it, changes its flag access and deletes it after saying who loses what", async () => {
    await join("lee@example.com", 1)
    await withPage({}, async (page) => {
      await world.logInAt(page, `/organization/${owner.organization}`)
      await page.getByRole("navigation", { name: "Organization" }).getByRole("link", { name: "Roles" }).click()
      await page.waitForURL(`${world.base}${rolesPath()}`)
      await page.getByText("This organization has no roles yet.").waitFor()
      await accessible(page, "no roles")

      // A new role: its name and what its members may do with flags.
      const form = page.getByRole("region", { name: "New role" })
      await form.getByLabel("Name", { exact: true }).fill("Checkout team")
      await form.getByLabel("Feature flags").selectOption({ label: "Can only view feature flags, and edit those granted to the role" })
      await form.getByRole("button", { name: "Create role" }).click()
      const card = page.getByRole("article", { name: "Checkout team" })
      await card.waitFor()
      await page.getByRole("status").getByText("The role Checkout team is made.").waitFor()
      expect(await heldRoles()).toEqual([{ name: "Checkout team", access: 21, members: [] }])
      await card.getByText("No one is in this role yet.").waitFor()

      // The same name in another case: the API's refusal by the Name field, and nothing more is held.
      const name = form.getByLabel("Name", { exact: true })
      await name.fill("checkout TEAM")
      await form.getByRole("button", { name: "Create role" }).click()
      await form.getByText("There is already a role with this name.").waitFor()
      expect(await name.getAttribute("aria-invalid")).toBe("true")
      expect((await heldRoles()).length).toBe(1)

      // An address no member has: said by the field, nothing added.
      const add = card.getByRole("combobox", { name: "Checkout team Add a member" })
      await add.fill("nobody@example.com")
      await card.getByRole("button", { name: "Add to Checkout team" }).click()
      await card.getByText("No member of the organization has the address nobody@example.com.").waitFor()
      expect((await heldRoles())[0].members).toEqual([])

      // A member, by address (the field suggests the organization's members).
      expect(await card.locator("datalist option").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value)))
        .toEqual(expect.arrayContaining(["lee@example.com", owner.email]))
      await add.fill("lee@example.com")
      await card.getByRole("button", { name: "Add to Checkout team" }).click()
      await card.getByRole("status").getByText("lee@example.com is now in Checkout team.").waitFor()
      expect((await heldRoles())[0].members).toEqual(["lee@example.com"])
      await card.getByRole("cell", { name: "lee@example.com", exact: true }).waitFor()
      await card.getByText("1 member", { exact: true }).waitFor()
      // Once more: the API's refusal, in its words.
      await add.fill("lee@example.com")
      await card.getByRole("button", { name: "Add to Checkout team" }).click()
      await card.getByText("User is already part of the role.").waitFor()
      await accessible(page, "a role with a member")

      // Renamed, and allowed to edit every flag: only what changed is sent, and held.
      await card.getByLabel("Checkout team Name", { exact: true }).fill("Checkout crew")
      await card.getByLabel("Feature flags").selectOption("37")
      await card.getByRole("button", { name: "Save Checkout team" }).click()
      const renamed = page.getByRole("article", { name: "Checkout crew" })
      await renamed.getByRole("status").getByText("Checkout crew is saved.").waitFor()
      expect(await heldRoles()).toEqual([{ name: "Checkout crew", access: 37, members: ["lee@example.com"] }])
      await renamed.getByText("Can edit every feature flag.").waitFor()

      // Removed from the role, at once (adding them again undoes it); the keyboard stays in the card.
      await renamed.getByRole("button", { name: "Remove lee@example.com from Checkout crew" }).click()
      await renamed.getByRole("status").getByText("lee@example.com is no longer in Checkout crew.").waitFor()
      expect((await heldRoles())[0].members).toEqual([])
      expect(await isFocused(renamed.getByRole("heading", { name: "Checkout crew" }))).toBe(true)
      await renamed.getByRole("combobox", { name: "Checkout crew Add a member" }).fill("lee@example.com")
      await renamed.getByRole("button", { name: "Add to Checkout crew" }).click()
      await renamed.getByRole("status").getByText("lee@example.com is now in Checkout crew.").waitFor()

      // Deleting asks first, naming who leaves; Cancel keeps the role.
      await renamed.getByRole("button", { name: "Delete Checkout crew" }).click()
      const dialog = page.getByRole("dialog", { name: "Delete the role Checkout crew?" })
      await dialog.getByText("1 member leave it: lee@example.com.", { exact: false }).waitFor()
      expect(await isFocused(dialog.getByRole("button", { name: "Cancel" }))).toBe(true)
      await accessible(page, "the role's deletion asked")
      await dialog.getByRole("button", { name: "Cancel" }).click()
      expect((await heldRoles()).length).toBe(1)
      await renamed.getByRole("button", { name: "Delete Checkout crew" }).click()
      await dialog.getByRole("button", { name: "Delete role" }).click()
      await page.getByRole("status").getByText("The role Checkout crew is deleted.").waitFor()
      expect(await heldRoles()).toEqual([])
      await page.getByText("This organization has no roles yet.").waitFor()
      expect(await isFocused(page.getByRole("heading", { level: 2, name: "Roles" }))).toBe(true)
    })
  })

  it("fits a role and its members on a phone's screen, 390 by 844, in light and dark", async () => {
    const role = await (await call("POST", apiRoles(), { name: "Release managers of the storefront and the mobile apps" })).json()
    await join("kim@example.com", 1)
    const kim = (await held(`/api/organizations/${owner.organization}/members/?email=kim@example.com`)).results[0].user.uuid
    expect((await call("POST", `${apiRoles()}${role.id}/role_memberships/`, { user_uuid: kim })).status).toBe(201)
    await withPage({ viewport: { width: 390, height: 844 } }, async (page) => {
      await world.logInAt(page, rolesPath())
      await page.getByRole("article", { name: role.name }).getByRole("cell", { name: "kim@example.com", exact: true }).waitFor()
      // The cards fit the screen, a role's members scrolling within their card. (The shell's header and the
      // organization's tabs are the shell's to fit.)
      const rights = await page.locator(".role-card, .role-card form").evaluateAll((cards) => cards.map((card) => card.getBoundingClientRect().right))
      expect(rights.length).toBeGreaterThan(0)
      for (const right of rights) expect(right).toBeLessThanOrEqual(390)
      await accessible(page, "roles at 390 by 844")
    })
  })
})
