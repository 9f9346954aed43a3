import { SamlRejected } from "./rejected.ts"
import type { SamlAssertion } from "./response.ts"

/**
 * The attribute names PostHog reads a person's details under, first match wins, so that most identity
 * providers need no mapping: their own names, the WS-Federation claims and the LDAP OIDs.
 */
const EMAIL_ATTRIBUTES = [
  "email",
  "EMAIL",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress",
  "urn:oid:0.9.2342.19200300.100.1.3"
]
const FIRST_NAME_ATTRIBUTES = [
  "first_name",
  "FIRST_NAME",
  "firstName",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/givenname",
  "urn:oid:2.5.4.42"
]
const LAST_NAME_ATTRIBUTES = [
  "last_name",
  "LAST_NAME",
  "lastName",
  "http://schemas.xmlsoap.org/ws/2005/05/identity/claims/surname",
  "urn:oid:2.5.4.4"
]

/** NameID formats whose value is an e-mail address (or may be, for the unspecified one). */
const EMAIL_NAME_ID_FORMATS = new Set([
  "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  "urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified"
])

const firstValue = (attributes: SamlAssertion["attributes"], names: ReadonlyArray<string>): string | undefined => {
  for (const name of names) {
    const value = attributes.get(name)?.find((v) => v.trim() !== "")
    if (value !== undefined) return value.trim()
  }
  return undefined
}

/** The person an assertion names, as SSO signs them in. */
export interface SamlIdentity {
  readonly email: string
  readonly first_name: string
  readonly last_name: string
}

/**
 * Who the assertion is about: the e-mail from PostHog's attribute names, or else from the NameID when its
 * format is an e-mail address or unspecified; the names from their attributes,
 * empty when the identity provider sends none. E-mails compare in lower case, as PostHog's SSO does;
 * whether the address is usable is the sign-in's to judge.
 */
export const identityOf = (assertion: SamlAssertion): SamlIdentity | SamlRejected => {
  const nameId = assertion.name_id_format === undefined || EMAIL_NAME_ID_FORMATS.has(assertion.name_id_format)
    ? assertion.name_id
    : undefined
  const email = (firstValue(assertion.attributes, EMAIL_ATTRIBUTES) ?? nameId)?.trim().toLowerCase()
  if (email === undefined || email === "") return new SamlRejected({ detail: "Missing needed parameter email" })
  return {
    email,
    first_name: firstValue(assertion.attributes, FIRST_NAME_ATTRIBUTES) ?? "",
    last_name: firstValue(assertion.attributes, LAST_NAME_ATTRIBUTES) ?? ""
  }
}
