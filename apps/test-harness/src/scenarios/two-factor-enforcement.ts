import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { totpCode } from "@hedgerow/core"
import type { Target } from "../targets/target.ts"
import { FLAGS } from "./feature-flags-support.ts"
import { currentOf, foundOrganization, ORGANIZATIONS } from "./organizations.ts"
import { denied, envelope, expectReply, invalid, needWorld, type Scenario, withWorld } from "./scenario.ts"
import { accept, Browser, createInvite, freshEmail, login, logout, me, SESSION } from "./sessions-support.ts"

const twoFactor = (endpoint: "startSetup" | "validate" | "status" | "disable") => ({ group: "twoFactor", endpoint }) as const
const token = { group: "twoFactorLogin", endpoint: "token" } as const

const SETUP_REQUIRED = envelope("authentication_error", "two_factor_setup_required", "2FA setup required")
const VERIFICATION_REQUIRED = envelope("authentication_error", "two_factor_verification_required", "2FA verification required")
const TWO_FA_REQUIRED = envelope("authentication_error", "2fa_required", "2FA is required.")
const INSUFFICIENT = denied("Your organization access level is insufficient.")
const NOT_BOOLEAN = invalid("enforce_2fa", "Must be a valid boolean.")

const setEnforcement = (target: Target, key: string, id: string, body: unknown) =>
  target.call(ORGANIZATIONS.update, { key, params: { organization_id: id }, body })

/** Runs `run` on a new organization of the founder's, deleted afterwards whatever happened. */
const inFoundedOrganization = async (
  target: Target,
  key: string,
  run: (org: Awaited<ReturnType<typeof foundOrganization>>) => Promise<void>
) => {
  const org = await foundOrganization(target, key)
  try {
    await run(org)
  } finally {
    await target.call(ORGANIZATIONS.destroy, { key, params: { organization_id: org.id } })
  }
}

/** Someone invited into `organization` by `key` who accepts with a password: logged in, their current organization that one. */
const newMemberOf = async (target: Target, key: string, organization: string) => {
  const email = freshEmail("enforced")
  const invited = await target.call(createInvite, {
    key,
    params: { organization_id: organization },
    body: { target_email: email, level: 1, send_email: false }
  })
  expectReply(invited, 201)
  const password = `pw-${randomUUID()}`
  const browser = new Browser(target)
  expectReply(await browser.call(accept, { params: { invite_id: invited.body.id }, body: { first_name: "Enf", password } }), 201)
  assert.ok(browser.cookies[SESSION], "accepting logs the new member in")
  return { email, password, browser }
}

export const twoFactorEnforcementScenarios: ReadonlyArray<Scenario> = [
  withWorld("enforce_2fa: members read it (null at first), administrators write it, a member's PATCH is 403 and writes nothing", async (target, world) => {
    const { member, admin } = world.members
    const params = { organization_id: world.orgA }
    const before = await target.call(ORGANIZATIONS.retrieve, { key: member.key, params })
    expectReply(before, 200)
    assert.equal(before.body.enforce_2fa, null)
    expectReply(await setEnforcement(target, member.key, world.orgA, { enforce_2fa: true }), 403, INSUFFICIENT)
    expectReply(await target.call(ORGANIZATIONS.retrieve, { key: member.key, params }), 200, before.body)
    // Off (false) and back to unset (null): neither enforces anything, so no other scenario's sessions in A change.
    const off = await setEnforcement(target, admin.key, world.orgA, { enforce_2fa: false })
    expectReply(off, 200, { ...before.body, enforce_2fa: false, membership_level: 8 })
    expectReply(await target.call(ORGANIZATIONS.retrieve, { key: member.key, params }), 200, { ...before.body, enforce_2fa: false })
    expectReply(await setEnforcement(target, admin.key, world.orgA, { enforce_2fa: null }), 200, { ...before.body, membership_level: 8 })
    const listed = await target.call(ORGANIZATIONS.list, { key: member.key })
    expectReply(listed, 200)
    assert.deepEqual(listed.body.results.find((found: { id: string }) => found.id === world.orgA), before.body)
  }),

  {
    name: "enforce_2fa takes PostHog's spellings of a boolean and refuses anything else with 400 and the exact body, writing nothing",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      await inFoundedOrganization(target, founder.key, async (org) => {
        assert.equal(org.enforce_2fa, null)
        for (const [sent, stored] of [["yes", true], [0, false], ["True", true], [false, false], [null, null]] as const) {
          expectReply(await setEnforcement(target, founder.key, org.id, { enforce_2fa: sent }), 200, { ...org, enforce_2fa: stored })
        }
        for (const bad of ["maybe", 2, [true], { on: true }, ""]) {
          expectReply(await setEnforcement(target, founder.key, org.id, { enforce_2fa: bad }), 400, NOT_BOOLEAN)
        }
        // A bad setting with a good name changes neither.
        expectReply(await setEnforcement(target, founder.key, org.id, { name: "Changed", enforce_2fa: "maybe" }), 400, NOT_BOOLEAN)
        expectReply(await target.call(ORGANIZATIONS.retrieve, { key: founder.key, params: { organization_id: org.id } }), 200, org)
      })
    }
  },

  {
    name: "enforce_2fa refuses a session without an app (setup) or without a code (verification) until it passes one; keys and open paths still answer",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      await inFoundedOrganization(target, founder.key, async (org) => {
        const { project } = await currentOf(target, founder.key)
        const params = { organization_id: org.id }
        const flags = { project_id: project }
        const { email, password, browser } = await newMemberOf(target, founder.key, org.id)
        // A second browser of the same person, logged in with the password alone before any app exists.
        const other = new Browser(target)
        expectReply(await other.call(login, { body: { email, password } }), 200, { success: true })
        expectReply(await browser.call(ORGANIZATIONS.retrieve, { params }), 200)

        const on = await setEnforcement(target, founder.key, org.id, { enforce_2fa: true })
        expectReply(on, 200, { ...org, enforce_2fa: true })
        for (const session of [browser, other]) {
          expectReply(await session.call(ORGANIZATIONS.retrieve, { params }), 403, SETUP_REQUIRED)
          expectReply(await session.call(FLAGS.list, { params: flags }), 403, SETUP_REQUIRED)
          expectReply(await session.call(ORGANIZATIONS.update, { params, body: { name: "Not by me" } }), 403, SETUP_REQUIRED)
        }
        // A personal API key is no session: the founder has no app either, and is served.
        expectReply(await target.call(ORGANIZATIONS.retrieve, { key: founder.key, params }), 200, { ...org, enforce_2fa: true })
        expectReply(await target.call(FLAGS.list, { key: founder.key, params: flags }), 200)
        // The paths left open: the person's own user and the two-factor setup.
        const self = await browser.call(me)
        expectReply(self, 200)
        assert.deepEqual([self.body.email, self.body.is_2fa_enabled, self.body.organization.id], [email, false, org.id])
        expectReply(await browser.call(twoFactor("status")), 200, { is_enabled: false, backup_codes: [], backup_codes_remaining: 0, method: null })
        const started = await browser.call(twoFactor("startSetup"))
        expectReply(started, 200)
        const secret: string = started.body.secret
        expectReply(await browser.call(twoFactor("validate"), { body: { token: totpCode(secret, Date.now()) } }), 200, { success: true })

        // The code that turned the app on is this session's second factor; the other session passed none.
        expectReply(await browser.call(ORGANIZATIONS.retrieve, { params }), 200, { ...org, enforce_2fa: true, membership_level: 1 })
        expectReply(await browser.call(FLAGS.list, { params: flags }), 200)
        expectReply(await other.call(ORGANIZATIONS.retrieve, { params }), 403, VERIFICATION_REQUIRED)
        expectReply(await other.call(FLAGS.list, { params: flags }), 403, VERIFICATION_REQUIRED)
        expectReply(await other.call(me), 200)
        // Turned off, the rule refuses nobody; turned on again, it refuses the same session again.
        expectReply(await setEnforcement(target, founder.key, org.id, { enforce_2fa: false }), 200, { ...org, enforce_2fa: false })
        expectReply(await other.call(FLAGS.list, { params: flags }), 200)
        expectReply(await setEnforcement(target, founder.key, org.id, { enforce_2fa: true }), 200, { ...org, enforce_2fa: true })
        expectReply(await other.call(FLAGS.list, { params: flags }), 403, VERIFICATION_REQUIRED)
        expectReply(await other.call(logout), 204, null)

        // Logging in again asks for the code, and the code's session is served. The code setup took is used
        // up, so the next step's code (accepted too) finishes the log-in.
        const fresh = new Browser(target)
        expectReply(await fresh.call(login, { body: { email, password } }), 401, TWO_FA_REQUIRED)
        expectReply(await fresh.call(token, { body: { token: totpCode(secret, Date.now() + 30_000) } }), 200, { success: true })
        expectReply(await fresh.call(ORGANIZATIONS.retrieve, { params }), 200, { ...org, enforce_2fa: true, membership_level: 1 })
        expectReply(await fresh.call(FLAGS.list, { params: flags }), 200)

        // Turning the app off takes the pass from the person's sessions: they are asked to set one up again.
        expectReply(await fresh.call(twoFactor("disable")), 200, { success: true })
        expectReply(await fresh.call(ORGANIZATIONS.retrieve, { params }), 403, SETUP_REQUIRED)
        expectReply(await fresh.call(twoFactor("status")), 200, { is_enabled: false, backup_codes: [], backup_codes_remaining: 0, method: null })
      })
    }
  }
]
