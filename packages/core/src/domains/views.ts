import type { Domain, DomainRecord } from "./model.ts"

/** SAML is set up when all three of its settings are non-empty, as PostHog's `has_saml` says. */
const hasSaml = (record: DomainRecord) =>
  Boolean(record.saml_entity_id) && Boolean(record.saml_acs_url) && Boolean(record.saml_x509_cert)

export const toDomain = (record: DomainRecord): Domain => ({
  id: record.id,
  domain: record.domain,
  is_verified: record.verified_at !== null,
  verified_at: record.verified_at,
  verification_challenge: record.verification_challenge,
  jit_provisioning_enabled: record.jit_provisioning_enabled,
  sso_enforcement: record.sso_enforcement,
  has_saml: hasSaml(record),
  saml_entity_id: record.saml_entity_id,
  saml_acs_url: record.saml_acs_url,
  saml_x509_cert: record.saml_x509_cert
})
