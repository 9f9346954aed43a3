import { Data } from "effect"

/**
 * A SAML log-in refused for what the identity provider's message says or lacks (a bad signature, an
 * expired assertion, a replay). The browser is sent back to the log-in page with PostHog's error code
 * for a failed SSO log-in and this detail.
 */
export class SamlRejected extends Data.TaggedError("SamlRejected")<{ readonly detail: string }> {
  /** The code PostHog's log-in page shows for any failed SSO exchange. */
  static readonly code = "social_login_failure"
}

/** `GET /login/saml/` for an e-mail whose domain is not verified or has no SAML settings, or no e-mail at all. */
export class SamlNotConfigured extends Data.TaggedError("SamlNotConfigured")<{}> {
  /** PostHog's log-in page code for an SSO log-in that cannot start. */
  static readonly code = "improperly_configured_sso"
}
