import { Schema } from "effect"
import { Json, JsonObject } from "../shared/fields.ts"
import { DashboardId, FeatureFlagId, ProjectId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"

/** Where in PostHog's product a flag was made. */
export const CREATION_CONTEXTS = ["feature_flags", "experiments", "surveys", "early_access_features", "web_experiments"] as const
export const CreationContext = Schema.Literals(CREATION_CONTEXTS)
export type CreationContext = typeof CreationContext.Type

/** Which SDKs evaluate a flag: those on a server, those in a browser or app, or both. */
export const EVALUATION_RUNTIMES = ["server", "client", "all"] as const
export const EvaluationRuntime = Schema.Literals(EVALUATION_RUNTIMES)
export type EvaluationRuntime = typeof EvaluationRuntime.Type

/** A stored flag definition. `version` grows by one on every change (optimistic concurrency). */
export const FlagRecord = Schema.Struct({
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
export type FlagRecord = typeof FlagRecord.Type

/** A stored flag with its creator and last modifier as the API shows a user, read in one statement. */
export const StoredFlag = Schema.Struct({
  ...FlagRecord.fields,
  created_by: Schema.NullOr(UserSummary),
  last_modified_by: Schema.NullOr(UserSummary)
})
export type StoredFlag = typeof StoredFlag.Type

/** The flag's status as the body carries it: the upper-case name of the `/status/` value. */
export const FlagStatusName = Schema.Literals(["ACTIVE", "STALE", "INACTIVE", "DELETED"])
export type FlagStatusName = typeof FlagStatusName.Type

/** What the answer adds to a stored flag: values computed for the caller, and links this service keeps empty. */
const answerOnlyFields = {
  is_simple_flag: Schema.Boolean,
  rollout_percentage: Schema.NullOr(Schema.Number),
  experiment_set: Schema.Array(Schema.Int),
  /**
   * Linked surveys and early-access features: an object with arbitrary keys in PostHog's schema (its
   * server renders lists). This service links none, so both are `{}`.
   */
  surveys: JsonObject,
  features: JsonObject,
  can_edit: Schema.Boolean,
  /** `usage_dashboard_id` under the name the API gives it. */
  usage_dashboard: FlagRecord.fields.usage_dashboard_id,
  user_access_level: Schema.NullOr(Schema.String),
  status: FlagStatusName,
  /**
   * When the flag was last called (answered by an evaluation, or its remote configuration fetched: see
   * FlagUsage), or null. Not part of the definition: a call changes neither `version` nor `updated_at`.
   */
  last_called_at: Schema.NullOr(Timestamp)
}

/**
 * The answer's fields, in the order PostHog prints them. The stored fields left out are internal: the
 * project, the users' ids (the users themselves are shown) and `usage_dashboard_id` (shown as
 * `usage_dashboard`).
 */
export const FLAG_VIEW_FIELDS = [
  "id", "name", "key", "filters", "deleted", "active", "created_by", "created_at", "updated_at", "version",
  "last_modified_by", "is_simple_flag", "rollout_percentage", "ensure_experience_continuity", "experiment_set",
  "surveys", "features", "rollback_conditions", "performed_rollback", "can_edit", "tags", "usage_dashboard",
  "analytics_dashboards", "has_enriched_analytics", "user_access_level", "creation_context",
  "is_remote_configuration", "has_encrypted_payloads", "evaluation_runtime", "status", "last_called_at"
] as const

/** `keys`' entries of `fields`, in the order of `keys` (Struct.pick keeps the source's order). */
const fieldsInOrder = <F extends Schema.Struct.Fields, const K extends ReadonlyArray<keyof F>>(fields: F, keys: K) =>
  Object.fromEntries(keys.map((key) => [key, fields[key]])) as Pick<F, K[number]>

/** A flag as the API answers it: the stored flag's fields and the read-only ones the answer adds. */
export const FlagView = Schema.Struct(
  fieldsInOrder({ ...StoredFlag.fields, ...answerOnlyFields }, FLAG_VIEW_FIELDS)
)
export type FlagView = typeof FlagView.Type

/** `GET {id}/status/`: the status in lower case, and why. */
export const FlagStatusValue = Schema.Literals(["active", "stale", "inactive", "deleted"])
export type FlagStatusValue = typeof FlagStatusValue.Type
export const FlagStatus = Schema.Struct({
  status: FlagStatusValue,
  reason: Schema.String
})
export type FlagStatus = typeof FlagStatus.Type

/** `dashboard` and `enrich_usage_dashboard` answer PostHog's `{"success": true}`. */
export const ActionSuccess = Schema.Struct({ success: Schema.Literal(true) })
export type ActionSuccess = typeof ActionSuccess.Type
