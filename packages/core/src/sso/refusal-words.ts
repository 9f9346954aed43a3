/**
 * What a log-in page says for each code an SSO log-in ends with (`/login?error_code=<code>`): PostHog's
 * console's words, and Hedgerow's own for the refusals PostHog's console has none for. This file imports
 * nothing, so the web console bundles it alone (`@hedgerow/core/sso-words`).
 */
export const SSO_REFUSAL_WORDS = {
  no_new_organizations: "Your email address is not associated with an account. Please ask your administrator for an invite.",
  jit_not_enabled:
    "We could not find an account with your email address and your organization does not support automatic enrollment. Please contact your administrator for an invite.",
  inactive: "This account has been deactivated.",
  no_email: "Your identity provider did not give a valid email address.",
  saml_sso_enforced: "Your organization requires SAML SSO authentication. Please enter your email address to access your account.",
  google_sso_enforced: "Your organization does not allow this authentication method. Please log in with Google.",
  github_sso_enforced: "Your organization does not allow this authentication method. Please log in with GitHub.",
  gitlab_sso_enforced: "Your organization does not allow this authentication method. Please log in with GitLab.",
  sso_enforced: "Please log in with your organization's required SSO method.",
  invalid_sso_provider: "The SSO provider you specified is invalid.",
  improperly_configured_sso: "Cannot login with SSO provider because the provider is not configured.",
  throttled: "Too many log-ins were started from your network at once. Please try again in a few seconds."
} as const

export type SsoRefusalCode = keyof typeof SSO_REFUSAL_WORDS

/** The words for any other code (a cancelled or failed log-in at the provider, or one this page does not know). */
export const SSO_FAILURE_WORDS = "Could not complete your login. Please try again."
