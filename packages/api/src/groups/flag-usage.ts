import { FlagUsageQueryFields, FlagUsageReport, MAX_USAGE_DAYS } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import { ReadErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

/** `/api/projects/{project_id}/feature_flags/{id}/usage/`: the calls the SDKs reported. */
export class FlagUsageGroup extends HttpApiGroup.make("flagUsage")
  .add(
    HttpApiEndpoint.get("usage", "/api/projects/:project_id/feature_flags/:id/usage/", {
      params: { project_id: Schema.String, id: Schema.String },
      query: FlagUsageQueryFields,
      success: FlagUsageReport,
      error: ReadErrors
    }).annotate(
      OpenApi.Description,
      `The flag's calls as the SDKs report them (\`$feature_flag_called\`), per UTC day and value returned (\`true\`, \`false\` or a variant), from \`date_from\` (default \`-30d\`; \`-Nd\`, \`-Nw\`, \`-Nm\` or YYYY-MM-DD) to \`date_to\` (default today), at most ${MAX_USAGE_DAYS} days (scope feature_flag:read)`
    )
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Feature flag usage" }))
{}
