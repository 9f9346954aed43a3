import { timingSafeEqual } from "node:crypto"
import { randomBase62 } from "../shared/secrets.ts"
import type { SessionRequest } from "./request.ts"

/** A CSRF token: 32 letters and digits. */
const TOKEN_LENGTH = 32
const TOKEN_CHARACTERS = /^[A-Za-z0-9]*$/

export const newCsrfToken = (): string => randomBase62(TOKEN_LENGTH)

/** Methods that change nothing, which need no token. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS", "TRACE"])

const formatProblem = (token: string): string | undefined =>
  token.length !== TOKEN_LENGTH ? "has incorrect length" : TOKEN_CHARACTERS.test(token) ? undefined : "has invalid characters"

/**
 * Why PostHog's CSRF check refuses a session-authenticated request, in PostHog's words, or undefined
 * when it passes. Unsafe methods need an Origin, when one is sent, naming this site, then the
 * `posthog_csrftoken` cookie echoed in `X-CSRFToken`: a page on another site can make the browser send
 * the cookie, never read it.
 */
export const csrfFailure = (request: SessionRequest, siteOrigin: string | undefined): string | undefined => {
  if (SAFE_METHODS.has(request.method.toUpperCase())) return undefined
  const { origin } = request
  if (origin !== undefined && origin !== request.ownOrigin && origin !== siteOrigin) {
    return `Origin checking failed - ${origin} does not match any trusted origins.`
  }
  const cookie = request.csrfCookie
  if (cookie === undefined || cookie === "") return "CSRF cookie not set."
  const cookieProblem = formatProblem(cookie)
  if (cookieProblem !== undefined) return `CSRF cookie ${cookieProblem}.`
  const header = request.csrfHeader
  if (header === undefined) return "CSRF token missing."
  const headerProblem = formatProblem(header)
  if (headerProblem !== undefined) return `CSRF token from the 'X-Csrftoken' HTTP header ${headerProblem}.`
  return timingSafeEqual(Buffer.from(header), Buffer.from(cookie)) ? undefined : "CSRF token from the 'X-Csrftoken' HTTP header incorrect."
}
