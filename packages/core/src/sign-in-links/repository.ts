import { Context, type Effect, type Option } from "effect"
import type { UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import type { SignInLink } from "./model.ts"

/** One-time sign-in links, each stored as the hash of its secret (see secureValueOf), never the secret. */
export class SignInLinkRepository extends Context.Service<SignInLinkRepository, {
  /** The user's new link, replacing any earlier one of theirs, so only the latest link works. */
  readonly replaceForUser: (user: UserId, secretHash: string, expiresAt: Timestamp) => Effect.Effect<void>
  /**
   * Removes the link with this hash and answers whose it was and until when it worked, expired or not.
   * Of two transactions taking one link at once, the second waits for the first and then finds nothing.
   */
  readonly take: (secretHash: string) => Effect.Effect<Option.Option<SignInLink>>
  /** Drops the user's link, if any: their credentials changed, and a link made before must not outlive that. */
  readonly removeForUser: (user: UserId) => Effect.Effect<void>
  /** Drops links past their expiry, which no one can use any more. */
  readonly removeExpired: (now: Timestamp) => Effect.Effect<void>
}>()("hedgerow/SignInLinkRepository") {}
