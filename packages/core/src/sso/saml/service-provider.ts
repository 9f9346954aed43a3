import type { Site } from "../../shared/site.ts"

/**
 * This deployment as a SAML service provider, as PostHog names itself: its entity id is the site's URL
 * and its assertion consumer service (the ACS, where identity providers post their answers) is
 * `/complete/saml/` under it.
 */
export interface ServiceProvider {
  readonly entity_id: string
  readonly acs_url: string
}

/** The ACS's path, PostHog's. */
export const ACS_PATH = "/complete/saml/"

export const serviceProviderOf = (site: Site): ServiceProvider => ({
  entity_id: site.url,
  acs_url: `${site.url}${ACS_PATH}`
})

/** How long an identity provider may take to answer a log-in this server started (a person types a password, a second factor). */
export const REQUEST_LIFETIME_MS = 10 * 60 * 1000

/** How far the identity provider's clock may be from this server's when its validity times are judged. */
export const CLOCK_SKEW_MS = 3 * 60 * 1000
