import { Clock, Effect } from "effect"
import type { UserId } from "../shared/ids.ts"
import { secureValueOf } from "../shared/secrets.ts"
import { timestampFromDate } from "../shared/time.ts"
import { SIGN_IN_LINK_AGE_SECONDS, type SignInLinkGrant } from "./model.ts"
import { newSignInSecret } from "./secret.ts"
import { SignInLinkRepository } from "./repository.ts"

/**
 * Inside the caller's transaction: a new link for `user`, which replaces their earlier one (a lost link
 * stops working once a new one is made). Only the secret's hash is stored; expired links are cleared on
 * the way.
 */
export const issueSignInLink = (user: UserId): Effect.Effect<SignInLinkGrant, never, SignInLinkRepository> =>
  Effect.gen(function*() {
    const links = yield* SignInLinkRepository
    const now = yield* Clock.currentTimeMillis
    const token = newSignInSecret()
    const expires_at = timestampFromDate(new Date(now + SIGN_IN_LINK_AGE_SECONDS * 1000))
    yield* links.removeExpired(timestampFromDate(new Date(now)))
    yield* links.replaceForUser(user, secureValueOf(token), expires_at)
    return { token, expires_at }
  })
