import { Schema } from "effect"
import { DashboardId, FeatureFlagId, ProjectId, RoleAccessId, UserId } from "../shared/ids.ts"
import { Json, JsonObject } from "../shared/fields.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"
import { Role } from "../roles/model.ts"

export const CreationContext = Schema.Literals([
  "feature_flags", "experiments", "surveys", "early_access_features", "web_experiments"
])
export type CreationContext = typeof CreationContext.Type

export const EvaluationRuntime = Schema.Literals(["server", "client", "all"])
export type EvaluationRuntime = typeof EvaluationRuntime.Type

/** A stored flag definition. `version` grows by one on every change (optimistic concurrency, D5). */
export const FeatureFlagRecord = Schema.Struct({
  id: FeatureFlagId,
  project_id: ProjectId,
  key: Schema.String,
  name: Schema.String,
  /** As written: PostHog keeps `{}` for a flag created without filters and renders it as one open group. */
  filters: JsonObject,
  deleted: Schema.Boolean,
  active: Schema.Boolean,
  version: Schema.Int,
  ensure_experience_continuity: Schema.Boolean,
  rollback_conditions: Json,
  performed_rollback: Schema.Boolean,
  tags: Schema.Array(Schema.String),
  usage_dashboard_id: Schema.NullOr(DashboardId),
  analytics_dashboards: Schema.Array(DashboardId),
  has_enriched_analytics: Schema.Boolean,
  is_remote_configuration: Schema.Boolean,
  has_encrypted_payloads: Schema.Boolean,
  evaluation_runtime: EvaluationRuntime,
  creation_context: CreationContext,
  created_by_id: Schema.NullOr(UserId),
  last_modified_by_id: Schema.NullOr(UserId),
  created_at: Timestamp,
  updated_at: Timestamp
})
export type FeatureFlagRecord = typeof FeatureFlagRecord.Type

/** A stored flag with the users it names, read in one query. */
export interface StoredFeatureFlag extends FeatureFlagRecord {
  readonly created_by: UserSummary | null
  readonly last_modified_by: UserSummary | null
}

/** The flag's status as the body carries it: the upper-case name of the `/status/` value. */
export const FlagStatusName = Schema.Literals(["ACTIVE", "STALE", "INACTIVE", "DELETED"])
export type FlagStatusName = typeof FlagStatusName.Type

/** The FeatureFlag resource of interface.md, with PostHog's extra read-only fields. */
export const FeatureFlag = Schema.Struct({
  id: FeatureFlagId,
  name: Schema.String,
  key: Schema.String,
  filters: JsonObject,
  deleted: Schema.Boolean,
  active: Schema.Boolean,
  created_by: Schema.NullOr(UserSummary),
  created_at: Timestamp,
  updated_at: Timestamp,
  version: Schema.Int,
  last_modified_by: Schema.NullOr(UserSummary),
  is_simple_flag: Schema.Boolean,
  rollout_percentage: Schema.NullOr(Schema.Number),
  ensure_experience_continuity: Schema.Boolean,
  experiment_set: Schema.Array(Schema.Int),
  /**
   * Linked surveys and early-access features: "object with arbitrary keys" in interface.md and PostHog's
   * schema (its server renders lists). This service links none, so both are `{}`.
   */
  surveys: JsonObject,
  features: JsonObject,
  rollback_conditions: Json,
  performed_rollback: Schema.Boolean,
  can_edit: Schema.Boolean,
  tags: Schema.Array(Schema.String),
  usage_dashboard: Schema.NullOr(DashboardId),
  analytics_dashboards: Schema.Array(DashboardId),
  has_enriched_analytics: Schema.Boolean,
  user_access_level: Schema.NullOr(Schema.String),
  creation_context: CreationContext,
  is_remote_configuration: Schema.Boolean,
  has_encrypted_payloads: Schema.Boolean,
  evaluation_runtime: EvaluationRuntime,
  status: FlagStatusName
})
export type FeatureFlag = typeof FeatureFlag.Type

/** `GET {id}/status/` (D5): lower-case values. */
export const FlagStatusValue = Schema.Literals(["active", "stale", "inactive", "deleted"])
export type FlagStatusValue = typeof FlagStatusValue.Type
export const FeatureFlagStatus = Schema.Struct({
  status: FlagStatusValue,
  reason: Schema.String
})
export type FeatureFlagStatus = typeof FeatureFlagStatus.Type

/** The FeatureFlagRoleAccess resource. */
export const FeatureFlagRoleAccess = Schema.Struct({
  id: RoleAccessId,
  feature_flag: FeatureFlag,
  role: Role,
  added_at: Timestamp,
  updated_at: Timestamp
})
export type FeatureFlagRoleAccess = typeof FeatureFlagRoleAccess.Type

/** A stored role-access row. */
export interface RoleAccessRecord {
  readonly id: RoleAccessId
  readonly feature_flag_id: FeatureFlagId
  readonly role_id: string
  readonly added_at: Timestamp
  readonly updated_at: Timestamp
}

/** Access levels of PostHog's access-control system, lowest first. */
export const ACCESS_LEVELS = ["none", "viewer", "editor"] as const

/**
 * `{id}/access_controls/` and `{id}/global_access_controls/` (D5): the flag plus the access-control
 * fields. This service has no per-object access-control rows; the legacy role rules decide.
 */
export const FeatureFlagAccessControls = Schema.Struct({
  ...FeatureFlag.fields,
  access_controls: Schema.Array(Json),
  available_access_levels: Schema.Array(Schema.String),
  default_access_level: Schema.String,
  user_can_edit_access_levels: Schema.Boolean
})
export type FeatureFlagAccessControls = typeof FeatureFlagAccessControls.Type

/** `dashboard` and `enrich_usage_dashboard` answer PostHog's `{"success": true}`. */
export const ActionSuccess = Schema.Struct({ success: Schema.Literal(true) })
export type ActionSuccess = typeof ActionSuccess.Type
