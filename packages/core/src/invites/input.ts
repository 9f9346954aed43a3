import { Schema, SchemaTransformation } from "effect"
import { Bool, Choice, Email, Integer, maxLength, notBlank, Trimmed } from "../shared/fields.ts"

/** `local@Domain.COM` → `local@domain.com`: the local part may be case-sensitive, the domain never is. */
export const lowerDomain = (email: string): string => {
  const at = email.lastIndexOf("@")
  return at < 0 ? email : email.slice(0, at + 1) + email.slice(at + 1).toLowerCase()
}

/** An e-mail address (trimmed, not blank, at most 254 characters), its domain lower-cased as PostHog does. */
export const TargetEmail = Trimmed.check(notBlank).pipe(
  Schema.decodeTo(Email),
  Schema.decodeTo(Schema.String, SchemaTransformation.transform({ decode: lowerDomain, encode: (email: string) => email }))
)

export const InviteLevel = Choice([1, 8, 15])

/** One private project the invite grants, at project `member` or `admin` level. */
export const ProjectAccessInput = Schema.Struct({
  id: Integer,
  level: Choice(["member", "admin"])
})

/** The invite's own fields, in PostHog's order (the first failing field is the one reported). */
export const InviteFields = {
  target_email: TargetEmail,
  first_name: Schema.optionalKey(Trimmed.check(maxLength(30))),
  level: Schema.optionalKey(InviteLevel),
  message: Schema.optionalKey(Schema.NullOr(Trimmed)),
  private_project_access: Schema.optionalKey(Schema.NullOr(Schema.Array(ProjectAccessInput)))
}

/** Write-only switches, validated after the fields above. */
export const InviteOptions = {
  send_email: Schema.optionalKey(Bool),
  combine_pending_invites: Schema.optionalKey(Bool)
}

/** Body of POST /invites/ (and each item of /invites/bulk/). Unknown and read-only keys are dropped. */
export const InviteCreate = Schema.Struct({ ...InviteFields, ...InviteOptions })
export type InviteCreate = typeof InviteCreate.Type

/** PostHog's bulk limit. */
export const MAX_BULK_INVITES = 20
