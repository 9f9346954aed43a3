import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"

export class HealthUnavailable extends Schema.TaggedError<HealthUnavailable>()(
  "HealthUnavailable",
  { status: Schema.Literal("unavailable") },
  { httpApiStatus: 503 }
) {}

/** Liveness for load balancers: 200 when the store answers. No authentication. */
export class SystemGroup extends HttpApiGroup.make("system")
  .add(
    HttpApiEndpoint.get("health", "/_health", {
      success: Schema.Struct({ status: Schema.Literal("ok") }),
      error: HealthUnavailable
    })
  )
  .annotateMerge(OpenApi.annotations({ title: "System" }))
{}
