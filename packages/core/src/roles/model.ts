import { Schema } from "effect"
import { OrganizationId, RoleId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"
import { Member } from "../members/model.ts"

/** Legacy feature-flag access levels of a role (PostHog's OrganizationResourceAccess). */
export const FeatureFlagsAccessLevel = Schema.Literals([21, 37])
export type FeatureFlagsAccessLevel = typeof FeatureFlagsAccessLevel.Type
export const AccessLevel = { canOnlyView: 21, canAlwaysEdit: 37 } as const

export const RoleRecord = Schema.Struct({
  id: RoleId,
  organization_id: OrganizationId,
  name: Schema.String,
  feature_flags_access_level: FeatureFlagsAccessLevel,
  created_by_id: Schema.NullOr(UserId),
  created_at: Timestamp
})
export type RoleRecord = typeof RoleRecord.Type

/** The Role resource: `members` lists member summaries (D5). */
export const Role = Schema.Struct({
  id: RoleId,
  name: Schema.String,
  feature_flags_access_level: FeatureFlagsAccessLevel,
  created_at: Timestamp,
  created_by: Schema.NullOr(UserSummary),
  members: Schema.Array(Member)
})
export type Role = typeof Role.Type
