import { Schema } from "effect"
import { Bool, Choice, maxLength, notBlank, rule, Text, Trimmed } from "../shared/fields.ts"
import { holdsNul } from "../shared/text.ts"
import { SSO_PROVIDERS } from "../sso/providers.ts"

/** A domain as PostHog accepts one: lower-case labels with inner hyphens, a top-level label of two letters or more. */
const DOMAIN_PATTERN = /^([a-z0-9]+(-[a-z0-9]+)*\.)+[a-z]{2,}$/

/** Values of `sso_enforcement`: off, or the provider every login from the domain must use. */
export const SSO_ENFORCEMENTS = ["", ...SSO_PROVIDERS] as const

/**
 * A domain's name, checked in PostHog's order: whitespace trimmed, then blank, the length and NUL, and
 * only then the name's form.
 */
const DomainName = Trimmed.check(
  notBlank,
  maxLength(128),
  rule<string>("null_characters_not_allowed", (s) => (holdsNul(s) ? "Null characters are not allowed." : undefined)),
  rule<string>("invalid_input", (s) => (DOMAIN_PATTERN.test(s) ? undefined : "Please enter a valid domain or subdomain name."))
)

/** The settings a domain carries besides its name; every one writable on PATCH. */
const settingsInput = {
  jit_provisioning_enabled: Schema.optionalKey(Bool),
  sso_enforcement: Schema.optionalKey(Choice(SSO_ENFORCEMENTS)),
  saml_entity_id: Schema.optionalKey(Schema.NullOr(Text({ max: 512, allowBlank: true }))),
  saml_acs_url: Schema.optionalKey(Schema.NullOr(Text({ max: 512, allowBlank: true }))),
  saml_x509_cert: Schema.optionalKey(Schema.NullOr(Text({ allowBlank: true })))
}

/**
 * The name of a new domain, decoded alone: PostHog reports the first failing field in its order, and
 * `domain` (uniqueness included) comes before every setting.
 */
export const DomainNameInput = Schema.Struct({ domain: DomainName })

/** The settings of a POST or PATCH body, decoded after the name. */
export const DomainSettingsInput = Schema.Struct(settingsInput)
export type DomainSettingsInput = typeof DomainSettingsInput.Type

/** Body of POST `.../domains/`, as the contract documents it. */
export const DomainCreate = Schema.Struct({ domain: DomainName, ...settingsInput })
export type DomainCreate = typeof DomainCreate.Type

/** The name in a PATCH body, decoded before the settings like on create; absent keeps the name. */
export const DomainRenameInput = Schema.Struct({ domain: Schema.optionalKey(DomainName) })

/** Body of PATCH `.../domains/{id}/`: the API lists `domain` as writable on update too. */
export const DomainUpdate = Schema.Struct({ domain: Schema.optionalKey(DomainName), ...settingsInput })
export type DomainUpdate = typeof DomainUpdate.Type

/** Settings that only a verified domain may change, in the order PostHog checks them. */
export const VERIFIED_ONLY = ["jit_provisioning_enabled", "sso_enforcement"] as const
