import { SESSION_AGE_SECONDS } from "./model.ts"

/** The session cookie, under PostHog's name for it. */
export const SESSION_COOKIE = "sessionid"
/** The CSRF cookie, under PostHog's name for it. */
export const CSRF_COOKIE = "posthog_csrftoken"
/** The header a session-authenticated write echoes the CSRF cookie in. */
export const CSRF_HEADER = "x-csrftoken"

/**
 * A cookie an answer sets (or, with `maxAge` 0, removes), with `Path=/` and `SameSite=Lax` unless it says
 * otherwise, as PostHog sets its cookies, so a cross-site form or script cannot make the browser send the
 * session along.
 */
export interface SetCookie {
  readonly name: string
  readonly value: string
  /** Seconds; 0 removes the cookie. */
  readonly maxAge: number
  /** Out of scripts' reach: the session's cookie, not the CSRF token's, which a page's script reads to echo it. */
  readonly httpOnly: boolean
  /** Only over https: set when the site's URL is https. */
  readonly secure: boolean
  /** The path the browser sends it to; `/` when absent. */
  readonly path?: string
  /**
   * `none` only for a cookie a cross-site POST must carry (the SAML answer's, see sso/saml/browser-binding.ts),
   * and only with `secure`, without which browsers drop it; `lax` when absent.
   */
  readonly sameSite?: "lax" | "none"
}

/** The cookies a log-in sets: the new session and a new CSRF token, both kept for the session's age, as PostHog keeps them. */
export const loginCookies = (sessionKey: string, csrfToken: string, secure: boolean): ReadonlyArray<SetCookie> => [
  { name: SESSION_COOKIE, value: sessionKey, maxAge: SESSION_AGE_SECONDS, httpOnly: true, secure },
  { name: CSRF_COOKIE, value: csrfToken, maxAge: SESSION_AGE_SECONDS, httpOnly: false, secure }
]

/** What a log-out sets: the session cookie removed. */
export const logoutCookies = (secure: boolean): ReadonlyArray<SetCookie> => [
  { name: SESSION_COOKIE, value: "", maxAge: 0, httpOnly: true, secure }
]
