import { DAY_MS, millisOf } from "../shared/time.ts"
import type { UserSummary } from "../users/model.ts"
import { INVITE_DAYS_VALIDITY, type Invite, type InviteRecord } from "./model.ts"

const VALIDITY_MS = INVITE_DAYS_VALIDITY * DAY_MS

/** Expired: created more than three days ago. */
export const isExpired = (invite: InviteRecord, now: number): boolean => millisOf(invite.created_at) + VALIDITY_MS < now

export const toInvite = (invite: InviteRecord, createdBy: UserSummary | null, now: number): Invite => ({
  id: invite.id,
  target_email: invite.target_email,
  first_name: invite.first_name,
  emailing_attempt_made: invite.emailing_attempt_made,
  level: invite.level,
  is_expired: isExpired(invite, now),
  created_by: createdBy,
  created_at: invite.created_at,
  updated_at: invite.updated_at,
  message: invite.message,
  private_project_access: invite.private_project_access
})
