import type { AuthnRequest } from "@hedgerow/core"
import { deflateRawSync } from "node:zlib"
import { escapeXml } from "./xml-text.ts"

/**
 * The AuthnRequest as XML: answered by HTTP-POST at this service provider's ACS, with no NameID format
 * asked for, so the identity provider sends the one it is set up with.
 */
export const authnRequestXml = (request: AuthnRequest): string =>
  `<samlp:AuthnRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"` +
  ` ID="${escapeXml(request.id)}" Version="2.0" IssueInstant="${escapeXml(request.issue_instant)}"` +
  ` Destination="${escapeXml(request.destination)}"` +
  ` ProtocolBinding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST"` +
  ` AssertionConsumerServiceURL="${escapeXml(request.service_provider.acs_url)}">` +
  `<saml:Issuer>${escapeXml(request.service_provider.entity_id)}</saml:Issuer>` +
  `<samlp:NameIDPolicy Format="urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified" AllowCreate="true"/>` +
  `</samlp:AuthnRequest>`

/**
 * Where the browser goes with it, by SAML's HTTP-Redirect binding: the request deflated, in base64, as
 * `SAMLRequest` on the identity provider's URL (beside any query that URL already has), and RelayState.
 */
export const redirectUrl = (request: AuthnRequest): string => {
  const url = new URL(request.destination)
  url.searchParams.append("SAMLRequest", deflateRawSync(authnRequestXml(request)).toString("base64"))
  url.searchParams.append("RelayState", request.relay_state)
  return url.toString()
}
