import { timingSafeEqual } from "node:crypto"
import type { SetCookie } from "../../sessions/cookies.ts"
import { secureValueOf } from "../../shared/secrets.ts"
import { isSecureSite, type Site } from "../../shared/site.ts"
import { isBrowserKey } from "../browser-key.ts"
import { REQUEST_LIFETIME_MS, serviceProviderOf } from "./service-provider.ts"

/**
 * The cookie that ties a SAML request to the browser that started it: a browser key (see
 * browser-key.ts), set by `/login/saml/`, whose SHA-256 the store keeps with the request. Without it,
 * anyone with a verified domain and an identity provider of their own could answer their own request
 * from a page that posts to the ACS, and log a visitor's browser into their account.
 *
 * The identity provider's POST to the ACS is cross-site, which carries no `SameSite=Lax` cookie, so on
 * an https site the cookie is `SameSite=None; Secure; HttpOnly`, sent only to the ACS's path, and an
 * answer without it is refused. Browsers drop `SameSite=None` without `Secure`, so on a plain-http site
 * (development only) it is `SameSite=Lax` and checked when the browser sends it: a log-in through an
 * identity provider on another site would otherwise never complete there.
 */
export const SAML_LOGIN_COOKIE = "hedgerow_saml_login"

/** Whether this site refuses an answer that comes without the cookie: only https can carry it cross-site. */
export const samlBrowserBindingRequired = (site: Site): boolean => isSecureSite(site)

/** The cookie a start sets, for as long as its request can be answered; `maxAge` 0 removes it. */
export const samlLoginCookie = (browserKey: string, site: Site, maxAge = REQUEST_LIFETIME_MS / 1000): SetCookie => {
  const secure = isSecureSite(site)
  return {
    name: SAML_LOGIN_COOKIE,
    value: browserKey,
    maxAge,
    httpOnly: true,
    secure,
    path: new URL(serviceProviderOf(site).acs_url).pathname,
    sameSite: secure ? "none" : "lax"
  }
}

/** What a completed log-in sets: the cookie removed, its request being used up. */
export const clearSamlLoginCookie = (site: Site): SetCookie => samlLoginCookie("", site, 0)

/**
 * Whether the browser that posted an answer is the one that started its request, whose key's hash the
 * request holds: its cookie must hash to it, and may be missing only where the site cannot require it.
 */
export const startedByThisBrowser = (requestHash: string, browserKey: string | undefined, site: Site): boolean => {
  if (browserKey === undefined) return !samlBrowserBindingRequired(site)
  if (!isBrowserKey(browserKey)) return false
  const presented = Buffer.from(secureValueOf(browserKey))
  const expected = Buffer.from(requestHash)
  return presented.length === expected.length && timingSafeEqual(presented, expected)
}
