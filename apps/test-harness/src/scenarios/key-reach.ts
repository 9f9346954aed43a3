import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Target } from "../targets/target.ts"
import { domainEndpoints } from "./domains.ts"
import { currentOf, foundOrganization, ORGANIZATIONS } from "./organizations.ts"
import { make } from "./personal-api-keys.ts"
import { denied, envelope, expectReply, invalid, missingScope, needWorld, type Scenario } from "./scenario.ts"
import { loggedIn, login, me, newTeammate, updateMe } from "./sessions-support.ts"

/**
 * A personal API key never becomes more than it is: only a session or a key with scope `*` and no
 * restriction may set a password (with which anyone logs in as the whole user); guesses at the current
 * password are locked out as log-ins are; a key restricted to organizations founds one without moving the
 * user's current organization there.
 */

const DESTROY_KEY = { group: "personalApiKeys", endpoint: "destroy" } as const

const NEEDS_WHOLE_USER = denied(
  "Setting a password needs a log-in session or a personal API key with scope '*' and no project or organization restrictions."
)
const NEEDS_WHOLE_USER_FOR_SSO = denied(
  "Setting up single sign-on needs a log-in session or a personal API key with scope '*' and no project or organization restrictions."
)
/** An identity provider as a domain names it: whoever holds its key logs in as any of the domain's people. */
const IDENTITY_PROVIDER = {
  saml_entity_id: "https://idp.example.net/metadata",
  saml_acs_url: "https://idp.example.net/sso",
  saml_x509_cert: "MIIC"
}
const INVALID_CREDENTIALS = invalid(null, "Invalid email or password.", "invalid_credentials")
const INCORRECT = invalid("current_password", "Your current password is incorrect.", "incorrect_password")
const LOCKED_OUT = envelope(
  "authentication_error",
  "too_many_failed_attempts",
  "Too many failed login attempts. Please try again in 10 minutes."
)

/** A key made with `by` over the API, labelled for this scenario. */
const makeKey = (target: Target, by: string, body: Record<string, unknown>) =>
  make(target, by, { label: `reach ${randomUUID().slice(0, 8)}`, ...body })

/** The caller's current organization, as `GET /api/users/@me/` tells it. */
const currentOrganization = async (target: Target, key: string) => (await currentOf(target, key)).organization

export const keyReachScenarios: ReadonlyArray<Scenario> = [
  {
    name: "keys narrower than an unrestricted `*` cannot set a password, with or without the current one; the user's `*` key sets the first",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const { passwordless } = world.members
      const password = `pw-${randomUUID()}`
      const narrower = [
        { scopes: ["user:write"] },
        { scopes: ["user:write"], scoped_teams: [world.projectA] },
        { scopes: ["*"], scoped_teams: [world.projectA] },
        { scopes: ["*"], scoped_organizations: [world.orgA] }
      ]
      const made: Array<{ id: string; value: string }> = []
      try {
        for (const reach of narrower) made.push(await makeKey(target, passwordless.key, reach))
        const readOnly = await makeKey(target, passwordless.key, { scopes: ["user:read"] })
        made.push(readOnly)
        // The reproduction: a user:write key of a user without a password sets one and logs in with it.
        for (const key of made.slice(0, narrower.length)) {
          expectReply(await target.call(updateMe, { key: key.value, body: { password } }), 403, NEEDS_WHOLE_USER)
          // The refusal comes before the body's own rules.
          expectReply(await target.call(updateMe, { key: key.value, body: { password: "" } }), 403, NEEDS_WHOLE_USER)
        }
        expectReply(await target.call(updateMe, { key: readOnly.value, body: { password } }), 403, missingScope("user:write"))
        expectReply(await target.call(login, { body: { email: passwordless.email, password } }), 400, INVALID_CREDENTIALS)
        // A narrower key still reads and writes what it may: an empty change is no password.
        expectReply(await target.call(updateMe, { key: made[0]!.value, body: {} }), 200)

        // The user's unrestricted key is already everything the user is: it may set the first password.
        const set = await target.call(updateMe, { key: passwordless.key, body: { password } })
        expectReply(set, 200)
        assert.equal(set.body.email, passwordless.email)
        await loggedIn(target, passwordless.email, password)
        // Now that there is one, a narrower key may not change it, even knowing it.
        const changed = { current_password: password, password: `new-${password}` }
        for (const key of made.slice(0, narrower.length)) {
          expectReply(await target.call(updateMe, { key: key.value, body: changed }), 403, NEEDS_WHOLE_USER)
        }
        expectReply(await target.call(login, { body: { email: passwordless.email, password: changed.password } }), 400, INVALID_CREDENTIALS)
      } finally {
        for (const key of made) await target.call(DESTROY_KEY, { key: passwordless.key, params: { id: key.id } })
      }
    }
  },
  {
    name: "35 wrong current passwords: the 31st and later are locked out for 10 minutes, the right one too, and so is log-in",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { email, password, browser } = await newTeammate(target, needWorld(context), "guesses")
      const fresh = { current_password: password, password: `new-${password}` }
      for (let i = 0; i < 30; i++) {
        expectReply(await browser.call(updateMe, { body: { current_password: `guess ${i}`, password: fresh.password } }), 400, INCORRECT)
      }
      for (let i = 30; i < 35; i++) {
        expectReply(await browser.call(updateMe, { body: { current_password: `guess ${i}`, password: fresh.password } }), 403, LOCKED_OUT)
      }
      expectReply(await browser.call(updateMe, { body: fresh }), 403, LOCKED_OUT)
      // Guesses made here count where log-in counts them: the e-mail is locked out there too.
      expectReply(await target.call(login, { body: { email, password } }), 403, LOCKED_OUT)
      // The session itself goes on working; only password checks wait.
      expectReply(await browser.call(me), 200)
    }
  },
  {
    name: "a key restricted to organizations founds one (201, owner) without moving the user's current organization; an unrestricted key moves it",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      const founded: Array<string> = []
      try {
        const first = await foundOrganization(target, founder.key)
        founded.push(first.id)
        assert.equal(await currentOrganization(target, founder.key), first.id)
        const restricted = await makeKey(target, founder.key, { scopes: ["*"], scoped_organizations: [first.id] })
        const second = await foundOrganization(target, restricted.value)
        founded.push(second.id)
        assert.equal(second.membership_level, 15)
        // Every credential of the user still works in the first: the restricted key did not move them.
        assert.equal(await currentOrganization(target, founder.key), first.id)
        assert.equal(await currentOrganization(target, restricted.value), first.id)
        const project = await target.call({ group: "projects", endpoint: "retrieve" }, { key: founder.key, params: { project_id: "@current" } })
        expectReply(project, 200)
        assert.equal(project.body.organization, first.id)
        // The new organization is the user's, outside the key's restriction.
        expectReply(
          await target.call(ORGANIZATIONS.retrieve, { key: restricted.value, params: { organization_id: second.id } }),
          403,
          denied(`API key does not have access to the requested organization: ID ${second.id}.`)
        )
        expectReply(await target.call(ORGANIZATIONS.retrieve, { key: founder.key, params: { organization_id: second.id } }), 200, second)
        // The unrestricted key's founding moves the user, as PostHog's does.
        const third = await foundOrganization(target, founder.key)
        founded.push(third.id)
        assert.equal(await currentOrganization(target, founder.key), third.id)
      } finally {
        // The restricted key goes with the organization it was restricted to.
        for (const id of founded.reverse()) await target.call(ORGANIZATIONS.destroy, { key: founder.key, params: { organization_id: id } })
      }
    }
  },
  {
    name: "keys narrower than an unrestricted `*` cannot point a domain at an identity provider or switch JIT or enforcement; the unrestricted key can",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      const organization = await foundOrganization(target, founder.key)
      try {
        const params = { organization_id: organization.id }
        const narrower = [
          await makeKey(target, founder.key, { scopes: ["organization:write"] }),
          await makeKey(target, founder.key, { scopes: ["*"], scoped_organizations: [organization.id] })
        ]
        const domain = `sso-${randomUUID().slice(0, 8)}.example.com`
        for (const key of narrower) {
          // The reproduction: a key allowed to write the organization named its own identity provider,
          // then logged in through it as the owner.
          expectReply(
            await target.call(domainEndpoints.create, { key: key.value, params, body: { domain, ...IDENTITY_PROVIDER } }),
            403,
            NEEDS_WHOLE_USER_FOR_SSO
          )
        }
        // The name alone is theirs to claim; what it lets log in is not.
        const created = await target.call(domainEndpoints.create, { key: narrower[0]!.value, params, body: { domain } })
        expectReply(created, 201)
        const id = String(created.body.id)
        for (const key of narrower) {
          for (const body of [IDENTITY_PROVIDER, { saml_x509_cert: "MIID" }, { jit_provisioning_enabled: true }, { sso_enforcement: "" }]) {
            expectReply(await target.call(domainEndpoints.update, { key: key.value, params: { ...params, id }, body }), 403, NEEDS_WHOLE_USER_FOR_SSO)
          }
        }
        const set = await target.call(domainEndpoints.update, { key: founder.key, params: { ...params, id }, body: IDENTITY_PROVIDER })
        expectReply(set, 200)
        assert.equal(set.body.has_saml, true)
      } finally {
        await target.call(ORGANIZATIONS.destroy, { key: founder.key, params: { organization_id: organization.id } })
      }
    }
  }
]
