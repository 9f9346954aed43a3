import type { MailMessage } from "../mail/mailer.ts"
import type { Site } from "../shared/site.ts"
import type { User } from "../users/model.ts"

/**
 * The notices a user gets when their log-in changes, as PostHog sends them: two-factor authentication
 * turned on, turned off, and a backup code used. They say what happened and what to do if it was not
 * them; they never hold a secret or a code.
 */
export type TwoFactorNotice = "two_factor_enabled" | "two_factor_disabled" | "two_factor_backup_code_used"

const WORDS: Record<TwoFactorNotice, { readonly subject: string; readonly what: string }> = {
  two_factor_enabled: {
    subject: "Two-factor authentication is on for your Hedgerow account",
    what: "Two-factor authentication was turned on for your account: logging in with your password now also asks for a code from your authenticator app."
  },
  two_factor_disabled: {
    subject: "Two-factor authentication is off for your Hedgerow account",
    what: "Two-factor authentication was turned off for your account: your password alone now logs you in."
  },
  two_factor_backup_code_used: {
    subject: "A backup code was used to log in to your Hedgerow account",
    what: "One of your two-factor backup codes was just used to log in to your account. It cannot be used again."
  }
}

export const twoFactorEmail = (notice: TwoFactorNotice, user: User, site: Site): MailMessage => ({
  to: user.email,
  subject: WORDS[notice].subject,
  text: [
    "Hi,",
    "",
    WORDS[notice].what,
    "",
    `If this was not you, change your password at once, and check your two-factor authentication, at ${site.url}`,
    ""
  ].join("\n")
})
