import { PageEnvelopeOf, ProjectCreate, ProjectListItem, ProjectView } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

/** `/api/organizations/{organization_id}/projects/`. */
export class OrganizationProjectsGroup extends HttpApiGroup.make("organizationProjects")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/:organization_id/projects/", {
      params: OrganizationParam,
      query: ListQuery,
      success: PageEnvelopeOf(ProjectListItem),
      error: ReadErrors
    }).annotate(OpenApi.Description, "Projects of the organization (scope project:read)"),
    HttpApiEndpoint.post("create", "/api/organizations/:organization_id/projects/", {
      params: OrganizationParam,
      payload: ProjectCreate,
      success: ProjectView.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(OpenApi.Description, "Create a project; needs administrator level in the organization (scope project:write)"),
    HttpApiEndpoint.get("retrieve", "/api/organizations/:organization_id/projects/:id/", {
      params: { ...OrganizationParam, id: Schema.String },
      success: ProjectView,
      error: ReadErrors
    }).annotate(OpenApi.Description, "A project of the organization (scope project:read)")
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Organization projects" }))
{}
