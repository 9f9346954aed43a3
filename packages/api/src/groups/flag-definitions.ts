import { LocalEvaluationDefinitions, QueryText } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { AuthenticationErrorResponse, ReadErrors } from "../errors.ts"
import { Authorization } from "../security.ts"

/**
 * `?token=` names the project by its public token (the SDKs send it; it overrides the path's project,
 * as in PostHog); `send_cohorts`, with or without a value, asks for the cohorts' definitions.
 */
const DefinitionsQuery = { token: Schema.optionalKey(QueryText), send_cohorts: Schema.optionalKey(QueryText) }
/** The ETag of definitions the caller holds: weak, strong or bare, or several separated by commas. */
const ConditionalHeaders = { "if-none-match": Schema.optionalKey(Schema.String) }
/** A `?token=` that names no project is a 401 too, as a bad key is. */
const DefinitionsErrors = [...ReadErrors, AuthenticationErrorResponse] as const
/** 200 with the definitions, or 304 with no body when `If-None-Match` names their current ETag. */
const DefinitionsAnswers = [LocalEvaluationDefinitions, HttpApiSchema.Empty(304)] as const

/** One request and its answers, on all three paths. */
const DefinitionsEndpoint = { query: DefinitionsQuery, headers: ConditionalHeaders, success: DefinitionsAnswers, error: DefinitionsErrors }

const description = (where: string) =>
  `The project's flag definitions for local evaluation (${where}), with a weak ETag and \`Cache-Control: private, must-revalidate\`; 304 when \`If-None-Match\` matches (scope feature_flag:read)`

/** What server-side SDKs poll to evaluate flags locally. */
export class FlagDefinitionsGroup extends HttpApiGroup.make("flagDefinitions")
  .add(
    HttpApiEndpoint.get("localEvaluation", "/api/feature_flag/local_evaluation/", DefinitionsEndpoint).annotate(OpenApi.Description, description("`?token=`, else the caller's current project; polled by older SDKs")),
    HttpApiEndpoint.get("definitions", "/flags/definitions/", DefinitionsEndpoint).annotate(OpenApi.Description, description("`?token=`, else the caller's current project; polled by newer SDKs")),
    HttpApiEndpoint.get("projectLocalEvaluation", "/api/projects/:project_id/feature_flags/local_evaluation/", {
      params: { project_id: Schema.String },
      ...DefinitionsEndpoint
    }).annotate(OpenApi.Description, description("the path's project"))
  )
  .middleware(Authorization)
  .annotateMerge(OpenApi.annotations({ title: "Flag definitions" }))
{}
