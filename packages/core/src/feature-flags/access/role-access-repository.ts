import { Context, type Effect, type Option } from "effect"
import type { FeatureFlagId, RoleAccessId, RoleId } from "../../shared/ids.ts"
import type { Page, PageRequest } from "../../shared/page.ts"
import type { FlagRoleAccessRecord } from "./model.ts"

/** The (flag, role) constraint refused a second grant. */
export class FlagRoleAccessTaken {
  readonly _tag = "FlagRoleAccessTaken"
}

/** The grants of flags to roles. */
export class FlagRoleAccessRepository extends Context.Service<FlagRoleAccessRepository, {
  /** A flag's grants, ordered by id so that pages neither skip nor repeat rows. */
  readonly list: (flag: FeatureFlagId, page: PageRequest) => Effect.Effect<Page<FlagRoleAccessRecord>>
  readonly find: (flag: FeatureFlagId, id: RoleAccessId) => Effect.Effect<Option.Option<FlagRoleAccessRecord>>
  readonly insert: (flag: FeatureFlagId, role: RoleId) => Effect.Effect<FlagRoleAccessRecord, FlagRoleAccessTaken>
  readonly remove: (id: RoleAccessId) => Effect.Effect<void>
}>()("hedgerow/FlagRoleAccessRepository") {}
