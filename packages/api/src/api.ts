import { HttpApi, OpenApi } from "effect/http-api"
import { IdentityGroup } from "./groups/identity.ts"
import { OrganizationProjectsGroup } from "./groups/organization-projects.ts"
import { OrganizationsGroup } from "./groups/organizations.ts"
import { ProjectsGroup } from "./groups/projects.ts"
import { SystemGroup } from "./groups/system.ts"
import { RequestDecoding } from "./decoding.ts"

/** The whole HTTP contract, shared by the server, the CLI's client and the harness. */
export class HedgerowApi extends HttpApi.make("hedgerow")
  .add(OrganizationsGroup)
  .add(OrganizationProjectsGroup)
  .add(ProjectsGroup)
  .add(IdentityGroup)
  .add(SystemGroup)
  .middleware(RequestDecoding)
  .annotateMerge(OpenApi.annotations({
    title: "Hedgerow",
    version: "0.1.0",
    description: "PostHog-compatible organization administration and feature-flag management API"
  }))
{}
