import type { ServiceProvider } from "@hedgerow/core"
import { escapeXml } from "./xml-text.ts"

/**
 * This service provider's SAML metadata, which an identity provider imports (by URL or as a file): its
 * entity id, its ACS by HTTP-POST, and that it wants its assertions signed and signs no request.
 */
export const serviceProviderMetadata = (provider: ServiceProvider): string =>
  `<?xml version="1.0" encoding="UTF-8"?>\n` +
  `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${escapeXml(provider.entity_id)}">` +
  `<md:SPSSODescriptor AuthnRequestsSigned="false" WantAssertionsSigned="true" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
  `<md:NameIDFormat>urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified</md:NameIDFormat>` +
  `<md:AssertionConsumerService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-POST" Location="${escapeXml(provider.acs_url)}" index="1"/>` +
  `</md:SPSSODescriptor>` +
  `</md:EntityDescriptor>\n`
