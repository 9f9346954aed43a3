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
  status: Schema.String
})
export type FeatureFlag = typeof FeatureFlag.Type

/** The FeatureFlagRoleAccess resource. */
export const FeatureFlagRoleAccess = Schema.Struct({
  id: RoleAccessId,
  feature_flag: FeatureFlag,
  role: Role,
  added_at: Timestamp,
  updated_at: Timestamp
})
export type FeatureFlagRoleAccess = typeof FeatureFlagRoleAccess.Type
