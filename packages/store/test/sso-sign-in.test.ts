import { assert, layer } from "@effect/vitest"
import {
  bodyOf,
  DomainService,
  OrganizationService,
  PersonalApiKeyService,
  type SsoIdentity,
  SsoSettings,
  SsoSignIn,
  ssoEnforcementFor,
  hasSaml,
  verifiedDomainOf,
  systemActor,
  timestampFromDate,
  UserService
} from "@hedgerow/core"
import { SessionRepository, UserRepository } from "@hedgerow/core/ports"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { currentOf } from "./support.ts"

let counter = 0
/** A name no other test of this file uses. */
const unique = (prefix: string) => `${prefix}${++counter}-${Date.now()}`

/** An organization of its own with a domain, verified (as a DNS check would) with the settings given. */
const organizationWithDomain = (
  settings: Record<string, unknown>,
  options: { readonly verified?: boolean; readonly prefix?: string } = {}
) =>
  Effect.gen(function*() {
    const organization = yield* OrganizationService.use((s) => s.create(systemActor, { name: unique("SSO ") }))
    const domain = `${unique(options.prefix ?? "sso")}.example.com`
    const created = yield* DomainService.use((s) => s.create(systemActor, organization.id, bodyOf({ domain })))
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${created.id}`
    yield* DomainService.use((s) => s.update(systemActor, organization.id, created.id, bodyOf(settings)))
    // A domain whose verification lapsed keeps its settings but vouches for nobody.
    if (options.verified === false) yield* sql`UPDATE domains SET verified_at = NULL WHERE id = ${created.id}`
    return { organization: organization.id, domain }
  })

const SAML = { saml_entity_id: "https://idp.example.com", saml_acs_url: "https://idp.example.com/sso", saml_x509_cert: "MIIB" }

const identity = (email: string, provider: SsoIdentity["provider"] = "google-oauth2"): SsoIdentity => ({
  provider,
  email,
  first_name: "Ada",
  last_name: "Lovelace"
})

const signIn = (who: SsoIdentity) => SsoSignIn.use((s) => s.signIn(who, undefined))
const refusal = (who: SsoIdentity) =>
  signIn(who).pipe(Effect.flip, Effect.map((e) => [e._tag, e.code, e.detail]))

const membershipLevel = (organization: string, email: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ level: number }>`
      SELECT m.level FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.organization_id = ${organization} AND lower(u.email) = lower(${email})`
    return rows.map((r) => r.level)
  })

const NO_ACCOUNT = [
  "SsoRefused",
  "no_new_organizations",
  "Your email address is not associated with an account. Please ask your administrator for an invite."
]

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
  `SSO sign-in on ${backend.name}`,
  (it) => {
    it.effect("an unknown e-mail of no verified domain is refused: SSO founds no organization", () =>
      Effect.gen(function*() {
        assert.deepStrictEqual(yield* refusal(identity(`${unique("nobody")}@nowhere.example.com`)), NO_ACCOUNT)
        // A domain that is claimed but not verified provisions nobody.
        const { domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true }, { verified: false })
        assert.deepStrictEqual(yield* refusal(identity(`new@${domain}`)), NO_ACCOUNT)
        assert.isTrue(Option.isNone(yield* UserRepository.use((u) => u.findByEmail(`new@${domain}`))))
      }))

    it.effect("an unknown e-mail of a verified domain without JIT provisioning is refused with jit_not_enabled", () =>
      Effect.gen(function*() {
        const { domain } = yield* organizationWithDomain({ jit_provisioning_enabled: false })
        assert.deepStrictEqual(yield* refusal(identity(`new@${domain}`)), [
          "SsoRefused",
          "jit_not_enabled",
          "We could not find an account with your email address and your organization does not support automatic enrollment. Please contact your administrator for an invite."
        ])
      }))

    it.effect("JIT provisioning makes the account (no password) and a member, whose current organization it becomes", () =>
      Effect.gen(function*() {
        const { organization, domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true })
        const email = `Grace@${domain.toUpperCase()}`
        const loggedIn = yield* signIn({ ...identity(email), first_name: "Grace\0", last_name: "x".repeat(400) })
        const names = loggedIn.cookies.map((c) => c.name)
        assert.include(names, "sessionid")
        const credentials = Option.getOrThrow(yield* UserRepository.use((u) => u.findCredentials(email)))
        assert.isNull(credentials.password_hash)
        assert.strictEqual(credentials.user.first_name, "Grace")
        assert.strictEqual(credentials.user.last_name.length, 150)
        assert.isNotNull(credentials.user.last_login)
        assert.deepStrictEqual(yield* membershipLevel(organization, email), [1])
        assert.strictEqual((yield* currentOf(credentials.user.email)).current_organization_id, organization)
        // The next log-in finds the account and leaves the membership as it is.
        yield* signIn(identity(email.toLowerCase()))
        assert.deepStrictEqual(yield* membershipLevel(organization, email), [1])
      }))

    it.effect("an existing user of a JIT domain joins its organization; without JIT they log in and join nothing", () =>
      Effect.gen(function*() {
        const jit = yield* organizationWithDomain({ jit_provisioning_enabled: true })
        const email = `existing@${jit.domain}`
        yield* UserService.use((s) => s.create(systemActor, { email }))
        yield* signIn(identity(email))
        assert.deepStrictEqual(yield* membershipLevel(jit.organization, email), [1])

        const plain = yield* organizationWithDomain({})
        const other = `existing@${plain.domain}`
        yield* UserService.use((s) => s.create(systemActor, { email: other }))
        const loggedIn = yield* signIn(identity(other, "github"))
        assert.include(loggedIn.cookies.map((c) => c.name), "sessionid")
        assert.deepStrictEqual(yield* membershipLevel(plain.organization, other), [])
      }))

    it.effect("a deactivated account is refused, and its invalid e-mail or none at all is refused before any lookup", () =>
      Effect.gen(function*() {
        const { domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true })
        const email = `gone@${domain}`
        yield* UserService.use((s) => s.create(systemActor, { email }))
        const sql = yield* SqlClient.SqlClient
        yield* sql`UPDATE users SET is_active = false WHERE email = ${email}`
        assert.deepStrictEqual(yield* refusal(identity(email)), ["SsoRefused", "inactive", "This account has been deactivated."])
        for (const bad of ["", "not-an-email", `a\0b@${domain}`, `${"x".repeat(300)}@${domain}`, `a\uD800@${domain}`]) {
          assert.deepStrictEqual(yield* refusal(identity(bad)), [
            "SsoRefused",
            "no_email",
            "Your identity provider did not give a valid email address."
          ])
        }
      }))

    it.effect("a domain enforcing a usable provider admits only that one; enforcing an unusable one enforces nothing", () =>
      Effect.gen(function*() {
        const saml = yield* organizationWithDomain({ jit_provisioning_enabled: true, sso_enforcement: "saml", ...SAML })
        assert.deepStrictEqual(yield* refusal(identity(`a@${saml.domain}`, "google-oauth2")), [
          "SsoRefused",
          "saml_sso_enforced",
          "Your organization requires SAML SSO authentication. Please enter your email address to access your account."
        ])
        yield* signIn(identity(`a@${saml.domain}`, "saml"))
        assert.strictEqual(yield* ssoEnforcementFor(`someone@${saml.domain}`), "saml")
        assert.isTrue(Option.exists(yield* verifiedDomainOf(`someone@${saml.domain.toUpperCase()}`), hasSaml))

        // SAML enforced without the identity provider's fields: nobody could log in, so nothing is enforced.
        const halfSaml = yield* organizationWithDomain({ jit_provisioning_enabled: true, sso_enforcement: "saml" })
        assert.isNull(yield* ssoEnforcementFor(`someone@${halfSaml.domain}`))
        assert.isFalse(Option.exists(yield* verifiedDomainOf(`someone@${halfSaml.domain}`), hasSaml))
        yield* signIn(identity(`b@${halfSaml.domain}`, "github"))

        // GitHub enforced: void while this deployment has no GitHub client, binding once it has.
        const github = yield* organizationWithDomain({ jit_provisioning_enabled: true, sso_enforcement: "github" })
        assert.isNull(yield* ssoEnforcementFor(`c@${github.domain}`))
        yield* signIn(identity(`c@${github.domain}`, "google-oauth2"))
        const configured = { oauth: new Set(["github"] as const) }
        assert.strictEqual(yield* ssoEnforcementFor(`c@${github.domain}`).pipe(Effect.provideService(SsoSettings, configured)), "github")
        assert.deepStrictEqual(
          yield* refusal(identity(`c@${github.domain}`, "google-oauth2")).pipe(Effect.provideService(SsoSettings, configured)),
          ["SsoRefused", "github_sso_enforced", "Your organization does not allow this authentication method. Please log in with GitHub."]
        )
        yield* signIn(identity(`c@${github.domain}`, "github")).pipe(Effect.provideService(SsoSettings, configured))
        assert.isNull(yield* ssoEnforcementFor("nobody@unclaimed.example.com"))
      }))

    it.effect("an account made without proof of its address (by an invite its maker accepted) loses its password, second factor, sessions and keys to the first SSO log-in", () =>
      Effect.gen(function*() {
        const { organization, domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true })
        const email = `alice@${domain}`
        // What accepting an invite makes: an account with a password, its address unproven.
        const made = yield* UserRepository.use((u) => u.insert({ email, first_name: "Mallory", last_name: "", password_hash: "scrypt$x" }))
        assert.isFalse(made.is_email_verified)
        const sql = yield* SqlClient.SqlClient
        yield* SessionRepository.use((r) =>
          r.insert({
            user_id: made.id,
            secret_hash: `held-${made.id}`,
            expires_at: timestampFromDate(new Date(Date.now() + 86_400_000)),
            two_factor_verified: false
          }))
        yield* PersonalApiKeyService.use((k) => k.create(systemActor, { email, scopes: ["*"] }))
        yield* signIn(identity(email, "saml"))
        const credentials = Option.getOrThrow(yield* UserRepository.use((u) => u.findCredentials(email)))
        assert.isNull(credentials.password_hash)
        assert.isTrue(credentials.user.is_email_verified)
        assert.strictEqual(credentials.user.id, made.id)
        const keys = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${made.id}`
        assert.strictEqual(keys[0]!.n, 0)
        const held = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM sessions WHERE secret_hash = ${"held-" + made.id}`
        assert.strictEqual(held[0]!.n, 0)
        assert.deepStrictEqual(yield* membershipLevel(organization, email), [1])

        // Proven now: the next SSO log-in leaves what the owner sets up alone.
        yield* PersonalApiKeyService.use((k) => k.create(systemActor, { email, scopes: ["*"] }))
        yield* signIn(identity(email, "saml"))
        const after = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM personal_api_keys WHERE user_id = ${made.id}`
        assert.strictEqual(after[0]!.n, 1)
      }))

    it.effect("accounts the operator or JIT provisioning makes count as proven: an SSO log-in keeps their keys", () =>
      Effect.gen(function*() {
        const { domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true })
        const operators = yield* UserService.use((s) => s.create(systemActor, { email: `op@${domain}` }))
        assert.isTrue(operators.is_email_verified)
        yield* signIn(identity(`jit@${domain}`))
        const jit = Option.getOrThrow(yield* UserRepository.use((u) => u.findByEmail(`jit@${domain}`)))
        assert.isTrue(jit.is_email_verified)
      }))

    it.effect("an address the store folds onto another's (İ for i) never reaches that account, by sign-in or by JIT", () =>
      Effect.gen(function*() {
        const { domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true, sso_enforcement: "saml", ...SAML }, { prefix: "digital" })
        const email = `bob@${domain}`
        const bob = yield* UserService.use((s) => s.create(systemActor, { email }))
        // The store's lower() folds İ to i; JavaScript's keeps a dot above it.
        const folded = `bob@${domain.replace("i", "\u0130")}`
        assert.notStrictEqual(folded.toLowerCase(), email)
        // Enforcement and precheck see the domain the store sees.
        assert.strictEqual(yield* ssoEnforcementFor(folded), "saml")
        assert.deepStrictEqual((yield* refusal(identity(folded, "saml")))[1], "no_email")
        const kept = Option.getOrThrow(yield* UserRepository.use((u) => u.findCredentials(email)))
        assert.strictEqual(kept.user.id, bob.id)
      }))

    it.effect("two first log-ins of one new person at once make one account and one membership", () =>
      Effect.gen(function*() {
        const { organization, domain } = yield* organizationWithDomain({ jit_provisioning_enabled: true })
        const email = `twice@${domain}`
        const both = yield* Effect.all([signIn(identity(email)), signIn(identity(email.toUpperCase()))], { concurrency: 2 })
        assert.strictEqual(both.length, 2)
        assert.deepStrictEqual(yield* membershipLevel(organization, email), [1])
        const sql = yield* SqlClient.SqlClient
        const count = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM users WHERE lower(email) = lower(${email})`
        assert.strictEqual(count[0]!.n, 1)
      }))
  }
))
