import type { SSO_ENFORCEMENTS } from "@hedgerow/core"
import type { DEFAULT_CHALLENGE_PREFIX } from "@hedgerow/core/ports"
import type { Payload, Success } from "../api/contract.ts"
import type { SocialProviders } from "../login/sso.ts"

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

/**
 * Whether a provider can be enforced to effect: SAML once the domain's identity provider is set up, an
 * OAuth provider once this deployment has a client for it. The server enforces nothing else, so that no
 * one is locked out; "not enforced" is always a choice.
 */
export const usable = (provider: string, domain: Domain, social: SocialProviders | undefined): boolean =>
  provider === "" || (provider === "saml" ? domain.has_saml : social !== undefined && Object.hasOwn(social, provider) &&
    social[provider as keyof SocialProviders] === true)

/** How the domain's people log in and join, in sentences: what its settings mean for them. */
export const ssoSentences = (domain: Domain, social: SocialProviders | undefined): ReadonlyArray<string> => {
  const name = domain.domain
  if (!domain.is_verified) return [`Until ${name} is verified, it neither decides how its people log in nor lets anyone join on their own.`]
  const enforced = domain.sso_enforcement
  const login = enforced === ""
    ? `People at ${name} may log in with a password or any way this server offers.`
    : usable(enforced, domain, social)
    ? `People at ${name} must log in with ${ssoWords(enforced)}.`
    : `${name} asks for ${ssoWords(enforced)}, which is not set up here, so nothing is enforced: people at ${name} log in any way this server offers.`
  const joining = domain.jit_provisioning_enabled
    ? `Anyone at ${name} who logs in with single sign-on joins the organization as a member, with an account made for them if they have none.`
    : `People at ${name} join the organization only when invited.`
  return [login, joining]
}
