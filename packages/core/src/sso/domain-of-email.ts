import { Effect, Option } from "effect"
import type { DomainRecord } from "../domains/model.ts"
import { DomainRepository } from "../domains/repository.ts"
import { OAUTH_PROVIDERS, type SsoProvider, SsoSettings } from "./providers.ts"

/** The part of an address after its `@`, as written. */
const afterAt = (email: string): string => email.slice(email.lastIndexOf("@") + 1)

/** The part of an address after its `@`, in lower case (domains are stored in lower case). */
export const domainPartOf = (email: string): string => afterAt(email).toLowerCase()

/**
 * The verified domain an e-mail address belongs to, if its organization has proven it owns the name. The
 * store folds the name's case, as it does the address's when it finds its user, so the two always agree.
 */
export const verifiedDomainOf = (email: string): Effect.Effect<Option.Option<DomainRecord>, never, DomainRepository> =>
  DomainRepository.use((domains) => domains.findVerified(afterAt(email)))

/**
 * A domain's SAML identity provider is usable once its entity id, sign-in URL and certificate are all set
 * (the domain's `has_saml`).
 */
export const hasSaml = (domain: DomainRecord): boolean =>
  Boolean(domain.saml_entity_id) && Boolean(domain.saml_acs_url) && Boolean(domain.saml_x509_cert)

/**
 * The provider a domain's people must log in with, when it can be used: SAML once the domain's identity
 * provider is set up, an OAuth provider once this deployment has a client for it. A domain that enforces
 * a provider nobody can use enforces nothing, so its people are not locked out.
 */
export const enforcedProviderOf = (domain: DomainRecord): Effect.Effect<SsoProvider | null> =>
  Effect.gen(function*() {
    const enforced = domain.sso_enforcement
    if (enforced === "saml") return hasSaml(domain) ? "saml" : null
    const oauth = OAUTH_PROVIDERS.find((provider) => provider === enforced)
    return oauth !== undefined && (yield* SsoSettings).oauth.has(oauth) ? oauth : null
  })

/** The provider an e-mail's verified domain enforces, or null when none applies. */
export const ssoEnforcementFor = (email: string): Effect.Effect<SsoProvider | null, never, DomainRepository> =>
  Effect.flatMap(verifiedDomainOf(email), Option.match({ onNone: () => Effect.succeed(null), onSome: enforcedProviderOf }))
