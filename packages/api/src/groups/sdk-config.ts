import { SdkRemoteConfig } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { InternalErrorResponse, NotFoundResponse } from "../errors.ts"

const TokenParam = { token: Schema.String }
const ConfigErrors = [NotFoundResponse, InternalErrorResponse] as const

/**
 * posthog-js's remote configuration, which it loads at `init` before anything else: the script first,
 * the JSON when the script fails. Public (the project's token is in the path) and with CORS for any site.
 */
export class SdkConfigGroup extends HttpApiGroup.make("sdkConfig")
  .add(
    HttpApiEndpoint.get("config", "/array/:token/config", {
      params: TokenParam,
      success: SdkRemoteConfig,
      error: ConfigErrors
    }).annotate(
      OpenApi.Description,
      "What this server offers posthog-js: supported compression, whether the project has active flags; no recordings, surveys, heatmaps or site apps. An unknown token is 404"
    ),
    HttpApiEndpoint.get("configScript", "/array/:token/config.js", {
      params: TokenParam,
      success: Schema.String.pipe(HttpApiSchema.asText({ contentType: "application/javascript" })),
      error: ConfigErrors
    }).annotate(
      OpenApi.Description,
      "The same configuration as a script setting `window._POSTHOG_REMOTE_CONFIG[token] = {config, siteApps: []}`"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "SDK configuration" }))
{}
