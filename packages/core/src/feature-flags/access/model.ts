import { Schema, Struct } from "effect"
import { Role } from "../../roles/model.ts"
import { Json } from "../../shared/fields.ts"
import { FeatureFlagId, RoleAccessId, RoleId } from "../../shared/ids.ts"
import { Timestamp } from "../../shared/time.ts"
import { FlagView } from "../model.ts"

/** A stored role-access row: a role allowed to edit a flag. */
export const FlagRoleAccessRecord = Schema.Struct({
  id: RoleAccessId,
  feature_flag_id: FeatureFlagId,
  role_id: RoleId,
  added_at: Timestamp,
  updated_at: Timestamp
})
export type FlagRoleAccessRecord = typeof FlagRoleAccessRecord.Type

/** A role access as the API answers it: the stored row, with the flag and the role in place of their ids. */
export const FlagRoleAccess = Schema.Struct({
  id: FlagRoleAccessRecord.fields.id,
  feature_flag: FlagView,
  role: Role,
  ...Struct.omit(FlagRoleAccessRecord.fields, ["id", "feature_flag_id", "role_id"])
})
export type FlagRoleAccess = typeof FlagRoleAccess.Type

/** The access levels of PostHog's newer access-control system, lowest first. */
export const ACCESS_LEVELS = ["none", "viewer", "editor"] as const

/**
 * `{id}/access_controls/` and `{id}/global_access_controls/`: the flag with the access-control fields.
 * This service keeps no rows of that system; the role rules decide (see FlagAccessControlsService).
 */
export const FlagAccessControls = Schema.Struct({
  ...FlagView.fields,
  access_controls: Schema.Array(Json),
  available_access_levels: Schema.Array(Schema.String),
  default_access_level: Schema.String,
  user_can_edit_access_levels: Schema.Boolean
})
export type FlagAccessControls = typeof FlagAccessControls.Type
