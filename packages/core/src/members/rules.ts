import { Level, mayAdminister, mayGrantLevel, mayManageMember, type MembershipLevel } from "../organizations/model.ts"
import { PermissionDenied, ValidationError } from "../shared/errors.ts"
import type { MembershipId } from "../shared/ids.ts"
import type { Membership } from "./model.ts"

/**
 * PostHog's rules for who may change or remove whom, as pure functions, so the service can run them
 * before reading the body and again under the organization lock.
 */

/** The caller's place: a user's membership, or the operator (no membership, owner's powers). */
export interface Seat {
  readonly membership_id: MembershipId | null
  readonly level: MembershipLevel
}

const deny = (detail: string) => new PermissionDenied({ detail })

/** PATCH and DELETE of someone else: admins only, and never someone above the caller. */
export const othersRule = (caller: Seat, target: Membership): PermissionDenied | undefined => {
  if (target.id === caller.membership_id) return undefined
  if (!mayAdminister(caller.level)) return deny("You can only edit others if you are an admin.")
  if (!mayManageMember(caller.level, target.level)) return deny("You can only edit others with level lower or equal to you.")
  return undefined
}

/**
 * A new level. Several owners are allowed: an owner may make another member owner and stays owner.
 */
export const levelRule = (caller: Seat, target: Membership, level: MembershipLevel): PermissionDenied | undefined => {
  if (target.id === caller.membership_id) return deny("You can't change your own access level.")
  if (!mayGrantLevel(caller.level, level)) {
    return deny(
      level === Level.owner
        ? "You can only make another member owner if you're this organization's owner."
        : "You can only change access level of others to lower or equal to your current one."
    )
  }
  return othersRule(caller, target)
}

/** An organization always keeps an owner: its last one can neither leave (nor be removed) nor be demoted. */
export const lastOwnerLeaving = () => ValidationError.field(null, "Cannot leave the organization as its owner!")
export const lastOwnerDemoted = () => ValidationError.field(null, "Cannot demote the organization's only owner.")
