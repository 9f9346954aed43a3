import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import { verifiedDomain } from "./domain-verification.ts"
import { domainEndpoints } from "./domains.ts"
import { expectReply, invalid, needNetwork, needWorld, type Scenario } from "./scenario.ts"
import { accept, Browser, createInvite, freshEmail, login, newTeammate, updateMe } from "./sessions-support.ts"

/**
 * PostHog's log-in precheck, and the password refusals for e-mails whose verified domain enforces single
 * sign-on. SAML enforcement needs nothing of the deployment but the domain's identity provider; an OAuth
 * provider the deployment has no client for enforces nothing.
 */

const precheck = { group: "loginPrecheck", endpoint: "precheck" } as const
const NOTHING = { sso_enforcement: null, saml_available: false }
const SAML = { saml_entity_id: "https://idp.example.com/metadata", saml_acs_url: "https://idp.example.com/sso", saml_x509_cert: "MIIC" }
const SSO_LOGIN = invalid(null, "You can only login with SSO for this account (saml).", "sso_enforced")
const SSO_CHANGE = invalid(null, "Password change is disabled because SSO login is enforced for this domain.", "sso_enforced")
const SSO_SIGNUP = invalid(
  null,
  "Sign up with a password is disabled because SSO login is enforced for this domain. Please log in with your SSO credentials.",
  "sso_enforced"
)

export const ssoEnforcementScenarios: ReadonlyArray<Scenario> = [
  {
    name: "login precheck: an e-mail of no verified domain answers no enforcement and no SAML; a bad e-mail is PostHog's 400",
    run: async ({ target }) => {
      for (const email of [freshEmail("precheck"), `someone@${randomUUID().slice(0, 8)}.example.org`, "  padded@example.com  "]) {
        expectReply(await target.call(precheck, { body: { email } }), 200, NOTHING)
      }
      expectReply(await target.call(precheck, { body: {} }), 400, invalid("email", "This field is required.", "required"))
      expectReply(await target.call(precheck, { body: { email: null } }), 400, invalid("email", "This field may not be null.", "null"))
      expectReply(await target.call(precheck, { body: { email: "  " } }), 400, invalid("email", "This field may not be blank.", "blank"))
      expectReply(await target.call(precheck, { body: { email: "nobody" } }), 400, invalid("email", "Enter a valid email address."))
      expectReply(await target.call(precheck, { body: { email: 5 } }), 400, invalid("email", "Not a valid string."))
      expectReply(
        await target.call(precheck, { body: { email: `${"a".repeat(250)}@example.com` } }),
        400,
        invalid("email", "Ensure this field has no more than 254 characters.", "max_length")
      )
    }
  },
  {
    name: "a verified domain that enforces SAML: precheck says so for anyone's e-mail there; log-in, password change and password sign-up are refused",
    needs: ["world", "network"],
    run: async (context) => {
      const { target, primary } = context
      const world = needWorld(context)
      const domain = await verifiedDomain(target, primary, needNetwork(context))
      const params = { organization_id: primary.organization, id: domain.id }
      const setDomain = async (body: object) =>
        expectReply(await target.call(domainEndpoints.update, { key: primary.key, params, body }), 200)
      try {
        // Someone of the domain joins with a password before the domain enforces anything.
        const member = await newTeammate(target, world, "sso", 1, domain.domain)
        const stranger = `nobody-${randomUUID().slice(0, 8)}@${domain.domain}`
        const invited = await target.call(createInvite, {
          key: world.keys.ownerA,
          params: { organization_id: world.orgA },
          body: { target_email: `late-${randomUUID().slice(0, 8)}@${domain.domain.toUpperCase()}`, send_email: false }
        })
        expectReply(invited, 201)

        // Enforcement of a provider with no client here, or SAML without an identity provider, enforces nothing.
        await setDomain({ sso_enforcement: "google-oauth2" })
        expectReply(await target.call(precheck, { body: { email: member.email } }), 200, NOTHING)
        await setDomain({ sso_enforcement: "saml" })
        expectReply(await target.call(precheck, { body: { email: member.email } }), 200, NOTHING)
        expectReply(await target.call(login, { body: { email: member.email, password: member.password } }), 200, { success: true })

        await setDomain(SAML)
        const enforced = { sso_enforcement: "saml", saml_available: true }
        // The answer is the domain's, alike for a user, a stranger and any case of the address.
        for (const email of [member.email, stranger, member.email.toUpperCase()]) {
          expectReply(await target.call(precheck, { body: { email } }), 200, enforced)
        }
        // Log-in is refused before any password is checked: right, wrong or unknown alike.
        for (const body of [
          { email: member.email, password: member.password },
          { email: member.email, password: "not the password" },
          { email: stranger, password: "not the password" }
        ]) {
          const reply = await target.call(login, { body })
          expectReply(reply, 400, SSO_LOGIN)
          assert.deepEqual(reply.setCookies ?? [], [])
        }
        // The session made before enforcement cannot set a password, even with the right current one.
        expectReply(
          await member.browser.call(updateMe, { body: { current_password: member.password, password: `new-${member.password}` } }),
          400,
          SSO_CHANGE
        )
        // A new user of the domain cannot sign up with a password.
        expectReply(
          await new Browser(target).call(accept, { params: { invite_id: invited.body.id }, body: { first_name: "Late", password: "a long enough secret" } }),
          400,
          SSO_SIGNUP
        )

        // SAML set up but not enforced: available, and passwords work again.
        await setDomain({ sso_enforcement: "" })
        expectReply(await target.call(precheck, { body: { email: member.email } }), 200, { sso_enforcement: null, saml_available: true })
        expectReply(await target.call(login, { body: { email: member.email, password: member.password } }), 200, { success: true })
      } finally {
        await target.call(domainEndpoints.destroy, { key: primary.key, params })
      }
    }
  }
]
