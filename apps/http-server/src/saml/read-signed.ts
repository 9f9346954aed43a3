// Types only from core: this module runs in the signature worker too, which loads no package of Hedgerow's.
import type { SamlAssertion, SamlResponse, SubjectConfirmation } from "@hedgerow/core"
import { X509Certificate } from "node:crypto"
import { SignedXml } from "xml-crypto"
import { attributeOf, childrenNamed, descendantsNamed, parseDocument, textOf, UnreadableDocument } from "./document.ts"

const PROTOCOL = "urn:oasis:names:tc:SAML:2.0:protocol"
const ASSERTION = "urn:oasis:names:tc:SAML:2.0:assertion"
const DSIG = "http://www.w3.org/2000/09/xmldsig#"

/** Signature and digest algorithms accepted: RSA with SHA-256 or SHA-512. SHA-1 is refused. */
const SIGNATURE_ALGORITHMS = new Set([
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha256",
  "http://www.w3.org/2001/04/xmldsig-more#rsa-sha512"
])
const DIGEST_ALGORITHMS = new Set(["http://www.w3.org/2001/04/xmlenc#sha256", "http://www.w3.org/2001/04/xmlenc#sha512"])

/** IDs longer than this are no identity provider's: they are refused before they reach the store. */
const MAX_ID_LENGTH = 256

export const SIGNATURE_FAILED = "Signature validation failed. SAML Response rejected"

/** A Response refused for its form or signature, with PostHog's words or this server's for why. */
class Refused extends Error {}

/** What the browser is told of a failure: the refusal's own words; anything unforeseen is a failed signature. */
export const detailOf = (error: unknown): string =>
  error instanceof Refused || error instanceof UnreadableDocument ? error.message : SIGNATURE_FAILED

/**
 * The domain's certificate as PostHog's field holds it (base64 with or without its PEM lines and line
 * breaks) as a public key; a certificate that cannot be read refuses every log-in of the domain.
 */
const publicKeyOf = (certificate: string) => {
  const body = certificate.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")
  const lines = body.match(/.{1,64}/g) ?? []
  try {
    return new X509Certificate(`-----BEGIN CERTIFICATE-----\n${lines.join("\n")}\n-----END CERTIFICATE-----\n`).publicKey
  } catch {
    throw new Refused("The domain's SAML certificate (saml_x509_cert) cannot be read.")
  }
}

const idOf = (element: Element): string => {
  const id = attributeOf(element, "ID")
  if (id === undefined || id === "" || id.length > MAX_ID_LENGTH) throw new Refused(`<${element.localName}> has no usable ID.`)
  return id
}

/**
 * Checks the signature that is `element`'s own child against `key`, and answers the element as the
 * signature covers it, parsed again from the canonical bytes the digest was taken of: nothing of the
 * document outside those bytes is read. The signature must have one reference, to `element`'s ID.
 */
const verifiedCopy = (xml: string, element: Element, signature: Element, key: ReturnType<typeof publicKeyOf>): Element => {
  const verifier = new SignedXml({ publicCert: key, getCertFromKeyInfo: () => null })
  verifier.loadSignature(signature)
  let valid: boolean
  try {
    valid = verifier.checkSignature(xml)
  } catch {
    valid = false
  }
  if (!valid) throw new Refused(SIGNATURE_FAILED)
  const references = verifier.getReferences()
  const signed = verifier.getSignedReferences()
  if (references.length !== 1 || signed.length !== 1 || references[0]!.uri !== `#${idOf(element)}`) throw new Refused(SIGNATURE_FAILED)
  if (!SIGNATURE_ALGORITHMS.has(verifier.signatureAlgorithm ?? "") || !DIGEST_ALGORITHMS.has(references[0]!.digestAlgorithm)) {
    throw new Refused("The identity provider signs with an algorithm not accepted here: use RSA with SHA-256.")
  }
  const copy = parseDocument(signed[0]!)
  if (copy.namespaceURI !== element.namespaceURI || copy.localName !== element.localName || attributeOf(copy, "ID") !== idOf(element)) {
    throw new Refused(SIGNATURE_FAILED)
  }
  return copy
}

const optionalText = (parent: Element, namespace: string, name: string): string | undefined => {
  const found = childrenNamed(parent, namespace, name)
  if (found.length > 1) throw new Refused(`More than one <${name}>.`)
  return found.length === 0 ? undefined : textOf(found[0]!)
}

const only = (parent: Element, namespace: string, name: string): Element | undefined => {
  const found = childrenNamed(parent, namespace, name)
  if (found.length > 1) throw new Refused(`More than one <${name}>.`)
  return found[0]
}

const confirmationsOf = (subject: Element | undefined): Array<SubjectConfirmation> =>
  subject === undefined ? [] : childrenNamed(subject, ASSERTION, "SubjectConfirmation").map((confirmation) => {
    const data = only(confirmation, ASSERTION, "SubjectConfirmationData")
    return {
      method: attributeOf(confirmation, "Method") ?? "",
      recipient: data === undefined ? undefined : attributeOf(data, "Recipient"),
      in_response_to: data === undefined ? undefined : attributeOf(data, "InResponseTo"),
      not_before: data === undefined ? undefined : attributeOf(data, "NotBefore"),
      not_on_or_after: data === undefined ? undefined : attributeOf(data, "NotOnOrAfter")
    }
  })

const attributesOf = (assertion: Element): Map<string, Array<string>> => {
  const attributes = new Map<string, Array<string>>()
  for (const statement of childrenNamed(assertion, ASSERTION, "AttributeStatement")) {
    for (const attribute of childrenNamed(statement, ASSERTION, "Attribute")) {
      const name = attributeOf(attribute, "Name")
      if (name === undefined) continue
      const values = childrenNamed(attribute, ASSERTION, "AttributeValue").map(textOf)
      attributes.set(name, [...(attributes.get(name) ?? []), ...values])
    }
  }
  return attributes
}

/** The assertion's fields, read from the signed copy only. */
const assertionOf = (assertion: Element): SamlAssertion => {
  const subject = only(assertion, ASSERTION, "Subject")
  const nameId = subject === undefined ? undefined : only(subject, ASSERTION, "NameID")
  const conditions = only(assertion, ASSERTION, "Conditions")
  return {
    id: idOf(assertion),
    issuer: optionalText(assertion, ASSERTION, "Issuer"),
    name_id: nameId === undefined ? undefined : textOf(nameId),
    name_id_format: nameId === undefined ? undefined : attributeOf(nameId, "Format"),
    confirmations: confirmationsOf(subject),
    conditions: conditions === undefined ? undefined : {
      not_before: attributeOf(conditions, "NotBefore"),
      not_on_or_after: attributeOf(conditions, "NotOnOrAfter"),
      audiences: childrenNamed(conditions, ASSERTION, "AudienceRestriction").map((restriction) =>
        childrenNamed(restriction, ASSERTION, "Audience").map(textOf)
      )
    },
    attributes: attributesOf(assertion)
  }
}

const statusOf = (response: Element): string | undefined => {
  const status = only(response, PROTOCOL, "Status")
  const code = status === undefined ? undefined : only(status, PROTOCOL, "StatusCode")
  return code === undefined ? undefined : attributeOf(code, "Value")
}

/**
 * The Response, judged by its form and signature alone. Exactly one Assertion in the whole document, a
 * child of the Response; no encrypted one; no signature anywhere but as the Response's or the
 * Assertion's own child. The Assertion must be covered by a valid signature of the domain's key (its
 * own or the Response's), and every signature present must be valid. The fields come from the signed
 * copies: the Assertion's from whichever signature covers it (its own first), the Response's from the
 * Response's signature when it has one, else from the document.
 */
export const readSignedResponse = (xml: string, certificate: string): SamlResponse => {
  const response = parseDocument(xml)
  if (response.namespaceURI !== PROTOCOL || response.localName !== "Response") throw new Refused("The message is not a SAML Response.")
  if (descendantsNamed(response, ASSERTION, "EncryptedAssertion").length > 0) {
    throw new Refused("Encrypted assertions are not supported: have the identity provider sign the assertion unencrypted.")
  }
  const assertions = descendantsNamed(response, ASSERTION, "Assertion")
  const assertion = assertions.length === 1 ? only(response, ASSERTION, "Assertion") : undefined
  if (assertion === undefined) throw new Refused("The Response must hold exactly one Assertion.")
  const responseSignature = only(response, DSIG, "Signature")
  const assertionSignature = only(assertion, DSIG, "Signature")
  const placed = [responseSignature, assertionSignature].filter((signature) => signature !== undefined).length
  if (descendantsNamed(response, DSIG, "Signature").length !== placed) throw new Refused(SIGNATURE_FAILED)
  if (placed === 0) throw new Refused("The assertion of the Response is not signed.")
  const key = publicKeyOf(certificate)
  const signedResponse = responseSignature === undefined ? undefined : verifiedCopy(xml, response, responseSignature, key)
  const signedAssertion = assertionSignature === undefined
    ? only(signedResponse!, ASSERTION, "Assertion")
    : verifiedCopy(xml, assertion, assertionSignature, key)
  if (signedAssertion === undefined) throw new Refused(SIGNATURE_FAILED)
  const source = signedResponse ?? response
  return {
    id: idOf(source),
    issuer: optionalText(source, ASSERTION, "Issuer"),
    destination: attributeOf(source, "Destination"),
    in_response_to: attributeOf(source, "InResponseTo"),
    status: statusOf(source),
    assertion: assertionOf(signedAssertion)
  }
}
