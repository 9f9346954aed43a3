import { OrganizationView, PageEnvelopeOf } from "@hedgerow/core"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ReadErrors } from "../errors.ts"
import { Authorization } from "../security.ts"
import { ListQuery, OrganizationParam } from "./shared.ts"

/** Discovery for PostHog clients: the caller's organizations. */
export class OrganizationsGroup extends HttpApiGroup.make("organizations")
  .add(
    HttpApiEndpoint.get("list", "/api/organizations/", {
      query: ListQuery,
      success: PageEnvelopeOf(OrganizationView),
      error: ReadErrors
    }),
    HttpApiEndpoint.get("retrieve", "/api/organizations/:organization_id/", {
      params: OrganizationParam,
      success: OrganizationView,
      error: ReadErrors
    })
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Organizations", description: "Organizations the caller belongs to" }))
{}

