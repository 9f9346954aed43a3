import { SamlRejected } from "./rejected.ts"
import type { SamlAssertion, SamlResponse, SubjectConfirmation } from "./response.ts"
import { CLOCK_SKEW_MS, type ServiceProvider } from "./service-provider.ts"

const SUCCESS = "urn:oasis:names:tc:SAML:2.0:status:Success"
const BEARER = "urn:oasis:names:tc:SAML:2.0:cm:bearer"

/** xs:dateTime in UTC, as SAML requires its times: `2026-01-02T03:04:05Z`, fractional seconds allowed. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?Z$/

/** Epoch milliseconds of a SAML time, or undefined when it is not one. */
export const instantOf = (text: string): number | undefined => {
  if (!INSTANT.test(text)) return undefined
  const millis = Date.parse(text)
  return Number.isNaN(millis) ? undefined : millis
}

/** What the identity provider of the domain being logged in to must have said. */
export interface Expected {
  /** The domain's `saml_entity_id`. */
  readonly issuer: string
  readonly serviceProvider: ServiceProvider
  readonly now: number
}

/** What a Response that passed its checks leaves for the store: the request it answers and the assertion to remember. */
export interface AcceptedResponse {
  readonly in_response_to: string
  readonly assertion_id: string
  /** Until when the assertion id must be remembered to refuse a replay: past it, its own times refuse it. */
  readonly remember_until: number
}

const rejected = (detail: string) => new SamlRejected({ detail })

type Checked<A> = A | SamlRejected

/** A time window, each end with the clock skew allowed; undefined when `now` lies in it. */
const outsideWindow = (notBefore: string | undefined, notOnOrAfter: string | undefined, now: number): SamlRejected | undefined => {
  if (notBefore !== undefined) {
    const start = instantOf(notBefore)
    if (start === undefined) return rejected(`Invalid time: ${notBefore}.`)
    if (now + CLOCK_SKEW_MS < start) return rejected("Could not validate timestamp: not yet valid. Check system clock.")
  }
  if (notOnOrAfter !== undefined) {
    const end = instantOf(notOnOrAfter)
    if (end === undefined) return rejected(`Invalid time: ${notOnOrAfter}.`)
    if (now - CLOCK_SKEW_MS >= end) return rejected("Could not validate timestamp: expired. Check system clock.")
  }
  return undefined
}

const checkIssuer = (response: SamlResponse, expected: Expected): SamlRejected | undefined => {
  const { issuer } = response.assertion
  if (issuer !== expected.issuer) return rejected(`Invalid issuer in the Assertion: ${issuer ?? "none"}.`)
  // The Response's own Issuer is optional; when present it must name the same identity provider.
  if (response.issuer !== undefined && response.issuer !== expected.issuer) {
    return rejected(`Invalid issuer in the Response: ${response.issuer}.`)
  }
  return undefined
}

const checkConditions = (assertion: SamlAssertion, expected: Expected): SamlRejected | undefined => {
  const { conditions } = assertion
  // An assertion that names no audience could be meant for any service provider: it is not accepted here.
  if (conditions === undefined || conditions.audiences.length === 0) return rejected("The Assertion names no audience.")
  const entity = expected.serviceProvider.entity_id
  if (!conditions.audiences.every((audiences) => audiences.includes(entity))) {
    return rejected(`Invalid audience for this Response: ${conditions.audiences.flat().join(", ")}.`)
  }
  return outsideWindow(conditions.not_before, conditions.not_on_or_after, expected.now)
}

/**
 * The bearer confirmation a browser-carried assertion needs: sent to this ACS, answering a request, and
 * with an end. The first one that holds is used; when none does, the first one's fault is told.
 */
const checkConfirmation = (
  confirmation: SubjectConfirmation,
  response: SamlResponse,
  expected: Expected
): Checked<{ readonly in_response_to: string; readonly not_on_or_after: number }> => {
  if (confirmation.method !== BEARER) return rejected("The Assertion has no bearer SubjectConfirmation.")
  if (confirmation.recipient !== expected.serviceProvider.acs_url) {
    return rejected(`The Assertion is for ${confirmation.recipient ?? "no recipient"} instead of ${expected.serviceProvider.acs_url}.`)
  }
  if (confirmation.not_on_or_after === undefined) return rejected("The SubjectConfirmation has no NotOnOrAfter.")
  const outside = outsideWindow(confirmation.not_before, confirmation.not_on_or_after, expected.now)
  if (outside !== undefined) return outside
  // The request is read from the confirmation alone: the Response around a signed Assertion may be unsigned,
  // and an Assertion naming no request (an identity provider's unsolicited answer) is not taken.
  const inResponseTo = confirmation.in_response_to
  if (inResponseTo === undefined) return rejected("The Response answers no request of this service provider.")
  if (response.in_response_to !== undefined && response.in_response_to !== inResponseTo) {
    return rejected("The Response and its Assertion answer different requests.")
  }
  return { in_response_to: inResponseTo, not_on_or_after: instantOf(confirmation.not_on_or_after)! }
}

/**
 * Every rule a signed SAML Response must meet before its subject is logged in, but the two the store
 * judges (the request it answers was issued here and not used yet, and the assertion was not seen
 * before): the ones of SAML's Web Browser SSO profile, against this service provider and the domain's
 * identity provider.
 */
export const checkResponse = (response: SamlResponse, expected: Expected): Checked<AcceptedResponse> => {
  if (response.status !== SUCCESS) {
    return rejected(`The identity provider did not log the user in (status ${response.status ?? "missing"}).`)
  }
  if (response.destination !== undefined && response.destination !== expected.serviceProvider.acs_url) {
    return rejected(`The response was received at ${expected.serviceProvider.acs_url} instead of ${response.destination}.`)
  }
  const issuer = checkIssuer(response, expected)
  if (issuer !== undefined) return issuer
  const conditions = checkConditions(response.assertion, expected)
  if (conditions !== undefined) return conditions
  const { confirmations } = response.assertion
  if (confirmations.length === 0) return rejected("The Assertion has no bearer SubjectConfirmation.")
  const judged = confirmations.map((confirmation) => checkConfirmation(confirmation, response, expected))
  const held = judged.find((outcome) => !(outcome instanceof SamlRejected))
  if (held === undefined || held instanceof SamlRejected) return judged[0] as SamlRejected
  const conditionsEnd = response.assertion.conditions?.not_on_or_after
  const ends = [held.not_on_or_after, ...(conditionsEnd === undefined ? [] : [instantOf(conditionsEnd)!])]
  return {
    in_response_to: held.in_response_to,
    assertion_id: response.assertion.id,
    remember_until: Math.min(...ends) + CLOCK_SKEW_MS
  }
}
