import { Clock, Effect, Option } from "effect"
import { AuthenticationError } from "../shared/errors.ts"
import type { UserId } from "../shared/ids.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { isSecureSite, SiteSettings } from "../shared/site.ts"
import { timestampFromDate } from "../shared/time.ts"
import type { SetCookie } from "../sessions/cookies.ts"
import { newSessionKey } from "../sessions/keys.ts"
import { pendingLoginCookie } from "./cookies.ts"
import { TWO_FACTOR_WAIT_SECONDS } from "./model.ts"
import { TwoFactorRepository } from "./repository.ts"

/**
 * A password log-in that still needs its code: PostHog's 401 `2fa_required`, and the cookie that lets
 * this browser finish it at `POST /api/login/token/`. No session is open yet.
 */
export interface TwoFactorPending {
  readonly _tag: "TwoFactorPending"
  readonly failure: AuthenticationError
  readonly cookies: ReadonlyArray<SetCookie>
}

/**
 * The password alone logs in: the user has no authenticator app, or the browser is one remembered for it,
 * which passed the app's code within the last thirty days and so counts as the second factor.
 */
export interface PasswordEnough {
  readonly _tag: "PasswordEnough"
  readonly twoFactorVerified: boolean
}

/**
 * Inside the caller's transaction: when the user has an authenticator app, and the browser is not one
 * remembered for it (`remembered`: its remember-this-device cookies' values), a new waiting log-in for
 * them (expired ones are cleared on the way); otherwise the password alone logs in.
 */
export const pendingLoginFor = (user: UserId, remembered: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const twoFactor = yield* TwoFactorRepository
    if (Option.isNone(yield* twoFactor.device(user, false))) {
      return { _tag: "PasswordEnough", twoFactorVerified: false } satisfies PasswordEnough
    }
    if (yield* twoFactor.isRemembered(user, remembered.map(secureValueOf))) {
      return { _tag: "PasswordEnough", twoFactorVerified: true } satisfies PasswordEnough
    }
    const site = yield* SiteSettings
    const now = yield* Clock.currentTimeMillis
    const key = newSessionKey()
    yield* twoFactor.removeExpired
    yield* twoFactor.insertPendingLogin({
      user_id: user,
      secret_hash: secureValueOf(key),
      expires_at: timestampFromDate(new Date(now + TWO_FACTOR_WAIT_SECONDS * 1000))
    })
    return {
      _tag: "TwoFactorPending",
      failure: AuthenticationError.twoFactorRequired(),
      cookies: [pendingLoginCookie(key, isSecureSite(site))]
    } satisfies TwoFactorPending
  })
