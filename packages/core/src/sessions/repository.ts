import { Context, type Effect, type Option } from "effect"
import type { SessionId, UserId } from "../shared/ids.ts"
import type { Timestamp } from "../shared/time.ts"
import type { Session, SessionHolder } from "./model.ts"

export class SessionRepository extends Context.Service<SessionRepository, {
  /** `secret_hash` is the hash of the cookie's value (see secureValueOf); the value itself is never stored. */
  readonly insert: (input: {
    readonly user_id: UserId
    readonly secret_hash: string
    readonly expires_at: Timestamp
    readonly two_factor_verified: boolean
  }) => Effect.Effect<Session>
  /** The session passed the second factor after its log-in (its user turned an authenticator app on). */
  readonly markTwoFactorVerified: (id: SessionId) => Effect.Effect<void>
  /** The user turned their app off: none of their sessions counts as having passed a second factor any more. */
  readonly forgetTwoFactorVerified: (user: UserId) => Effect.Effect<void>
  /**
   * The live session with this secret's hash, its (active or not) user, their memberships, whether their
   * current organization enforces two-factor authentication and whether they have an authenticator app.
   */
  readonly findHolder: (secretHash: string) => Effect.Effect<Option.Option<SessionHolder>>
  readonly remove: (id: SessionId) => Effect.Effect<void>
  /** Ends every session of the user but `keep`. */
  readonly removeForUser: (user: UserId, keep: SessionId | null) => Effect.Effect<void>
  /** Drops sessions past their expiry, which no request can use any more. */
  readonly removeExpired: Effect.Effect<void>
}>()("hedgerow/SessionRepository") {}
