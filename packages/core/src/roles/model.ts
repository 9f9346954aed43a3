import { Schema, Struct } from "effect"
import { OrganizationId, RoleId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"
import { Member } from "../members/model.ts"

/** Legacy feature-flag access levels of a role (PostHog's OrganizationResourceAccess). */
export const FeatureFlagsAccessLevel = Schema.Literals([21, 37])
export type FeatureFlagsAccessLevel = typeof FeatureFlagsAccessLevel.Type
export const AccessLevel = { canOnlyView: 21, canAlwaysEdit: 37 } as const

/** The Role resource: `members` lists the role's members, each in the Member resource's form. */
export const Role = Schema.Struct({
  id: RoleId,
  name: Schema.String,
  feature_flags_access_level: FeatureFlagsAccessLevel,
  created_at: Timestamp,
  created_by: Schema.NullOr(UserSummary),
  members: Schema.Array(Member)
})
export type Role = typeof Role.Type

/** A role as the roles table holds it: its organization and creator by id, no members. */
export const RoleRecord = Schema.Struct({
  ...Struct.omit(Role.fields, ["created_by", "members"]),
  organization_id: OrganizationId,
  created_by_id: Schema.NullOr(UserId)
})
export type RoleRecord = typeof RoleRecord.Type
