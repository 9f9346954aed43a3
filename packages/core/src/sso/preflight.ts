import { Schema } from "effect"
import { OAUTH_PROVIDERS, type SsoConfiguration } from "./providers.ts"

/**
 * What a log-in page learns of the deployment before anyone types an e-mail, under PostHog's names: for
 * each OAuth provider, whether people can log in with it here. SAML is not among them: it is set up per
 * domain, and the precheck names it for an e-mail.
 */
export const Preflight = Schema.Struct({
  available_social_auth_providers: Schema.Record(Schema.Literals(OAUTH_PROVIDERS), Schema.Boolean)
})
export type Preflight = typeof Preflight.Type

/** The preflight of a deployment configured with `sso`. */
export const preflightOf = (sso: SsoConfiguration): Preflight => ({
  available_social_auth_providers: {
    "google-oauth2": sso.oauth.has("google-oauth2"),
    github: sso.oauth.has("github"),
    gitlab: sso.oauth.has("gitlab")
  }
})
