import { createHash, createHmac, timingSafeEqual } from "node:crypto"
import { Schema } from "effect"
import type { SetCookie } from "../../sessions/cookies.ts"
import { randomBase62, secureValueOf } from "../../shared/secrets.ts"
import { Timestamp, timestampFromDate } from "../../shared/time.ts"
import { newBrowserKey } from "../browser-key.ts"
import { safeNextPath } from "../next-path.ts"
import { OAUTH_PROVIDERS, type OAuthProvider } from "../providers.ts"

/**
 * How long a browser has between leaving for the provider and coming back: long enough for a provider's
 * own log-in and second factor, short enough that a stolen pending log-in is soon worthless.
 */
export const PENDING_LOGIN_SECONDS = 10 * 60

/**
 * The cookie that ties a pending log-in to the browser that started it. Only its hash is stored, so the
 * store's rows cannot be turned back into a cookie, and a `state` copied from a URL is useless without
 * it. `SameSite=Lax`, as most cookies here: the provider sends the browser back with a top-level GET,
 * which carries it. Its value is a browser key (see browser-key.ts).
 */
export const OAUTH_LOGIN_COOKIE = "hedgerow_oauth_login"


/**
 * A log-in sent to a provider and not yet back, as the store keeps it: the hashes of the browser's cookie
 * and of the state, never either; its nonce and PKCE verifier are not kept at all (see secretsOf).
 */
export const PendingOAuthLogin = Schema.Struct({
  browser_hash: Schema.String,
  provider: Schema.Literals(OAUTH_PROVIDERS),
  state_hash: Schema.String,
  /** The console's page to open once logged in: a path of this site (see nextPathOf). */
  next: Schema.String,
  expires_at: Timestamp
})
export type PendingOAuthLogin = typeof PendingOAuthLogin.Type

const derived = (browserKey: string, purpose: string) => createHmac("sha256", browserKey).update(purpose).digest("base64url")

/**
 * A pending log-in's nonce (sent in the authorization request, expected back in the ID token) and PKCE
 * verifier (its S256 challenge goes to the provider, itself with the code), each an HMAC of the browser's
 * cookie: the browser brings them back, so the store need not hold them. 43 base64url characters each,
 * which PKCE's verifier takes as they are.
 */
export const secretsOf = (browserKey: string) => ({ nonce: derived(browserKey, "nonce"), codeVerifier: derived(browserKey, "pkce code verifier") })

/** The `next` a start was given, when it is a path of this site (see safeNextPath); else the console's home. */
export const nextPathOf = (next: string | undefined): string => safeNextPath(next) ?? "/"

/** A new pending log-in: what the store keeps, and the secrets that go to the browser (cookie) and the provider (state, nonce, challenge). */
export const newPendingLogin = (provider: OAuthProvider, next: string | undefined, nowMillis: number) => {
  const browserKey = newBrowserKey()
  const state = randomBase62(43)
  const pending: PendingOAuthLogin = {
    browser_hash: secureValueOf(browserKey),
    provider,
    state_hash: secureValueOf(state),
    next: nextPathOf(next),
    expires_at: timestampFromDate(new Date(nowMillis + PENDING_LOGIN_SECONDS * 1000))
  }
  return { browserKey, state, ...secretsOf(browserKey), pending }
}

/** PKCE's S256 challenge of a verifier: base64url of its SHA-256. */
export const codeChallengeOf = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url")

/** Whether `state`, as the provider sent it back, is the pending log-in's. */
export const stateMatches = (pending: PendingOAuthLogin, state: string): boolean =>
  timingSafeEqual(Buffer.from(secureValueOf(state)), Buffer.from(pending.state_hash))

/** The cookie a start sets, and the one every completion removes (maxAge 0), out of scripts' reach. */
export const oauthLoginCookie = (browserKey: string, secure: boolean): SetCookie => ({
  name: OAUTH_LOGIN_COOKIE,
  value: browserKey,
  maxAge: PENDING_LOGIN_SECONDS,
  httpOnly: true,
  secure
})
export const clearOauthLoginCookie = (secure: boolean): SetCookie => ({ ...oauthLoginCookie("", secure), maxAge: 0 })
