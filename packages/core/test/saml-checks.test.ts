import { describe, expect, it } from "vitest"
import {
  CLOCK_SKEW_MS,
  checkResponse,
  type DomainId,
  identityOf,
  instantOf,
  readRelayState,
  relayStateOf,
  safeNextPath,
  type SamlAssertion,
  SamlRejected,
  type SamlResponse
} from "../src/index.ts"

const HOUR = 60 * 60_000
const NOW = Date.parse("2026-03-01T12:00:00Z")
const at = (offsetMs: number) => new Date(NOW + offsetMs).toISOString()
const SP = { entity_id: "https://hedgerow.example", acs_url: "https://hedgerow.example/complete/saml/" }
const EXPECTED = { issuer: "https://idp.example", serviceProvider: SP, now: NOW }

const assertion = (changes: Partial<SamlAssertion> = {}): SamlAssertion => ({
  id: "_assertion",
  issuer: "https://idp.example",
  name_id: "ada@acme.example",
  name_id_format: "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress",
  confirmations: [{
    method: "urn:oasis:names:tc:SAML:2.0:cm:bearer",
    recipient: SP.acs_url,
    in_response_to: "_request",
    not_before: undefined,
    not_on_or_after: at(5 * 60_000)
  }],
  conditions: { not_before: at(-60_000), not_on_or_after: at(10 * 60_000), audiences: [[SP.entity_id]] },
  attributes: new Map(),
  ...changes
})

const response = (changes: Partial<SamlResponse> = {}, assertionChanges: Partial<SamlAssertion> = {}): SamlResponse => ({
  id: "_response",
  issuer: undefined,
  destination: SP.acs_url,
  in_response_to: "_request",
  status: "urn:oasis:names:tc:SAML:2.0:status:Success",
  assertion: assertion(assertionChanges),
  ...changes
})

const detailOf = (outcome: unknown) => (outcome instanceof SamlRejected ? outcome.detail : "accepted")

describe("a SAML Response's rules", () => {
  it("accepts a Response that meets them, remembering its assertion until the first end plus the skew", () => {
    expect(checkResponse(response(), EXPECTED)).toEqual({
      in_response_to: "_request",
      assertion_id: "_assertion",
      remember_until: NOW + 5 * 60_000 + CLOCK_SKEW_MS
    })
  })

  it("allows the clock skew at both ends of every window, and not a millisecond more", () => {
    const conditions = (notBefore: string, notOnOrAfter: string) =>
      response({}, { conditions: { not_before: notBefore, not_on_or_after: notOnOrAfter, audiences: [[SP.entity_id]] } })
    expect(detailOf(checkResponse(conditions(at(CLOCK_SKEW_MS), at(HOUR)), EXPECTED))).toBe("accepted")
    expect(detailOf(checkResponse(conditions(at(CLOCK_SKEW_MS + 1), at(HOUR)), EXPECTED)))
      .toBe("Could not validate timestamp: not yet valid. Check system clock.")
    expect(detailOf(checkResponse(conditions(at(-HOUR), at(-CLOCK_SKEW_MS + 1)), EXPECTED))).toBe("accepted")
    expect(detailOf(checkResponse(conditions(at(-HOUR), at(-CLOCK_SKEW_MS)), EXPECTED)))
      .toBe("Could not validate timestamp: expired. Check system clock.")
  })

  it("reads SAML's UTC times only", () => {
    expect(instantOf("2026-03-01T12:00:00Z")).toBe(NOW)
    expect(instantOf("2026-03-01T12:00:00.123456Z")).toBe(NOW + 123)
    for (const text of ["2026-03-01T12:00:00+01:00", "2026-03-01 12:00:00Z", "yesterday", "2026-13-45T99:00:00Z"]) {
      expect(instantOf(text)).toBeUndefined()
    }
    const odd = response({}, { conditions: { not_before: "soon", not_on_or_after: undefined, audiences: [[SP.entity_id]] } })
    expect(detailOf(checkResponse(odd, EXPECTED))).toBe("Invalid time: soon.")
  })

  it("needs every audience restriction to name this service provider, and at least one", () => {
    const audiences = (lists: ReadonlyArray<ReadonlyArray<string>>) =>
      response({}, { conditions: { not_before: undefined, not_on_or_after: undefined, audiences: lists } })
    expect(detailOf(checkResponse(audiences([[SP.entity_id, "https://x"], [SP.entity_id]]), EXPECTED))).toBe("accepted")
    expect(detailOf(checkResponse(audiences([[SP.entity_id], ["https://x"]]), EXPECTED)))
      .toBe(`Invalid audience for this Response: ${SP.entity_id}, https://x.`)
    expect(detailOf(checkResponse(audiences([]), EXPECTED))).toBe("The Assertion names no audience.")
    expect(detailOf(checkResponse(response({}, { conditions: undefined }), EXPECTED))).toBe("The Assertion names no audience.")
  })

  it("needs a bearer confirmation with an end; the first that holds is used", () => {
    const [bearer] = assertion().confirmations
    const holderOfKey = { ...bearer!, method: "urn:oasis:names:tc:SAML:2.0:cm:holder-of-key" }
    expect(detailOf(checkResponse(response({}, { confirmations: [] }), EXPECTED))).toBe("The Assertion has no bearer SubjectConfirmation.")
    expect(detailOf(checkResponse(response({}, { confirmations: [holderOfKey] }), EXPECTED)))
      .toBe("The Assertion has no bearer SubjectConfirmation.")
    expect(detailOf(checkResponse(response({}, { confirmations: [holderOfKey, bearer!] }), EXPECTED))).toBe("accepted")
    expect(detailOf(checkResponse(response({}, { confirmations: [{ ...bearer!, not_on_or_after: undefined }] }), EXPECTED)))
      .toBe("The SubjectConfirmation has no NotOnOrAfter.")
  })

  it("takes the request from the signed confirmation only, and refuses a Response that names another", () => {
    expect(detailOf(checkResponse(response({ in_response_to: "_other" }), EXPECTED))).toBe("The Response and its Assertion answer different requests.")
    expect(checkResponse(response({ in_response_to: undefined }), EXPECTED)).toMatchObject({ in_response_to: "_request" })
    // A Response naming a request around an Assertion that names none: the Response may be unsigned.
    const [bearer] = assertion().confirmations
    const unnamed = response({}, { confirmations: [{ ...bearer!, in_response_to: undefined }] })
    expect(detailOf(checkResponse(unnamed, EXPECTED))).toBe("The Response answers no request of this service provider.")
  })

  it("refuses a Response whose own Issuer names another identity provider", () => {
    expect(detailOf(checkResponse(response({ issuer: "https://impostor.example" }), EXPECTED))).toBe("Invalid issuer in the Response: https://impostor.example.")
    expect(detailOf(checkResponse(response({}, { issuer: undefined }), EXPECTED))).toBe("Invalid issuer in the Assertion: none.")
  })
})

describe("who a SAML assertion names", () => {
  const attributes = (entries: Record<string, ReadonlyArray<string>>) => new Map(Object.entries(entries))

  it("takes the e-mail from PostHog's attribute names first, in lower case, then from an e-mail NameID", () => {
    expect(identityOf(assertion({ attributes: attributes({ EMAIL: ["", " Ada@ACME.example "], firstName: ["Ada"], LAST_NAME: ["L"] }) })))
      .toEqual({ email: "ada@acme.example", first_name: "Ada", last_name: "L" })
    expect(identityOf(assertion())).toEqual({ email: "ada@acme.example", first_name: "", last_name: "" })
  })

  it("does not take a persistent or transient NameID for an e-mail", () => {
    const opaque = assertion({ name_id: "ada@acme.example", name_id_format: "urn:oasis:names:tc:SAML:2.0:nameid-format:persistent" })
    expect(detailOf(identityOf(opaque))).toBe("Missing needed parameter email")
  })
})


describe("a SAML log-in's RelayState", () => {
  const DOMAIN = "0b5c7d1e-2f3a-4b5c-8d9e-0f1a2b3c4d5e" as DomainId

  it("is the domain's id alone, or PostHog's JSON with the page to return to", () => {
    expect(relayStateOf(DOMAIN, undefined)).toBe(DOMAIN)
    expect(readRelayState(relayStateOf(DOMAIN, "/project/7?tab=flags"))).toEqual({ domain: DOMAIN, next: "/project/7?tab=flags" })
    expect(readRelayState(` ${DOMAIN.toUpperCase()} `)).toEqual({ domain: DOMAIN, next: undefined })
  })

  it("names nothing when it cannot be read, and never another site", () => {
    for (const text of [undefined, "", "not-a-uuid", "{", "[1]", JSON.stringify({ idp: 7 }), "null"]) {
      expect(readRelayState(text)).toEqual({ domain: undefined, next: undefined })
    }
    for (const next of ["//evil.example", "/\\evil.example", "https://evil.example", "evil", "/a\nb", "/a b", "/€", `/${"a".repeat(2048)}`]) {
      expect(safeNextPath(next)).toBeUndefined()
      expect(readRelayState(JSON.stringify({ idp: DOMAIN, next }))).toEqual({ domain: DOMAIN, next: undefined })
    }
  })
})
