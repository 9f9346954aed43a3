import { Schema } from "effect"
import { MembershipLevels } from "../members/model.ts"
import { SessionId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { TwoFactorStanding } from "../two-factor/enforcement.ts"
import { User } from "../users/model.ts"

/** A log-in session as the sessions table holds it: its owner and times, never its secret (only a hash). */
export const Session = Schema.Struct({
  id: SessionId,
  user_id: UserId,
  created_at: Timestamp,
  expires_at: Timestamp,
  /** Whether the log-in passed a second factor: an authenticator app's code, or an identity provider. */
  two_factor_verified: Schema.Boolean
})
export type Session = typeof Session.Type

/**
 * A session with its user, the user's memberships and what the two-factor rule reads: all that
 * authentication needs, in one read.
 */
export const SessionHolder = Schema.Struct({
  session: Session,
  user: User,
  memberships: MembershipLevels,
  two_factor: TwoFactorStanding
})
export type SessionHolder = typeof SessionHolder.Type

/**
 * A session's life, two weeks: a session ends that long after the log-in that made it, however much it
 * is used.
 */
export const SESSION_AGE_SECONDS = 14 * 24 * 60 * 60

/** A password change needs a log-in at most two hours old. */
export const SENSITIVE_ACTIONS_AGE_SECONDS = 2 * 60 * 60
