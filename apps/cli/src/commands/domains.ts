import type { Domain } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit, jsonFlag } from "../output.ts"
import { listCommand, pageFlags } from "../paging.ts"
import { checkPayload, currentOrgFlag, remoteFlags, withApi } from "../remote.ts"
import { dataFlag, extraData, given } from "../request-body.ts"

const idArgument = Argument.String("id").pipe(Argument.withDescription("Domain id (uuid)"))
/** The SAML settings, writable on create and update alike; an empty value clears one. */
const samlFlags = {
  samlEntityId: Flag.String("saml-entity-id").pipe(Flag.withDescription("SAML IdP entity id"), Flag.optional),
  samlAcsUrl: Flag.String("saml-acs-url").pipe(Flag.withDescription("SAML IdP sign-in (ACS) URL"), Flag.optional),
  samlX509Cert: Flag.String("saml-x509-cert").pipe(Flag.withDescription("SAML IdP X.509 certificate"), Flag.optional)
}

const samlFields = (options: { [K in keyof typeof samlFlags]: Option.Option<string> }) =>
  given({ saml_entity_id: options.samlEntityId, saml_acs_url: options.samlAcsUrl, saml_x509_cert: options.samlX509Cert })


const summary = (domain: Domain) =>
  details(domain, [
    "id", "domain", "is_verified", "verified_at", "verification_challenge", "jit_provisioning_enabled", "sso_enforcement", "has_saml"
  ])

const list = Command.make(
  "list",
  { ...remoteFlags, org: currentOrgFlag, ...pageFlags, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      listCommand(
        options,
        ["id", "domain", "is_verified", "jit_provisioning_enabled", "sso_enforcement", "has_saml"],
        (query) => client.domains.list({ params: { organization_id: options.org }, query })
      ))
).pipe(Command.withDescription("List an organization's domains, by name"))

const get = Command.make(
  "get",
  { ...remoteFlags, id: idArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.domains.retrieve({ params: { organization_id: options.org, id: options.id } }).pipe(
        Effect.flatMap(emit(options.json, summary))
      ))
).pipe(Command.withDescription("Show a domain, its verification state and challenge"))

const create = Command.make(
  "create",
  {
    ...remoteFlags,
    domain: Flag.String("domain").pipe(Flag.withDescription("The domain, e.g. example.com (unique across organizations)")),
    org: currentOrgFlag,
    ...samlFlags,
    data: dataFlag(),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const body = { ...(yield* extraData(options.data)), ...samlFields(options), domain: options.domain }
        const payload = yield* checkPayload((core) => core.DomainCreate, body)
        const domain = yield* client.domains.create({ params: { organization_id: options.org }, payload })
        yield* emit(options.json, summary)(domain)
      }))
).pipe(Command.withDescription("Add a domain; verify it with `hedgerow domains verify` once its TXT record is published"))

const update = Command.make(
  "update",
  {
    ...remoteFlags,
    id: idArgument,
    org: currentOrgFlag,
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
    data: dataFlag(),
    json: jsonFlag
  },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const body = {
          ...(yield* extraData(options.data)),
          ...given({ domain: options.domain, jit_provisioning_enabled: options.jit, sso_enforcement: options.ssoEnforcement }),
          ...samlFields(options)
        }
        const payload = yield* checkPayload((core) => core.DomainUpdate, body)
        const domain = yield* client.domains.update({ params: { organization_id: options.org, id: options.id }, payload })
        yield* emit(options.json, summary)(domain)
      }))
).pipe(Command.withDescription("Change a domain's name or settings (a new name must be verified again)"))

const remove = Command.make(
  "delete",
  { ...remoteFlags, id: idArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      client.domains.destroy({ params: { organization_id: options.org, id: options.id } }).pipe(
        Effect.andThen(emit(options.json, () => `Deleted domain ${options.id}.`)({ id: options.id, deleted: true }))
      ))
).pipe(Command.withDescription("Remove a domain"))

/** What to do about a domain that is not verified yet; the record's prefix is the server's to configure. */
const verification = (domain: Domain) =>
  domain.is_verified
    ? `${domain.domain} is verified (since ${domain.verified_at}).`
    : [
      `${domain.domain} is not verified: no TXT record with its challenge was found.`,
      `Publish a TXT record at _hedgerow-challenge.${domain.domain} (or the server's configured prefix) with the value`,
      `  ${domain.verification_challenge}`,
      "and run this command again."
    ].join("\n")

const verify = Command.make(
  "verify",
  { ...remoteFlags, id: idArgument, org: currentOrgFlag, json: jsonFlag },
  (options) =>
    withApi(options, (client) =>
      Effect.gen(function*() {
        const params = { organization_id: options.org, id: options.id }
        // The API answers 200 without a body; the outcome is read back like any client would.
        yield* client.domains.verify({ params })
        const domain = yield* client.domains.retrieve({ params })
        yield* emit(options.json, verification)(domain)
      }))
).pipe(Command.withDescription("Check the domain's DNS challenge now and show the outcome"))

export const domains = Command.make("domains").pipe(
  Command.withDescription("An organization's domains (JIT provisioning, SSO), through the API (--url, --key)"),
  Command.withSubcommands([list, get, create, update, remove, verify])
)
