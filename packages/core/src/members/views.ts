import { toUserSummary } from "../users/model.ts"
import type { Member, MemberRecord } from "./model.ts"

/** Two-factor and social sign-in do not exist here: keys are the only credentials. */
export const toMember = ({ membership, user }: MemberRecord): Member => ({
  id: membership.id,
  user: toUserSummary(user),
  level: membership.level,
  joined_at: membership.joined_at,
  updated_at: membership.updated_at,
  is_2fa_enabled: false,
  has_social_auth: false,
  last_login: user.last_login
})
