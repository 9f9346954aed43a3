import { Schema } from "effect"
import { DomainId, OrganizationId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** A verified (or to-be-verified) e-mail domain of an organization, for JIT provisioning and SSO. */
export const DomainRecord = Schema.Struct({
  id: DomainId,
  organization_id: OrganizationId,
  domain: Schema.String,
  verification_challenge: Schema.String,
  verified_at: Schema.NullOr(Timestamp),
  last_verification_retry: Schema.NullOr(Timestamp),
  jit_provisioning_enabled: Schema.Boolean,
  sso_enforcement: Schema.String,
  saml_entity_id: Schema.NullOr(Schema.String),
  saml_acs_url: Schema.NullOr(Schema.String),
  saml_x509_cert: Schema.NullOr(Schema.String),
  created_at: Timestamp
})
export type DomainRecord = typeof DomainRecord.Type

/** The Domain resource of interface.md. */
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
