import { Context } from "effect"

/** The OAuth providers a person may log in with, by the names PostHog gives them. */
export const OAUTH_PROVIDERS = ["google-oauth2", "github", "gitlab"] as const
export type OAuthProvider = typeof OAUTH_PROVIDERS[number]

/** Every way of single sign-on: an OAuth provider, or the SAML identity provider a domain names. */
export const SSO_PROVIDERS = [...OAUTH_PROVIDERS, "saml"] as const
export type SsoProvider = typeof SSO_PROVIDERS[number]

export interface SsoConfiguration {
  /** The OAuth providers this deployment has a client for; SAML is set up per domain instead. */
  readonly oauth: ReadonlySet<OAuthProvider>
}

/** None configured unless the server's settings name some. */
export const SsoSettings = Context.Reference<SsoConfiguration>("hedgerow/SsoSettings", {
  defaultValue: () => ({ oauth: new Set() })
})
