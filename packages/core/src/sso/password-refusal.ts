import { Effect } from "effect"
import type { DomainRepository } from "../domains/repository.ts"
import { ValidationError } from "../shared/errors.ts"
import { ssoEnforcementFor } from "./domain-of-email.ts"
import type { SsoProvider } from "./providers.ts"

/**
 * Where a password would be used or set for an e-mail whose verified domain enforces single sign-on, each
 * with PostHog's refusal (400, code `sso_enforced`). They speak only of the e-mail's domain, never of
 * whether an account exists, so they tell a caller nothing the log-in precheck does not.
 */
const REFUSALS = {
  login: (provider: SsoProvider) => `You can only login with SSO for this account (${provider}).`,
  /** PostHog has no refusal of its own for a password change; this one is worded as its reset refusal. */
  change: () => "Password change is disabled because SSO login is enforced for this domain.",
  signup: () =>
    "Sign up with a password is disabled because SSO login is enforced for this domain. Please log in with your SSO credentials."
} as const

/** Refuses a password for `email` when its verified domain enforces a provider that can be used. */
export const refusePasswordUnderSso = (
  email: string,
  use: keyof typeof REFUSALS
): Effect.Effect<void, ValidationError, DomainRepository> =>
  Effect.flatMap(ssoEnforcementFor(email), (provider) =>
    provider === null ? Effect.void : Effect.fail(ValidationError.field(null, REFUSALS[use](provider), "sso_enforced")))
