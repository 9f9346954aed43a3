import { Schema } from "effect"
import { Text } from "../shared/fields.ts"
import { UserId } from "../shared/ids.ts"
import type { SsoProvider } from "../sso/providers.ts"
import { Timestamp } from "../shared/time.ts"

export { SIGN_IN_LINK_AGE_SECONDS, SIGN_IN_LINK_PATH, signInLinkUrl } from "./link.ts"

/** `POST /api/login/link/`: the secret the link carried. */
export const SignInLinkBody = Schema.Struct({ token: Text({ max: 200 }) })

/** A link just made: its secret, shown once and never stored, and when it stops working. */
export interface SignInLinkGrant {
  readonly token: string
  readonly expires_at: Timestamp
}

/** What an operator is told on making a link: for whom, the link's secret, and the SSO provider the user's domain enforces, if any. */
export interface SignInLinkIssued extends SignInLinkGrant {
  readonly email: string
  /** Under enforced SSO the link is refused as a password is: the operator is told so. */
  readonly sso_enforcement: SsoProvider | null
}

/** A stored link as its use reads it: whose it is and until when it works (its secret is stored only hashed). */
export const SignInLink = Schema.Struct({ user_id: UserId, expires_at: Timestamp })
export type SignInLink = typeof SignInLink.Type

/** When a link stops working, as a terminal shows it: `2026-11-30 14:05 UTC` (timestamps are kept in UTC). */
export const linkExpiryText = (expiresAt: Timestamp): string => `${expiresAt.slice(0, 16).replace("T", " ")} UTC`
