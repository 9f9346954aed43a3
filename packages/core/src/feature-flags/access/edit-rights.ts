import { Effect } from "effect"
import type { ProjectAccess } from "../../auth/access.ts"
import type { Actor } from "../../auth/actor.ts"
import { mayAdminister, type MembershipLevel } from "../../organizations/model.ts"
import { AccessLevel, type FeatureFlagsAccessLevel } from "../../roles/model.ts"
import { PermissionDenied } from "../../shared/errors.ts"
import type { FeatureFlagId, UserId } from "../../shared/ids.ts"

/**
 * Who may edit a flag, by the rules PostHog keeps for flags outside its newer access-control system.
 * Administrators, owners and a flag's creator always may. Anyone else takes the highest flag access
 * level among their roles in the organization, or the organization's default, "can always edit", when
 * they have no role; "can only view" still lets them edit the flags that grant one of their roles access.
 */

/** One of the caller's roles in the flag's organization, with the flags (of those asked about) that grant it access. */
export interface CallerRole {
  readonly level: FeatureFlagsAccessLevel
  readonly flags: ReadonlyArray<FeatureFlagId>
}

export interface Editor {
  /** null for the operator (the system actor), who may do anything. */
  readonly user: UserId | null
  readonly level: MembershipLevel
}

/** What the rules read of a flag. */
export interface FlagOwnership {
  readonly id: FeatureFlagId
  readonly created_by_id: UserId | null
}

export const editorOf = (actor: Actor, access: ProjectAccess): Editor => ({
  user: actor._tag === "User" ? actor.user.id : null,
  level: access.level
})

/** The operator, an administrator or an owner: they edit every flag and decide who else may. */
export const isAdministrator = (editor: Editor): boolean => editor.user === null || mayAdminister(editor.level)

/** Whether the roles matter at all for these flags: never for administrators, owners and creators. */
export const needsRoles = (editor: Editor, flags: ReadonlyArray<FlagOwnership>): boolean =>
  !isAdministrator(editor) && flags.some((flag) => flag.created_by_id !== editor.user)

/** Whether the caller edits any flag of the project: as an administrator, or by their roles' level. */
export const editsEveryFlag = (editor: Editor, roles: ReadonlyArray<CallerRole>): boolean =>
  isAdministrator(editor) || roles.length === 0 || roles.some((role) => role.level === AccessLevel.canAlwaysEdit)

/** `can_edit` for each flag, from one read of the caller's roles. */
export const editableBy = (editor: Editor, roles: ReadonlyArray<CallerRole>) => {
  const everyFlag = editsEveryFlag(editor, roles)
  const granted = new Set(roles.flatMap((role) => role.flags))
  return (flag: FlagOwnership): boolean => everyFlag || flag.created_by_id === editor.user || granted.has(flag.id)
}

/**
 * Who may add or remove a flag's role access: administrators, owners, the creator, and members whose
 * roles can always edit. A role granted access to this very flag lets its members edit the flag, not
 * hand access on.
 */
export const canManageRoles = (editor: Editor, roles: ReadonlyArray<CallerRole>, flag: FlagOwnership): boolean =>
  editsEveryFlag(editor, roles) || flag.created_by_id === editor.user

/** `user_access_level` as these rules name it. */
export const accessLevelName = (canEdit: boolean) => (canEdit ? "editor" : "viewer")

/**
 * A caller's rights over the flags of one request, decided from one read of their roles: the request
 * hands this value on to whatever checks or shows them, so that nothing reads the roles again.
 */
export interface EditRights {
  readonly editor: Editor
  readonly canEdit: (flag: FlagOwnership) => boolean
  readonly canManageRoles: (flag: FlagOwnership) => boolean
}

export const editRightsOf = (editor: Editor, roles: ReadonlyArray<CallerRole>): EditRights => ({
  editor,
  canEdit: editableBy(editor, roles),
  canManageRoles: (flag) => canManageRoles(editor, roles, flag)
})

/** Writes to a flag, and the actions that change what surrounds it, need the right to edit it. */
export const requireEdit = (rights: EditRights, flag: FlagOwnership): Effect.Effect<void, PermissionDenied> =>
  rights.canEdit(flag)
    ? Effect.void
    : Effect.fail(new PermissionDenied({ detail: "You don't have edit permissions for this feature flag." }))
