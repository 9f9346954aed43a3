import type { SSO_ENFORCEMENTS } from "@hedgerow/core"
import type { DEFAULT_CHALLENGE_PREFIX } from "@hedgerow/core/ports"
import type { Payload, Success } from "../api/contract.ts"

/** A domain as the API answers it. */
export type Domain = Success<"GET", "/api/organizations/:organization_id/domains/:id/">

export const DOMAINS_PATH = "/api/organizations/:organization_id/domains/"
export const DOMAIN_PATH = "/api/organizations/:organization_id/domains/:id/"

/** What a PATCH of a domain may send. */
export type DomainChanges = NonNullable<Payload<"PATCH", typeof DOMAIN_PATH>>

/** The prefix of every read of an organization's domains: what a write to one makes stale. */
export const domainsPrefix = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/domains/`

/**
 * The label the server looks the challenge up under, unless its operator configured another; the API
 * does not say which (typed by core's default, so the two cannot drift apart).
 */
const CHALLENGE_PREFIX: typeof DEFAULT_CHALLENGE_PREFIX = "_hedgerow-challenge"

/** The TXT record's name a domain's challenge is published at, by default. */
export const challengeRecordName = (domain: Domain) => `${CHALLENGE_PREFIX}.${domain.domain}`

/** The providers SSO enforcement offers, in words: exactly core's choices (the record is typed by them). */
export const SSO_WORDS = {
  "": "Not enforced",
  "google-oauth2": "Google",
  github: "GitHub",
  gitlab: "GitLab",
  saml: "SAML"
} as const satisfies Record<(typeof SSO_ENFORCEMENTS)[number], string>

/** A provider in words; one this console does not know, as the API gives it. */
export const ssoWords = (provider: string): string =>
  Object.hasOwn(SSO_WORDS, provider) ? SSO_WORDS[provider as keyof typeof SSO_WORDS] : provider
