import {
  ActionSuccess,
  ActivityPageEnvelope,
  AddPersonsBody,
  BasicCohortView,
  CohortListQueryFields,
  CohortPersons,
  CohortView,
  CohortWrite,
  CohortWriteForm,
  MAX_ADDED_AT_ONCE,
  PageEnvelopeOf,
  QueryText,
  RemovePersonBody
} from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { MethodNotAllowedResponse, ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery } from "./shared.ts"

const ProjectParam = { project_id: Schema.String }
const CohortParams = { project_id: Schema.String, id: Schema.String }
const ActivityQuery = { page: Schema.optionalKey(QueryText), limit: Schema.optionalKey(QueryText) }
/** A cohort as JSON, or as a form that may carry a CSV of distinct ids in its `csv` file. */
const CohortPayload = [CohortWrite, CohortWriteForm.pipe(HttpApiSchema.asMultipart())]

const WRITE = "PATCH and PUT alike: `deleted: true` soft-deletes it (refused while an active flag or another cohort uses it), " +
  "`deleted: false` restores it; a static cohort's form may carry a `csv` of distinct ids, added to it (scope cohort:write)"

/** `/api/projects/{project_id}/cohorts/`. Path ids stay text: core decides what is 404. */
export class CohortsGroup extends HttpApiGroup.make("cohorts")
  .add(
    HttpApiEndpoint.get("list", "/api/projects/:project_id/cohorts/", {
      params: ProjectParam,
      query: { ...ListQuery, ...CohortListQueryFields },
      success: PageEnvelopeOf(Schema.Union([CohortView, BasicCohortView])),
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Live cohorts, newest first; `type` (static, dynamic), `created_by_id`, `search` (name), `hide_behavioral_cohorts`, `basic` (scope cohort:read)"
    ),
    HttpApiEndpoint.post("create", "/api/projects/:project_id/cohorts/", {
      params: ProjectParam,
      payload: CohortPayload,
      success: CohortView.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Create a dynamic cohort (`filters`) or a static one (`is_static`), filled from `_create_static_person_ids` or a form's `csv`, both distinct ids (scope cohort:write)"
    ),
    HttpApiEndpoint.get("projectActivity", "/api/projects/:project_id/cohorts/activity/", {
      params: ProjectParam,
      query: ActivityQuery,
      success: ActivityPageEnvelope,
      error: ReadErrors
    }).annotate(OpenApi.Description, "Activity of every cohort in the project, newest first, by `page` and `limit` (scope activity_log:read)"),
    HttpApiEndpoint.get("retrieve", "/api/projects/:project_id/cohorts/:id/", {
      params: CohortParams,
      success: CohortView,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A cohort, soft-deleted ones included (scope cohort:read)"),
    HttpApiEndpoint.patch("update", "/api/projects/:project_id/cohorts/:id/", {
      params: CohortParams,
      payload: CohortPayload,
      success: CohortView,
      error: WriteErrors
    }).annotate(OpenApi.Description, `Change a cohort. ${WRITE}`),
    HttpApiEndpoint.put("replace", "/api/projects/:project_id/cohorts/:id/", {
      params: CohortParams,
      payload: CohortPayload,
      success: CohortView,
      error: WriteErrors
    }).annotate(OpenApi.Description, `Change a cohort, as PATCH does. ${WRITE}`),
    HttpApiEndpoint.delete("destroy", "/api/projects/:project_id/cohorts/:id/", {
      params: CohortParams,
      success: HttpApiSchema.NoContent,
      error: [...ReadErrors, MethodNotAllowedResponse]
    }).annotate(
      OpenApi.Description,
      "Always refused with 405: hard delete of this model is not allowed; PATCH `deleted: true` instead (scope cohort:write)"
    ),
    HttpApiEndpoint.get("persons", "/api/projects/:project_id/cohorts/:id/persons/", {
      params: CohortParams,
      query: ListQuery,
      success: CohortPersons,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "A static cohort's members, by distinct id in code point order, as PostHog's persons (`type`, `name`, `distinct_ids`, `properties`); `limit` (100) and `offset` (scopes cohort:read and person:read)"
    ),
    HttpApiEndpoint.patch("addPersons", "/api/projects/:project_id/cohorts/:id/add_persons_to_static_cohort/", {
      params: CohortParams,
      payload: AddPersonsBody,
      success: ActionSuccess,
      error: WriteErrors
    }).annotate(OpenApi.Description, `Add \`person_ids\`, distinct ids here (1 to ${MAX_ADDED_AT_ONCE}), to a static cohort (scope cohort:write)`),
    HttpApiEndpoint.patch("removePerson", "/api/projects/:project_id/cohorts/:id/remove_person_from_static_cohort/", {
      params: CohortParams,
      payload: RemovePersonBody,
      success: ActionSuccess,
      error: WriteErrors
    }).annotate(OpenApi.Description, "Take `person_id`, a distinct id here, out of a static cohort, whether or not it was in (scope cohort:write)"),
    HttpApiEndpoint.get("activity", "/api/projects/:project_id/cohorts/:id/activity/", {
      params: CohortParams,
      query: ActivityQuery,
      success: ActivityPageEnvelope,
      error: ReadErrors
    }).annotate(OpenApi.Description, "The cohort's activity, newest first, by `page` and `limit` (scope activity_log:read)")
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Cohorts" }))
{}
