import { PermissionDenied } from "../shared/errors.ts"
import { millisOf } from "../shared/time.ts"
import type { SessionGrant } from "../auth/actor.ts"
import { SENSITIVE_ACTIONS_AGE_SECONDS } from "./model.ts"

/** Whether a session's log-in is too old for the actions PostHog allows only on a recent one. */
export const loginTooOld = (session: SessionGrant, now: number): boolean =>
  now - millisOf(session.created_at) > SENSITIVE_ACTIONS_AGE_SECONDS * 1000

/** PostHog's refusal of such an action on an older log-in. */
export const recentLoginRequired = () => new PermissionDenied({ detail: "This action requires you to be recently authenticated." })
