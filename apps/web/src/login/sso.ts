import { SSO_FAILURE_WORDS, SSO_REFUSAL_WORDS, type SsoRefusalCode } from "@hedgerow/core/sso-words"
import { queryString } from "../api/client.ts"
import type { Success } from "../api/contract.ts"
import type { LoginFailure } from "../router/routes.ts"

/** What the precheck says of an e-mail's domain. */
export type Precheck = Success<"POST", "/api/login/precheck/">

/** A way of single sign-on, by PostHog's name for it. */
export type SsoProvider = NonNullable<Precheck["sso_enforcement"]>

/** Which OAuth providers this deployment logs people in with. */
export type SocialProviders = Success<"GET", "/_preflight/">["available_social_auth_providers"]

/**
 * Where a log-in with `provider` starts: the server's route, which sends the browser on to the identity
 * provider and, once logged in, to `next`. SAML finds the identity provider by the e-mail's domain.
 */
export const ssoHref = (provider: SsoProvider, email: string, next: string | undefined): string =>
  provider === "saml" ? `/login/saml/${queryString({ email, next })}` : `/login/${provider}/${queryString({ next })}`

const isRefusalCode = (code: string): code is SsoRefusalCode => Object.hasOwn(SSO_REFUSAL_WORDS, code)

/**
 * What the page says of a refused SSO log-in: the server's reason when it gave one for a failure at the
 * provider, else the words for its code, else that the log-in did not complete.
 */
export const failureWords = ({ code, detail }: LoginFailure): string =>
  code === "social_login_failure" && detail !== undefined && detail !== ""
    ? detail
    : isRefusalCode(code)
    ? SSO_REFUSAL_WORDS[code]
    : SSO_FAILURE_WORDS
