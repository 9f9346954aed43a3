import { Clock, Effect } from "effect"
import type { SessionId, UserId } from "../shared/ids.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { isSecureSite, SiteSettings } from "../shared/site.ts"
import { timestampFromDate } from "../shared/time.ts"
import { UserRepository } from "../users/repository.ts"
import { loginCookies, type SetCookie } from "./cookies.ts"
import { newCsrfToken } from "./csrf.ts"
import { newSessionKey } from "./keys.ts"
import { SESSION_AGE_SECONDS } from "./model.ts"
import { SessionRepository } from "./repository.ts"

/** What a log-in hands the client: the cookies of its new session and CSRF token. */
export interface LoggedIn {
  readonly cookies: ReadonlyArray<SetCookie>
}

/**
 * Logs `user` in, inside the caller's transaction. `twoFactorVerified` says whether the log-in passed a
 * second factor (an authenticator app's code, a browser remembered for that app, or an identity
 * provider), which an organization enforcing two-factor authentication asks of its members' sessions. The log-in always opens a new session under a new
 * secret, so a session id planted before it is never the one logged in (no session fixation). It also
 * ends the session the request came with, sets a new CSRF token and records `last_login`. Expired
 * sessions are cleared on the way.
 */
export const openSession = (user: UserId, replacing: SessionId | undefined, twoFactorVerified: boolean) =>
  Effect.gen(function*() {
    const sessions = yield* SessionRepository
    const users = yield* UserRepository
    const site = yield* SiteSettings
    const now = yield* Clock.currentTimeMillis
    const key = newSessionKey()
    yield* sessions.removeExpired
    if (replacing !== undefined) yield* sessions.remove(replacing)
    yield* sessions.insert({
      user_id: user,
      secret_hash: secureValueOf(key),
      expires_at: timestampFromDate(new Date(now + SESSION_AGE_SECONDS * 1000)),
      two_factor_verified: twoFactorVerified
    })
    yield* users.recordLogin(user, timestampFromDate(new Date(now)))
    return { cookies: loginCookies(key, newCsrfToken(), isSecureSite(site)) } satisfies LoggedIn
  })
