import { Context, type Effect, type Option } from "effect"
import type { FeatureFlagsAccessLevel, Role, RoleRecord } from "./model.ts"
import type { CallerRole } from "../feature-flags/edit-rights.ts"
import type { FeatureFlagId, OrganizationId, RoleId, UserId } from "../shared/ids.ts"

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
  readonly addMember: (role: RoleId, user: UserId) => Effect.Effect<void, AlreadyRoleMember>
  /** A user's roles in an organization, each with those of `flags` it has been granted access to. */
  readonly callerRoles: (
    organization: OrganizationId,
    user: UserId,
    flags: ReadonlyArray<FeatureFlagId>
  ) => Effect.Effect<ReadonlyArray<CallerRole>>
  /** Roles rendered with their creator and members, in the order asked. */
  readonly views: (ids: ReadonlyArray<RoleId>) => Effect.Effect<ReadonlyArray<Role>>
}>()("hedgerow/RoleRepository") {}
