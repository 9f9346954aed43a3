import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Target } from "../targets/target.ts"
import { expectReply, invalid, pathOf, type Scenario } from "./scenario.ts"

export const domainEndpoints = {
  list: { group: "domains", endpoint: "list" },
  create: { group: "domains", endpoint: "create" },
  retrieve: { group: "domains", endpoint: "retrieve" },
  update: { group: "domains", endpoint: "update" },
  destroy: { group: "domains", endpoint: "destroy" },
  verify: { group: "domains", endpoint: "verify" }
} as const
const { create, destroy, list, retrieve, update, verify } = domainEndpoints

/**
 * A name no other run has taken: domains are unique across every organization, and a target keeps
 * them for as long as it lives (a deployment, forever).
 */
export const freshDomain = (label: string) => `${label}-${randomUUID().slice(0, 8)}.hedgerow-conformance.example`

/** Creates a domain and returns its body, failing the scenario unless it answers 201. */
export const createDomain = async (target: Target, key: string, organization: string, body: object = {}) => {
  const reply = await target.call(create, { key, params: { organization_id: organization }, body: { domain: freshDomain("d"), ...body } })
  expectReply(reply, 201)
  return reply.body as { id: string; domain: string } & Record<string, unknown>
}

const DOMAIN_FIELDS = [
  "domain", "has_saml", "id", "is_verified", "jit_provisioning_enabled", "saml_acs_url", "saml_entity_id", "saml_x509_cert",
  "sso_enforcement", "verification_challenge", "verified_at"
]

/** A create body with a fresh, valid name, for rules about the other fields. */
const withName = (fields: object) => () => ({ domain: freshDomain("rule"), ...fields })

/** One rule per row: the create body and the exact error PostHog answers it with. */
const createCases: ReadonlyArray<readonly [string, unknown, ReturnType<typeof invalid>]> = [
  ["no domain", {}, invalid("domain", "This field is required.", "required")],
  ["a null domain", { domain: null }, invalid("domain", "This field may not be null.", "null")],
  ["a blank domain", { domain: "" }, invalid("domain", "This field may not be blank.", "blank")],
  ["a domain of spaces only", { domain: "   " }, invalid("domain", "This field may not be blank.", "blank")],
  ["a domain that is not text", { domain: 5 }, invalid("domain", "Not a valid string.")],
  ["an upper-case domain", { domain: "Example.com" }, invalid("domain", "Please enter a valid domain or subdomain name.")],
  ["an e-mail address", { domain: "someone@example.com" }, invalid("domain", "Please enter a valid domain or subdomain name.")],
  ["a one-letter top-level label", { domain: "one.two.c" }, invalid("domain", "Please enter a valid domain or subdomain name.")],
  ["a label starting with hyphens", { domain: "--alpha.com" }, invalid("domain", "Please enter a valid domain or subdomain name.")],
  ["an emoji", { domain: "🦔.com" }, invalid("domain", "Please enter a valid domain or subdomain name.")],
  ["a name without a dot", { domain: "localhost" }, invalid("domain", "Please enter a valid domain or subdomain name.")],
  ["a domain of 129 characters", { domain: `${"a".repeat(125)}.com` }, invalid("domain", "Ensure this field has no more than 128 characters.", "max_length")],
  ["a NUL character in the domain", { domain: "exa\u0000mple.com" }, invalid("domain", "Null characters are not allowed.", "null_characters_not_allowed")],
  ["a list instead of an object", [{ domain: "example.com" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")],
  ["an unknown SSO provider", withName({ sso_enforcement: "okta" }), invalid("sso_enforcement", "\"okta\" is not a valid choice.", "invalid_choice")],
  ["a JIT switch that is no boolean", withName({ jit_provisioning_enabled: "maybe" }), invalid("jit_provisioning_enabled", "Must be a valid boolean.")],
  ["a SAML entity id of 513 characters", withName({ saml_entity_id: "e".repeat(513) }), invalid("saml_entity_id", "Ensure this field has no more than 512 characters.", "max_length")],
  ["a SAML ACS URL of 513 characters", withName({ saml_acs_url: "u".repeat(513) }), invalid("saml_acs_url", "Ensure this field has no more than 512 characters.", "max_length")],
  ["a SAML certificate that is not text", withName({ saml_x509_cert: 5 }), invalid("saml_x509_cert", "Not a valid string.")],
  ["a NUL character in the SAML certificate", withName({ saml_x509_cert: "a\u0000b" }), invalid("saml_x509_cert", "Null characters are not allowed.", "null_characters_not_allowed")]
]

const VERIFICATION_REQUIRED = "This attribute cannot be updated until the domain is verified."

export const domainScenarios: ReadonlyArray<Scenario> = [
  {
    name: "domain create answers 201 with an unverified domain and a 43-character challenge; retrieve and delete follow",
    run: async ({ target, primary }) => {
      const org = { organization_id: primary.organization }
      const name = freshDomain("lifecycle")
      const reply = await target.call(create, { key: primary.key, params: org, body: { domain: name } })
      expectReply(reply, 201)
      const d = reply.body
      assert.deepEqual(Object.keys(d).sort(), DOMAIN_FIELDS)
      assert.match(d.id, /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
      assert.deepEqual(
        [d.domain, d.is_verified, d.verified_at, d.jit_provisioning_enabled, d.sso_enforcement, d.has_saml],
        [name, false, null, false, "", false]
      )
      assert.deepEqual([d.saml_entity_id, d.saml_acs_url, d.saml_x509_cert], [null, null, null])
      assert.match(d.verification_challenge, /^[A-Za-z0-9_-]{43}$/)
      expectReply(await target.call(retrieve, { key: primary.key, params: { ...org, id: d.id } }), 200, d)
      expectReply(await target.call(destroy, { key: primary.key, params: { ...org, id: d.id } }), 204, null)
      expectReply(await target.call(retrieve, { key: primary.key, params: { ...org, id: d.id } }), 404)
      expectReply(await target.call(destroy, { key: primary.key, params: { ...org, id: d.id } }), 404)
    }
  },
  {
    name: "domain create ignores JIT and SSO enforcement, keeps SAML settings, trims the name and drops read-only fields",
    run: async ({ target, primary }) => {
      const name = freshDomain("settings")
      const reply = await target.call(create, {
        key: primary.key,
        params: { organization_id: primary.organization },
        body: {
          domain: `  ${name} `,
          jit_provisioning_enabled: true,
          sso_enforcement: "google-oauth2",
          saml_entity_id: "https://idp.example/entity",
          saml_acs_url: "https://idp.example/acs",
          saml_x509_cert: "MIIC...",
          is_verified: true,
          verified_at: "2020-01-01T00:00:00Z",
          verification_challenge: "chosen",
          id: "00000000-0000-4000-8000-000000000000",
          no_such_field: 1
        }
      })
      expectReply(reply, 201)
      const d = reply.body
      assert.equal(d.domain, name)
      assert.deepEqual([d.jit_provisioning_enabled, d.sso_enforcement, d.has_saml, d.is_verified], [false, "", true, false])
      assert.notEqual(d.verification_challenge, "chosen")
      assert.notEqual(d.id, "00000000-0000-4000-8000-000000000000")
      assert.equal(d.saml_acs_url, "https://idp.example/acs")
    }
  },
  ...createCases.map(([label, body, error]): Scenario => ({
    name: `domain create refuses ${label} with 400 and the exact message`,
    run: async ({ target, primary }) => {
      const payload = typeof body === "function" ? body() : body
      expectReply(await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: payload }), 400, error)
    }
  })),
  {
    name: "a domain is unique across organizations, and its uniqueness is reported before later fields",
    needs: ["world"],
    run: async ({ target, world }) => {
      const w = world!
      const taken = await createDomain(target, w.keys.ownerA, w.orgA)
      const unique = invalid("domain", "domain with this domain already exists.", "unique")
      for (const [key, organization_id] of [[w.keys.ownerA, w.orgA], [w.keys.ownerB, w.orgB]] as const) {
        expectReply(await target.call(create, { key, params: { organization_id }, body: { domain: taken.domain } }), 400, unique)
      }
      const both = await target.call(create, { key: w.keys.ownerB, params: { organization_id: w.orgB }, body: { domain: taken.domain, sso_enforcement: "okta" } })
      expectReply(both, 400, unique)
    }
  },
  {
    name: "concurrent creates of one domain give one 201 and 400 unique for the rest, never a 500",
    run: async ({ target, primary }) => {
      const domain = freshDomain("race")
      const replies = await Promise.all(Array.from({ length: 6 }, () =>
        target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { domain } })))
      assert.deepEqual(replies.map((r) => r.status).sort(), [201, 400, 400, 400, 400, 400])
      for (const reply of replies.filter((r) => r.status === 400)) {
        expectReply(reply, 400, invalid("domain", "domain with this domain already exists.", "unique"))
      }
    }
  },
  {
    name: "domain list is ordered by name and paginated DRF-style",
    run: async ({ target, primary }) => {
      const org = { organization_id: primary.organization }
      for (const label of ["zz", "aa", "mm"]) await createDomain(target, primary.key, primary.organization, { domain: freshDomain(label) })
      const all = await target.call(list, { key: primary.key, params: org, query: { limit: 1000 } })
      expectReply(all, 200)
      assert.ok(all.body.count >= 3)
      const names = all.body.results.map((d: { domain: string }) => d.domain)
      assert.deepEqual(names, [...names].sort())
      assert.deepEqual(Object.keys(all.body.results[0]).sort(), DOMAIN_FIELDS)
      const second = await target.call(list, { key: primary.key, params: org, query: { limit: 1, offset: 1 } })
      expectReply(second, 200)
      assert.equal(second.body.results[0].domain, names[1])
      const path = `/api/organizations/${primary.organization}/domains/`
      assert.equal(pathOf(second.body.previous), `${path}?limit=1`)
      assert.equal(pathOf(second.body.next), all.body.count > 2 ? `${path}?limit=1&offset=2` : null)
    }
  },
  {
    name: "PATCH changes SAML settings and has_saml follows",
    run: async ({ target, primary }) => {
      const d = await createDomain(target, primary.key, primary.organization, { saml_entity_id: "entity", saml_acs_url: "https://acs" })
      assert.equal(d.has_saml, false)
      const params = { organization_id: primary.organization, id: d.id }
      const patched = await target.call(update, { key: primary.key, params, body: { saml_x509_cert: "CERT", domain: d.domain } })
      expectReply(patched, 200, { ...d, saml_x509_cert: "CERT", has_saml: true })
      const cleared = await target.call(update, { key: primary.key, params, body: { saml_acs_url: "" } })
      expectReply(cleared, 200, { ...d, saml_x509_cert: "CERT", saml_acs_url: "", has_saml: false })
      expectReply(await target.call(update, { key: primary.key, params, body: {} }), 200, cleared.body)
      expectReply(await target.call(retrieve, { key: primary.key, params }), 200, cleared.body)
    }
  },
  {
    name: "PATCH renames a domain (`domain` is writable on update): new challenge, unverified; taken and invalid names are refused",
    run: async ({ target, primary }) => {
      const d = await createDomain(target, primary.key, primary.organization, { saml_entity_id: "entity" })
      const other = await createDomain(target, primary.key, primary.organization)
      const params = { organization_id: primary.organization, id: d.id }
      const name = freshDomain("renamed")
      const renamed = await target.call(update, { key: primary.key, params, body: { domain: name } })
      expectReply(renamed, 200)
      assert.equal(renamed.body.domain, name)
      assert.notEqual(renamed.body.verification_challenge, d.verification_challenge, "a new name needs a new proof")
      assert.deepEqual({ ...renamed.body, domain: d.domain, verification_challenge: d.verification_challenge }, d)
      expectReply(await target.call(retrieve, { key: primary.key, params }), 200, renamed.body)
      const taken = invalid("domain", "domain with this domain already exists.", "unique")
      expectReply(await target.call(update, { key: primary.key, params, body: { domain: other.domain, saml_entity_id: "x" } }), 400, taken)
      expectReply(
        await target.call(update, { key: primary.key, params, body: { domain: "Not A Domain" } }),
        400,
        invalid("domain", "Please enter a valid domain or subdomain name.")
      )
      // A rename that also switches on JIT provisioning meets an unverified domain, and nothing is written.
      expectReply(
        await target.call(update, { key: primary.key, params, body: { domain: freshDomain("again"), jit_provisioning_enabled: true } }),
        400,
        invalid("jit_provisioning_enabled", VERIFICATION_REQUIRED, "verification_required")
      )
      expectReply(await target.call(retrieve, { key: primary.key, params }), 200, renamed.body)
    }
  },
  {
    name: "PATCH of JIT provisioning or SSO enforcement on an unverified domain is 400 verification_required",
    run: async ({ target, primary }) => {
      const d = await createDomain(target, primary.key, primary.organization)
      const params = { organization_id: primary.organization, id: d.id }
      const cases: ReadonlyArray<readonly [object, ReturnType<typeof invalid>]> = [
        [{ jit_provisioning_enabled: true }, invalid("jit_provisioning_enabled", VERIFICATION_REQUIRED, "verification_required")],
        [{ jit_provisioning_enabled: false }, invalid("jit_provisioning_enabled", VERIFICATION_REQUIRED, "verification_required")],
        [{ sso_enforcement: "saml" }, invalid("sso_enforcement", VERIFICATION_REQUIRED, "verification_required")],
        [{ sso_enforcement: "", jit_provisioning_enabled: true }, invalid("jit_provisioning_enabled", VERIFICATION_REQUIRED, "verification_required")],
        // Each field's own rules come before the rules across fields.
        [{ sso_enforcement: "okta" }, invalid("sso_enforcement", "\"okta\" is not a valid choice.", "invalid_choice")],
        [{ saml_entity_id: "x".repeat(513), jit_provisioning_enabled: true }, invalid("saml_entity_id", "Ensure this field has no more than 512 characters.", "max_length")],
        [[], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
      ]
      for (const [body, error] of cases) {
        expectReply(await target.call(update, { key: primary.key, params, body }), 400, error)
      }
      // Nothing was half-written: a refused PATCH that also carried SAML settings left them alone.
      expectReply(await target.call(update, { key: primary.key, params, body: { saml_entity_id: "kept?", sso_enforcement: "github" } }), 400)
      expectReply(await target.call(retrieve, { key: primary.key, params }), 200, d)
    }
  },
  {
    name: "verify of an unverified domain answers 200 with an empty body and a failed lookup leaves it unverified",
    run: async ({ target, primary }) => {
      const d = await createDomain(target, primary.key, primary.organization)
      const params = { organization_id: primary.organization, id: d.id }
      expectReply(await target.call(verify, { key: primary.key, params }), 200, null)
      expectReply(await target.call(verify, { key: primary.key, params, body: { domain: "ignored.example", whatever: [1] } }), 200, null)
      const after = await target.call(retrieve, { key: primary.key, params })
      expectReply(after, 200, d)
    }
  }
]
