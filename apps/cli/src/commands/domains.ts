import type { Domain } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit } from "../output.ts"
import { dataFlag, extraData, given } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inOrganization } from "../scope.ts"

/** The SAML settings, writable on create and update alike; an empty value clears one. */
const samlFlags = {
  samlEntityId: Flag.String("saml-entity-id").pipe(Flag.withDescription("SAML IdP entity id"), Flag.optional),
  samlAcsUrl: Flag.String("saml-acs-url").pipe(Flag.withDescription("SAML IdP sign-in (ACS) URL"), Flag.optional),
  samlX509Cert: Flag.String("saml-x509-cert").pipe(Flag.withDescription("SAML IdP X.509 certificate"), Flag.optional)
}

const samlFields = (values: { [K in keyof typeof samlFlags]: Option.Option<string> }) =>
  given({ saml_entity_id: values.samlEntityId, saml_acs_url: values.samlAcsUrl, saml_x509_cert: values.samlX509Cert })

const domain = resource({
  noun: "domain",
  scope: inOrganization,
  id: Argument.String("id").pipe(Argument.withDescription("Domain id (uuid)")),
  show: (found: Domain) =>
    details(found, [
      "id", "domain", "is_verified", "verified_at", "verification_challenge", "jit_provisioning_enabled", "sso_enforcement", "has_saml"
    ])
})

const list = domain.list({
  description: "List an organization's domains, by name",
  columns: ["id", "domain", "is_verified", "jit_provisioning_enabled", "sso_enforcement", "has_saml"],
  fetch: ({ client, at }, query) => client.domains.list({ params: at, query })
})

const get = domain.get({
  description: "Show a domain, its verification state and challenge",
  fetch: ({ client, at, id }) => client.domains.retrieve({ params: { ...at, id } })
})

const create = domain.create({
  description: "Add a domain; verify it with `hedgerow domains verify` once its TXT record is published",
  input: { domain: Flag.String("domain").pipe(Flag.withDescription("The domain, e.g. example.com (unique across organizations)")) },
  flags: { ...samlFlags, data: dataFlag() },
  body: (values) => Effect.map(extraData(values.data), (extra) => ({ ...extra, ...samlFields(values), domain: values.domain })),
  schema: (core) => core.DomainCreate,
  send: ({ client, at }, payload) => client.domains.create({ params: at, payload })
})

const update = domain.update("update", {
  description: "Change a domain's name or settings (a new name must be verified again)",
  flags: {
    domain: Flag.String("domain").pipe(
      Flag.withDescription("A new name: the domain must then be verified again (JIT and SSO switch off)"),
      Flag.optional
    ),
    jit: Flag.String("jit").pipe(
      Flag.withDescription("Just-in-time provisioning: true or false (verified domains only)"),
      Flag.optional
    ),
    ssoEnforcement: Flag.String("sso-enforcement").pipe(
      Flag.withDescription("\"\" (off), google-oauth2, github, gitlab or saml (verified domains only)"),
      Flag.optional
    ),
    ...samlFlags,
    data: dataFlag()
  },
  body: (values) =>
    Effect.map(extraData(values.data), (extra) => ({
      ...extra,
      ...given({ domain: values.domain, jit_provisioning_enabled: values.jit, sso_enforcement: values.ssoEnforcement }),
      ...samlFields(values)
    })),
  schema: (core) => core.DomainUpdate,
  send: ({ client, at, id }, payload) => client.domains.update({ params: { ...at, id }, payload })
})

const remove = domain.delete({
  description: "Remove a domain",
  send: ({ client, at, id }) => client.domains.destroy({ params: { ...at, id } })
})

/** What to do about a domain that is not verified yet; the record's prefix is the server's to configure. */
const verification = (found: Domain) =>
  found.is_verified
    ? `${found.domain} is verified (since ${found.verified_at}).`
    : [
      `${found.domain} is not verified: no TXT record with its challenge was found.`,
      `Publish a TXT record at _hedgerow-challenge.${found.domain} (or the server's configured prefix) with the value`,
      `  ${found.verification_challenge}`,
      "and run this command again."
    ].join("\n")

const verify = domain.onItem("verify", {
  description: "Check the domain's DNS challenge now and show the outcome",
  run: ({ client, at, id, json }) =>
    Effect.gen(function*() {
      const params = { ...at, id }
      // The API answers 200 without a body; the outcome is read back as any client would read it.
      yield* client.domains.verify({ params })
      yield* emit(json, verification)(yield* client.domains.retrieve({ params }))
    })
})

export const domains = Command.make("domains").pipe(
  Command.withDescription("An organization's domains (JIT provisioning, SSO), through the API (--url, --key)"),
  Command.withSubcommands([list, get, create, update, remove, verify])
)
