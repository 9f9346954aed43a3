import { Schema, Struct } from "effect"
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

/** The Invite resource (`send_email` and `combine_pending_invites` are taken on create, never shown). */
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

/** An invite as the invites table holds it: its organization and creator by id; expiry is computed. */
export const InviteRecord = Schema.Struct({
  ...Struct.omit(Invite.fields, ["is_expired", "created_by"]),
  organization_id: OrganizationId,
  created_by_id: Schema.NullOr(UserId)
})
export type InviteRecord = typeof InviteRecord.Type

/** What a new invite's row is given; the database fills in its id and times. */
export const NewInvite = InviteRecord.mapFields(Struct.omit(["id", "created_at", "updated_at"]))
export type NewInvite = typeof NewInvite.Type

/** An invite with its creator, read in one query. */
export const InviteWithCreator = Schema.Struct({ invite: InviteRecord, created_by: Invite.fields.created_by })
export type InviteWithCreator = typeof InviteWithCreator.Type

/** How many days an invite can be used. */
export const INVITE_DAYS_VALIDITY = 3
