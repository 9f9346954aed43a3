import { Level, type MembershipLevel } from "../../organizations/model.ts"
import { AccessLevel, type FeatureFlagsAccessLevel } from "../../roles/model.ts"
import type { FeatureFlagId, UserId } from "../../shared/ids.ts"

/**
 * PostHog's legacy flag permissions: administrators, owners and a flag's
 * creator may always edit it. Everyone else gets the highest `feature_flags_access_level` among their
 * roles in the organization, or the organization default "can always edit" when they have none; "can
 * only view" allows editing exactly the flags that grant one of their roles access.
 */

/** A caller's roles in the flag's organization, with the flags (of those asked about) granting them access. */
export interface CallerRole {
  readonly level: FeatureFlagsAccessLevel
  readonly flags: ReadonlyArray<FeatureFlagId>
}

export interface Editor {
  /** null for the operator (system actor), who may do anything. */
  readonly user: UserId | null
  readonly level: MembershipLevel
}

interface FlagOwnership {
  readonly id: FeatureFlagId
  readonly created_by_id: UserId | null
}

/** Whether the roles matter at all for these flags: they never do for admins, owners and creators. */
export const needsRoles = (editor: Editor, flags: ReadonlyArray<FlagOwnership>): boolean =>
  editor.user !== null && editor.level < Level.admin && flags.some((flag) => flag.created_by_id !== editor.user)

const effectiveLevel = (roles: ReadonlyArray<CallerRole>): FeatureFlagsAccessLevel =>
  roles.length === 0 ? AccessLevel.canAlwaysEdit : roles.some((role) => role.level === AccessLevel.canAlwaysEdit)
    ? AccessLevel.canAlwaysEdit
    : AccessLevel.canOnlyView

/** `can_edit` for each flag, from one read of the caller's roles. */
export const editRights = (editor: Editor, roles: ReadonlyArray<CallerRole>) => {
  const granted = new Set(roles.flatMap((role) => role.flags))
  const level = effectiveLevel(roles)
  return (flag: FlagOwnership): boolean =>
    editor.user === null ||
    editor.level >= Level.admin ||
    flag.created_by_id === editor.user ||
    level === AccessLevel.canAlwaysEdit ||
    granted.has(flag.id)
}

/**
 * Who may add or remove a flag's role access: administrators, owners, the creator, and members whose
 * roles can always edit (no roles means the organization default, which can). A role granted access to
 * this very flag lets its members edit the flag, not hand access on.
 */
export const canManageRoles = (editor: Editor, roles: ReadonlyArray<CallerRole>, flag: FlagOwnership): boolean =>
  editor.user === null ||
  editor.level >= Level.admin ||
  flag.created_by_id === editor.user ||
  effectiveLevel(roles) === AccessLevel.canAlwaysEdit

/** PostHog's `user_access_level` string for the legacy rules. */
export const accessLevelName = (canEdit: boolean) => (canEdit ? "editor" : "viewer")
