import {
  ActionSuccess,
  ActivityPageEnvelope,
  EvaluationReasons,
  FlagAccessControls,
  FlagCreateBody,
  FlagListQueryFields,
  FlagStatus,
  FlagTestEvaluation,
  FlagTestEvaluationBody,
  FlagUpdateBody,
  FlagView,
  PageEnvelopeOf,
  QueryText,
  StaticCohortCreated
} from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AuthenticationErrorResponse, ConflictResponse, MethodNotAllowedResponse, ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery } from "./shared.ts"

const ProjectParam = { project_id: Schema.String }
const FlagParams = { project_id: Schema.String, id: Schema.String }
const ActivityQuery = { page: Schema.optionalKey(QueryText), limit: Schema.optionalKey(QueryText) }
/** `?token=`, a project's public token, names the project instead of the path (PostHog's routing lets it). */
const TokenQuery = { token: Schema.optionalKey(QueryText) }
/** A `?token=` that names no project is a 401 too, as a bad key is. */
const TokenReadErrors = [...ReadErrors, AuthenticationErrorResponse] as const

/** `/api/projects/{project_id}/feature_flags/`. Path ids stay text: core decides what is 404. */
export class FeatureFlagsGroup extends HttpApiGroup.make("featureFlags")
  .add(
    HttpApiEndpoint.get("list", "/api/projects/:project_id/feature_flags/", {
      params: ProjectParam,
      query: { ...ListQuery, ...FlagListQueryFields },
      success: PageEnvelopeOf(FlagView),
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Live flags, newest first; `search` (key or name), `type` (boolean, multivariant, experiment), `active` (true, false, STALE), `created_by_id`, `tags` (JSON list), `order`; `deleted=true` (Hedgerow's own) lists the soft-deleted flags instead, last deleted first, by `search` only (scope feature_flag:read)"
    ),
    HttpApiEndpoint.post("create", "/api/projects/:project_id/feature_flags/", {
      params: ProjectParam,
      payload: FlagCreateBody,
      success: FlagView.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(OpenApi.Description, "Create a flag, with its usage dashboard unless `_should_create_usage_dashboard` is false (scope feature_flag:write)"),
    HttpApiEndpoint.get("projectActivity", "/api/projects/:project_id/feature_flags/activity/", {
      params: ProjectParam,
      query: ActivityQuery,
      success: ActivityPageEnvelope,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Activity of every flag in the project, newest first, by `page` and `limit` (scope activity_log:read)"),
    HttpApiEndpoint.get("evaluationReasons", "/api/projects/:project_id/feature_flags/evaluation_reasons/", {
      params: ProjectParam,
      query: { ...TokenQuery, distinct_id: Schema.optionalKey(QueryText), groups: Schema.optionalKey(QueryText) },
      success: EvaluationReasons,
      error: TokenReadErrors
    }).annotate(
      OpenApi.Description,
      "Every flag's value for `distinct_id` (and `groups`, a JSON object of group type to key) and why: `{key: {value, evaluation: {reason, condition_index}}}`, inactive flags `disabled` (scope feature_flag:read)"
    ),
    HttpApiEndpoint.post("testEvaluation", "/api/projects/:project_id/feature_flags/:id/test_evaluation/", {
      params: FlagParams,
      payload: FlagTestEvaluationBody,
      success: FlagTestEvaluation,
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "The flag evaluated for the body's person (`distinct_id`, `person_properties`, `groups`, `group_properties`, read as `/flags` reads them) as `/flags?v=2` answers it, `flag` null where `/flags` would leave it out; a test, so the flag is not marked as called (scope feature_flag:read)"
    ),
    HttpApiEndpoint.get("remoteConfig", "/api/projects/:project_id/feature_flags/:id/remote_config/", {
      params: FlagParams,
      query: TokenQuery,
      success: Schema.Unknown,
      error: TokenReadErrors
    }).annotate(
      OpenApi.Description,
      "A remote configuration flag's payload (named by id or key), as stored (JSON text), or null; a flag that is not one, or none by that name, is 404 with a null body (scope feature_flag:read)"
    ),
    HttpApiEndpoint.get("retrieve", "/api/projects/:project_id/feature_flags/:id/", {
      params: FlagParams,
      success: FlagView,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A flag, soft-deleted ones included (scope feature_flag:read)"),
    HttpApiEndpoint.patch("update", "/api/projects/:project_id/feature_flags/:id/", {
      params: FlagParams,
      payload: FlagUpdateBody,
      success: FlagView,
      error: [...WriteErrors, ConflictResponse]
    }).annotate(
      OpenApi.Description,
      "Change a flag; `deleted: true` soft-deletes it and `deleted: false` restores it; a stale `version` is refused with 409 (scope feature_flag:write)"
    ),
    HttpApiEndpoint.delete("destroy", "/api/projects/:project_id/feature_flags/:id/", {
      params: FlagParams,
      success: HttpApiSchema.NoContent,
      error: [...ReadErrors, MethodNotAllowedResponse]
    }).annotate(
      OpenApi.Description,
      "Always refused with 405: hard delete of this model is not allowed; PATCH `deleted: true` instead (scope feature_flag:write)"
    ),
    HttpApiEndpoint.get("status", "/api/projects/:project_id/feature_flags/:id/status/", {
      params: FlagParams,
      success: FlagStatus,
      error: ReadErrors
    }).annotate(OpenApi.Description, "`active`, `stale`, `inactive` or `deleted`, with the reason (scope feature_flag:read)"),
    HttpApiEndpoint.get("activity", "/api/projects/:project_id/feature_flags/:id/activity/", {
      params: FlagParams,
      query: ActivityQuery,
      success: ActivityPageEnvelope,
      error: ReadErrors
    }).annotate(OpenApi.Description, "The flag's activity, newest first, by `page` and `limit` (scope activity_log:read)"),
    HttpApiEndpoint.get("accessControls", "/api/projects/:project_id/feature_flags/:id/access_controls/", {
      params: FlagParams,
      success: FlagAccessControls,
      error: ReadErrors
    }).annotate(OpenApi.Description, "The flag and its access-control levels (scope feature_flag:read or access_control:read)"),
    HttpApiEndpoint.get("globalAccessControls", "/api/projects/:project_id/feature_flags/:id/global_access_controls/", {
      params: FlagParams,
      success: FlagAccessControls,
      error: ReadErrors
    }).annotate(OpenApi.Description, "The flag and the project-wide access-control levels for flags (scope feature_flag:read or access_control:read)"),
    HttpApiEndpoint.post("createStaticCohort", "/api/projects/:project_id/feature_flags/:id/create_static_cohort_for_flag/", {
      params: FlagParams,
      success: StaticCohortCreated.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(OpenApi.Description, "A static cohort named after the flag; it holds no persons here (scope feature_flag:write)"),
    HttpApiEndpoint.post("dashboard", "/api/projects/:project_id/feature_flags/:id/dashboard/", {
      params: FlagParams,
      success: ActionSuccess,
      error: WriteErrors
    }).annotate(OpenApi.Description, "Generate a new usage dashboard for the flag (scope feature_flag:write)"),
    HttpApiEndpoint.post("enrichUsageDashboard", "/api/projects/:project_id/feature_flags/:id/enrich_usage_dashboard/", {
      params: FlagParams,
      success: ActionSuccess,
      error: WriteErrors
    }).annotate(OpenApi.Description, "Add the enriched-analytics insights to the flag's usage dashboard (scope feature_flag:write)")
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Feature flags" }))
{}
