import { Schema } from "effect"
import { Email, JsonObject, Text } from "../shared/fields.ts"
import { OrganizationId, ProjectId, UserId, UserUuid } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** A user as PostHog embeds one in other resources. */
export const UserSummary = Schema.Struct({
  id: UserId,
  uuid: UserUuid,
  distinct_id: Schema.String,
  first_name: Schema.String,
  last_name: Schema.String,
  email: Schema.String,
  is_email_verified: Schema.Boolean,
  hedgehog_config: Schema.NullOr(JsonObject),
  role_at_organization: Schema.NullOr(Schema.String)
})
export type UserSummary = typeof UserSummary.Type

/** A person who can hold memberships and personal API keys: the summary plus what only the service sees. */
export const User = Schema.Struct({
  ...UserSummary.fields,
  current_organization_id: Schema.NullOr(OrganizationId),
  current_project_id: Schema.NullOr(ProjectId),
  is_active: Schema.Boolean,
  last_login: Schema.NullOr(Timestamp),
  created_at: Timestamp
})
export type User = typeof User.Type

export const toUserSummary = (user: User): UserSummary => ({
  id: user.id,
  uuid: user.uuid,
  distinct_id: user.distinct_id,
  first_name: user.first_name,
  last_name: user.last_name,
  email: user.email,
  is_email_verified: user.is_email_verified,
  hedgehog_config: user.hedgehog_config,
  role_at_organization: user.role_at_organization
})

export const ROLES_AT_ORGANIZATION = [
  "engineering", "data", "product", "founder", "leadership", "marketing", "sales", "other", ""
] as const

/** The longest first or last name a user may have, as in PostHog. */
export const NAME_MAX_LENGTH = 150

/** What the admin CLI (or an embedding app) supplies to create a user. */
export const UserCreate = Schema.Struct({
  email: Email,
  first_name: Schema.optionalKey(Text({ max: NAME_MAX_LENGTH, allowBlank: true })),
  last_name: Schema.optionalKey(Text({ max: NAME_MAX_LENGTH, allowBlank: true }))
})
export type UserCreate = typeof UserCreate.Type

/** `GET /api/users/@me/`: the caller with its organizations and current project, which clients ask first to find their way. */
export const OrganizationBrief = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  slug: Schema.String,
  membership_level: Schema.NullOr(Schema.Int)
})
export const Me = Schema.Struct({
  ...UserSummary.fields,
  /** Whether the user logs in with an authenticator app's code too (two-factor authentication). */
  is_2fa_enabled: Schema.Boolean,
  organization: Schema.NullOr(OrganizationBrief),
  organizations: Schema.Array(OrganizationBrief),
  team: Schema.NullOr(Schema.Struct({
    id: Schema.Int,
    uuid: Schema.String,
    organization: Schema.String,
    name: Schema.String,
    api_token: Schema.String
  }))
})
export type Me = typeof Me.Type
