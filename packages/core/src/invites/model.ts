import { Schema } from "effect"
import { MembershipLevel } from "../organizations/model.ts"
import { InviteId, OrganizationId, ProjectId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"

/** Access to one private project that accepting the invite grants. */
export const PrivateProjectAccess = Schema.Struct({
  id: ProjectId,
  level: Schema.Literals(["member", "admin"])
})
export type PrivateProjectAccess = typeof PrivateProjectAccess.Type

export const InviteRecord = Schema.Struct({
  id: InviteId,
  organization_id: OrganizationId,
  target_email: Schema.String,
  first_name: Schema.String,
  level: MembershipLevel,
  message: Schema.NullOr(Schema.String),
  private_project_access: Schema.Array(PrivateProjectAccess),
  emailing_attempt_made: Schema.Boolean,
  created_by_id: Schema.NullOr(UserId),
  created_at: Timestamp,
  updated_at: Timestamp
})
export type InviteRecord = typeof InviteRecord.Type

/** The Invite resource of interface.md (`send_email`, `combine_pending_invites` are write-only). */
export const Invite = Schema.Struct({
  id: InviteId,
  target_email: Schema.String,
  first_name: Schema.String,
  emailing_attempt_made: Schema.Boolean,
  level: MembershipLevel,
  is_expired: Schema.Boolean,
  created_by: Schema.NullOr(UserSummary),
  created_at: Timestamp,
  updated_at: Timestamp,
  message: Schema.NullOr(Schema.String),
  private_project_access: Schema.Array(PrivateProjectAccess)
})
export type Invite = typeof Invite.Type

/** PostHog's INVITE_DAYS_VALIDITY. */
export const INVITE_DAYS_VALIDITY = 3
