import { Schema } from "effect"
import { Bool, Text } from "../shared/fields.ts"
import { NewPassword } from "../users/password.ts"

/** `GET /api/signup/{invite_id}/`: what the accept page shows, the address masked as PostHog masks it. */
export const InvitePrevalidation = Schema.Struct({
  id: Schema.String,
  target_email: Schema.String,
  first_name: Schema.String,
  organization_name: Schema.String
})
export type InvitePrevalidation = typeof InvitePrevalidation.Type

/**
 * The body of an invite's acceptance: a new user's first name and password (both required then, see the
 * service); a logged-in user who joins sends neither. `email_opt_in` is read and has no effect here.
 */
export const InviteAccept = Schema.Struct({
  first_name: Schema.optionalKey(Text({ max: 128 })),
  password: Schema.optionalKey(NewPassword),
  email_opt_in: Schema.optionalKey(Bool)
})
export type InviteAccept = typeof InviteAccept.Type

/** An address masked as PostHog masks it: `testemail@posthog.com` → `t*******l@posthog.com`, a one-letter name `*@…`. */
export const maskEmail = (email: string): string => {
  const at = email.indexOf("@")
  if (at <= 0) return email
  if (at === 1) return `*${email.slice(at)}`
  return `${email[0]}${"*".repeat(at - 2)}${email.slice(at - 1)}`
}
