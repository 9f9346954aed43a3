import { Schema } from "effect"
import { Text } from "../shared/fields.ts"
import { UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/**
 * A user's authenticator app as the store keeps it. The secret must be used at every log-in, so it is
 * kept as it is (as webhooks' signing secrets are) and never shown again after setup. `last_step` is the
 * step of the last code taken, which no code may reuse; `failure_count` and `failed_at` pace guesses.
 */
export const TwoFactorDevice = Schema.Struct({
  user_id: UserId,
  secret: Schema.String,
  last_step: Schema.NullOr(Schema.Number),
  failure_count: Schema.Number,
  failed_at: Schema.NullOr(Timestamp)
})
export type TwoFactorDevice = typeof TwoFactorDevice.Type

/** A log-in whose password was right, waiting for its code: whose it is, and until when. */
export const PendingLogin = Schema.Struct({
  id: Schema.String,
  user_id: UserId,
  expires_at: Timestamp
})
export type PendingLogin = typeof PendingLogin.Type

/** The body that carries a code: six digits from the app, or a backup code. */
export const TokenBody = Schema.Struct({ token: Text() })

/**
 * The answer to starting setup: PostHog's `success` and `secret` (base32, for typing into an app), and
 * the `otpauth://` address a console turns into a QR code without asking the server for an image.
 */
export const TwoFactorSetup = Schema.Struct({
  success: Schema.Boolean,
  secret: Schema.String,
  otpauth_uri: Schema.String
})

/**
 * Whether the user has two-factor authentication, and how. PostHog lists the backup codes themselves;
 * here they are stored only as hashes, so `backup_codes` is always empty and `backup_codes_remaining`
 * says how many are left.
 */
export const TwoFactorStatus = Schema.Struct({
  is_enabled: Schema.Boolean,
  backup_codes: Schema.Array(Schema.String),
  backup_codes_remaining: Schema.Number,
  method: Schema.NullOr(Schema.Literal("TOTP"))
})
export type TwoFactorStatus = typeof TwoFactorStatus.Type

/** New backup codes, shown this once. */
export const BackupCodes = Schema.Struct({ backup_codes: Schema.Array(Schema.String) })

/** How long a started setup waits for its first code, and a password log-in for its code, as in PostHog: ten minutes. */
export const TWO_FACTOR_WAIT_SECONDS = 600
