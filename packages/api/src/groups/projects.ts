import { PageEnvelopeOf, ProjectListItem, ProjectView } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ReadErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery } from "./shared.ts"

/** Discovery for PostHog clients: every project the caller can see, across its organizations. */
export class ProjectsGroup extends HttpApiGroup.make("projects")
  .add(
    HttpApiEndpoint.get("list", "/api/projects/", {
      query: ListQuery,
      success: PageEnvelopeOf(ProjectListItem),
      error: ReadErrors
    }),
    HttpApiEndpoint.get("retrieve", "/api/projects/:project_id/", {
      params: { project_id: Schema.String },
      success: ProjectView,
      error: ReadErrors
    })
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Projects" }))
{}
