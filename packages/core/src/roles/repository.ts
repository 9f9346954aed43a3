import { Context, type Effect, type Option } from "effect"
import type { FeatureFlagsAccessLevel, Role, RoleMembership, RoleRecord } from "./model.ts"
import type { CallerRole } from "../feature-flags/access/edit-rights.ts"
import type { FeatureFlagId, OrganizationId, RoleId, RoleMembershipId, UserId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"

export class RoleNameTaken {
  readonly _tag = "RoleNameTaken"
}
export class AlreadyRoleMember {
  readonly _tag = "AlreadyRoleMember"
}

export class RoleRepository extends Context.Service<RoleRepository, {
  /** Names are unique per organization, case-insensitively. */
  readonly insert: (input: {
    readonly organization_id: OrganizationId
    readonly name: string
    readonly feature_flags_access_level: FeatureFlagsAccessLevel
    readonly created_by_id: UserId | null
  }) => Effect.Effect<RoleRecord, RoleNameTaken>
  readonly findById: (id: RoleId) => Effect.Effect<Option.Option<RoleRecord>>
  /** An organization's roles in the order they were made, ties broken by id. */
  readonly list: (organization: OrganizationId, page: PageRequest) => Effect.Effect<Page<RoleRecord>>
  /** Changes what is given; none when the role is gone. */
  readonly update: (
    id: RoleId,
    change: { readonly name?: string; readonly feature_flags_access_level?: FeatureFlagsAccessLevel }
  ) => Effect.Effect<Option.Option<RoleRecord>, RoleNameTaken>
  /** Deletes the role with its memberships and every flag's grant to it, in one statement. */
  readonly delete: (id: RoleId) => Effect.Effect<boolean>
  readonly addMember: (role: RoleId, user: UserId) => Effect.Effect<RoleMembershipId, AlreadyRoleMember>
  /** The role's members in the order they joined, ties broken by id. */
  readonly memberships: (role: RoleId, page: PageRequest) => Effect.Effect<Page<RoleMembership>>
  /** Memberships rendered with their users, in the order asked. */
  readonly membershipViews: (ids: ReadonlyArray<RoleMembershipId>) => Effect.Effect<ReadonlyArray<RoleMembership>>
  /** False when there was nothing to delete. */
  readonly removeMembership: (role: RoleId, id: RoleMembershipId) => Effect.Effect<boolean>
  /** A user's roles in an organization, each with those of `flags` it has been granted access to. */
  readonly callerRoles: (
    organization: OrganizationId,
    user: UserId,
    flags: ReadonlyArray<FeatureFlagId>
  ) => Effect.Effect<ReadonlyArray<CallerRole>>
  /** Roles rendered with their creator and members, in the order asked. */
  readonly views: (ids: ReadonlyArray<RoleId>) => Effect.Effect<ReadonlyArray<Role>>
}>()("hedgerow/RoleRepository") {}
