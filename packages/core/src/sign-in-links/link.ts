/**
 * What a one-time sign-in link is, as the server prints it and the console reads it. This file imports
 * nothing, so the web console bundles it alone (`@hedgerow/core/sign-in-link`).
 */

/**
 * How long a sign-in link works: a day. It is printed in the terminal where the server starts, and people
 * start a server, leave, and come back later the same day; a day is also short enough that a link found
 * later in a terminal's scroll-back or a log of the start is no way in.
 */
export const SIGN_IN_LINK_AGE_SECONDS = 24 * 60 * 60

/**
 * The console's page that spends a link. The secret rides in the URL's fragment (`#...`), which browsers
 * never send to a server, so no request line, access log or proxy ever holds it; the page sends it in a
 * POST body.
 */
export const SIGN_IN_LINK_PATH = "/sign-in-link"

/** The link for `token` on the site at `base` (`scheme://host[:port][/prefix]`, no trailing slash). */
export const signInLinkUrl = (base: string, token: string): string => `${base}${SIGN_IN_LINK_PATH}#${token}`
