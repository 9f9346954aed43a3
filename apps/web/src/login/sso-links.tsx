import type { Ref } from "react"
import { useApi } from "../api/use-api.ts"
import { ssoWords } from "../domains/domain.ts"
import { type SocialProviders, type SsoProvider, ssoHref } from "./sso.ts"

/**
 * "Log in with <provider>": a link to the server's route that starts the log-in there (a whole page
 * load, not the console's router), drawn as a button.
 */
export const SsoLink = ({ provider, email, next, primary = false, ref }: {
  readonly provider: SsoProvider
  /** The e-mail, for SAML: its domain names the identity provider. */
  readonly email?: string | undefined
  readonly next: string | undefined
  readonly primary?: boolean
  readonly ref?: Ref<HTMLAnchorElement>
}) => (
  <a ref={ref} className={primary ? "button primary" : "button"} href={ssoHref(provider, email ?? "", next)}>
    Log in with {ssoWords(provider)}
  </a>
)

/** The providers' order on the page, PostHog's. */
const ORDER: ReadonlyArray<keyof SocialProviders> = ["google-oauth2", "github", "gitlab"]

/** A link for each OAuth provider this deployment has configured, as its preflight says; none while it loads. */
export const SocialLinks = ({ next }: { readonly next: string | undefined }) => {
  const preflight = useApi("/_preflight/", {})
  if (preflight.status !== "ready") return null
  const providers = ORDER.filter((provider) => preflight.data.available_social_auth_providers[provider])
  if (providers.length === 0) return null
  return (
    <section className="sso-choices" aria-labelledby="social-log-in">
      <h2 id="social-log-in" className="or">Or log in with</h2>
      {providers.map((provider) => <SsoLink key={provider} provider={provider} next={next} />)}
    </section>
  )
}
