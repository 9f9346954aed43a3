import { Schema } from "effect"
import { PermissionDenied } from "../shared/errors.ts"

/**
 * What the organization rule reads of a session's user, with the session itself: whether their current
 * organization enforces two-factor authentication, and whether they have an authenticator app.
 */
export const TwoFactorStanding = Schema.Struct({
  enforced: Schema.Boolean,
  enabled: Schema.Boolean
})
export type TwoFactorStanding = typeof TwoFactorStanding.Type

/**
 * The paths a session still reaches when the rule refuses it elsewhere, as PostHog keeps them open: the
 * two-factor endpoints, so the person can set up an app and see where they stand, and their own user,
 * which the console reads to show them anything at all. Log-in, the code step, log-out, sign-up, single
 * sign-on and health never ask who the caller is, so they stay open without being listed.
 */
const OPEN_PATHS: ReadonlySet<string> = new Set([
  "/api/users/@me/",
  "/api/users/@me/two_factor_start_setup/",
  "/api/users/@me/two_factor_validate/",
  "/api/users/@me/two_factor_status/",
  "/api/users/@me/two_factor_backup_codes/",
  "/api/users/@me/two_factor_disable/"
])

/** A request's path without its query, percent-escapes read and a final slash added, as OPEN_PATHS spells them. */
const normalPath = (path: string): string => {
  const bare = path.split("?")[0] ?? ""
  let decoded = bare
  try {
    decoded = decodeURIComponent(bare)
  } catch {
    // A malformed escape names no open path; the raw text is compared and misses.
  }
  return decoded.endsWith("/") ? decoded : `${decoded}/`
}

/** PostHog's refusals, with its words and codes. */
export const twoFactorSetupRequired = () =>
  new PermissionDenied({ code: "two_factor_setup_required", detail: "2FA setup required" })
export const twoFactorVerificationRequired = () =>
  new PermissionDenied({ code: "two_factor_verification_required", detail: "2FA verification required" })

/**
 * The organization's rule for a session-authenticated request: when the user's current organization
 * enforces two-factor authentication, a session that passed a second factor is served; otherwise a user
 * without an authenticator app is refused until they set one up, and one with an app until they log in
 * with its code. A session passes by an app's code, a browser remembered for the app, or an identity
 * provider, which asks no app of its own (PostHog does not hold single sign-on to this rule either).
 * Turning the app off takes the pass from the user's sessions, so they meet the rule again. Personal API
 * keys are not sessions and never meet it, as in PostHog. `path` undefined is no open path.
 */
export const twoFactorRefusal = (
  standing: TwoFactorStanding,
  sessionVerified: boolean,
  path: string | undefined
): PermissionDenied | undefined => {
  if (!standing.enforced) return undefined
  if (sessionVerified) return undefined
  if (path !== undefined && OPEN_PATHS.has(normalPath(path))) return undefined
  return standing.enabled ? twoFactorVerificationRequired() : twoFactorSetupRequired()
}
