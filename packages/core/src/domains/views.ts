import { hasSaml } from "../sso/domain-of-email.ts"
import type { Domain, DomainRecord } from "./model.ts"

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
