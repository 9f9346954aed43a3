import { Preflight } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export class HealthUnavailable extends Schema.TaggedError<HealthUnavailable>()(
  "HealthUnavailable",
  { status: Schema.Literal("unavailable") },
  { httpApiStatus: 503 }
) {}

/**
 * The deployment itself, with no authentication: liveness for load balancers (200 when the store
 * answers), and what a log-in page needs to know of it before anyone logs in.
 */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/_health", {
      success: Schema.Struct({ status: Schema.Literal("ok") }),
      error: HealthUnavailable
    })
  )
  .add(
    HttpApiEndpoint.get("preflight", "/_preflight/", { success: Preflight }).annotate(
      OpenApi.Description,
      "PostHog's preflight, with the one field a log-in page needs: `available_social_auth_providers`, whether this deployment logs people in with each OAuth provider (`google-oauth2`, `github`, `gitlab`), as its `HEDGEROW_OAUTH_*` settings configure them"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "System" }))
{}
