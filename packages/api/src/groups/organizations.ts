import { OrganizationCreate, OrganizationUpdate, OrganizationView, PageEnvelopeOf } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { ReadErrors, WriteErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

/** The caller's organizations: discovery for PostHog clients, and founding, renaming and removing one. */
export class OrganizationsGroup extends HttpApiGroup.make("organizations")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/", {
      query: ListQuery,
      success: PageEnvelopeOf(OrganizationView),
      error: ReadErrors
    }),
    HttpApiEndpoint.post("create", "/api/organizations/", {
      payload: OrganizationCreate,
      success: OrganizationView.pipe(HttpApiSchema.status(201)),
      error: WriteErrors
    }).annotate(
      OpenApi.Description,
      "Found an organization: the caller becomes its owner and works in its first project, `Default project` (scope organization:write); with a key restricted to organizations the caller's current organization stays as it was"
    ),
    HttpApiEndpoint.get("retrieve", "/api/organizations/:organization_id/", {
      params: OrganizationParam,
      success: OrganizationView,
      error: ReadErrors
    }),
    HttpApiEndpoint.patch("update", "/api/organizations/:organization_id/", {
      params: OrganizationParam,
      payload: OrganizationUpdate,
      success: OrganizationView,
      error: WriteErrors
    }).annotate(OpenApi.Description, "Rename the organization; the slug stays (administrator level, scope organization:write)"),
    HttpApiEndpoint.delete("destroy", "/api/organizations/:organization_id/", {
      params: OrganizationParam,
      success: HttpApiSchema.NoContent,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      "Delete the organization and everything in it, in one transaction: members, projects and their flags, roles, invites, domains, batch exports; keys restricted to it lose that restriction, or are revoked when nothing else is left to them (owner level, scope organization:write)"
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Organizations", description: "Organizations the caller belongs to" }))
{}
