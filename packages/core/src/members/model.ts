import { Schema, Struct } from "effect"
import { MembershipLevel } from "../organizations/model.ts"
import { MembershipId, OrganizationId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { User, UserSummary } from "../users/model.ts"

/** The Member resource: a membership as the API shows it. */
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

/** A user's place in an organization, as the memberships table holds it. */
export const Membership = Schema.Struct({
  ...Struct.pick(Member.fields, ["id", "level", "joined_at", "updated_at"]),
  organization_id: OrganizationId,
  user_id: UserId
})
export type Membership = typeof Membership.Type

/** A user's organizations and level in each: what authentication reads beside a key or a session. */
export const MembershipLevels = Schema.Array(Membership.mapFields(Struct.pick(["organization_id", "level"])))
export type MembershipLevels = typeof MembershipLevels.Type

/** A membership with its (active) user, read in one query. */
export const MemberRecord = Schema.Struct({ membership: Membership, user: User })
export type MemberRecord = typeof MemberRecord.Type
