import { Schema } from "effect"
import { MembershipLevel } from "../organizations/model.ts"
import { MembershipId, OrganizationId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"

/** A user's place in an organization. */
export const Membership = Schema.Struct({
  id: MembershipId,
  organization_id: OrganizationId,
  user_id: UserId,
  level: MembershipLevel,
  joined_at: Timestamp,
  updated_at: Timestamp
})
export type Membership = typeof Membership.Type

/** The Member resource of interface.md. */
export const Member = Schema.Struct({
  id: MembershipId,
  user: UserSummary,
  level: MembershipLevel,
  joined_at: Timestamp,
  updated_at: Timestamp,
  is_2fa_enabled: Schema.Boolean,
  has_social_auth: Schema.Boolean,
  last_login: Schema.NullOr(Timestamp)
})
export type Member = typeof Member.Type
