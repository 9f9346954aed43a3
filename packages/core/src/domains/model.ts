import { Schema, Struct } from "effect"
import { DomainId, OrganizationId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** The Domain resource: an organization's e-mail domain, for JIT provisioning and SSO once verified. */
export const Domain = Schema.Struct({
  id: DomainId,
  domain: Schema.String,
  is_verified: Schema.Boolean,
  verified_at: Schema.NullOr(Timestamp),
  verification_challenge: Schema.String,
  jit_provisioning_enabled: Schema.Boolean,
  sso_enforcement: Schema.String,
  has_saml: Schema.Boolean,
  saml_entity_id: Schema.NullOr(Schema.String),
  saml_acs_url: Schema.NullOr(Schema.String),
  saml_x509_cert: Schema.NullOr(Schema.String)
})
export type Domain = typeof Domain.Type

/** A domain as the domains table holds it; `is_verified` and `has_saml` are computed from it. */
export const DomainRecord = Schema.Struct({
  ...Struct.omit(Domain.fields, ["is_verified", "has_saml"]),
  organization_id: OrganizationId,
  last_verification_retry: Schema.NullOr(Timestamp),
  created_at: Timestamp
})
export type DomainRecord = typeof DomainRecord.Type

/** What a domain holds besides its name and verification state. */
export const DomainSettings = DomainRecord.mapFields(
  Struct.pick(["jit_provisioning_enabled", "sso_enforcement", "saml_entity_id", "saml_acs_url", "saml_x509_cert"])
)
export type DomainSettings = typeof DomainSettings.Type
