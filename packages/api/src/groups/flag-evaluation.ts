import {
  DecideV1Response,
  DecideV2Response,
  FlagsRequestBody,
  FlagsV2Response,
  LegacyFlagsResponse,
  QueryText
} from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  AuthenticationErrorResponse,
  InternalErrorResponse,
  PayloadTooLargeResponse,
  ValidationErrorResponse
} from "../errors.ts"

/**
 * `v` chooses the answer's shape; `compression` (`gzip`, `gzip-js`, `base64`) says how the body is
 * encoded, as posthog-js says it; the SDKs' other parameters (`ver`, `_`, `ip`) are read and ignored.
 */
const FlagsQuery = {
  v: Schema.optionalKey(QueryText),
  compression: Schema.optionalKey(QueryText),
  config: Schema.optionalKey(QueryText)
}
/**
 * `Content-Encoding: gzip` is the SDKs' other way to say the body is compressed; the rest tell the
 * caller's runtime when the body does not name it (`evaluation_runtime`).
 */
const FlagsHeaders = {
  "content-encoding": Schema.optionalKey(Schema.String),
  "user-agent": Schema.optionalKey(Schema.String),
  origin: Schema.optionalKey(Schema.String),
  referer: Schema.optionalKey(Schema.String),
  "sec-fetch-mode": Schema.optionalKey(Schema.String),
  "sec-fetch-site": Schema.optionalKey(Schema.String)
}
/** 400 for a body that cannot be read or lacks a distinct id, 401 for a missing or unknown project token. */
const FlagsErrors = [ValidationErrorResponse, AuthenticationErrorResponse, PayloadTooLargeResponse, InternalErrorResponse] as const
const FlagsAnswers = [FlagsV2Response, LegacyFlagsResponse, DecideV1Response, DecideV2Response] as const
/** One request and its answers, on both paths. */
const FlagsEndpoint = { query: FlagsQuery, headers: FlagsHeaders, payload: FlagsRequestBody, success: FlagsAnswers, error: FlagsErrors }

/**
 * What PostHog's SDKs call to evaluate flags remotely, with the project's public token in the body and
 * no Authorization: browsers call it from any origin, so it answers CORS (the management API does not).
 */
export class FlagEvaluationGroup extends HttpApiGroup.make("flagEvaluation")
  .add(
    HttpApiEndpoint.post("flags", "/flags/", FlagsEndpoint).annotate(
      OpenApi.Description,
      "Every active flag of the token's project evaluated for the body's person: `v=2` answers each flag with its reason and payload, no `v` (or `v=1`) the legacy `featureFlags` and `featureFlagPayloads`; JSON, gzip or base64 bodies"
    ),
    HttpApiEndpoint.post("decide", "/decide/", FlagsEndpoint).annotate(
      OpenApi.Description,
      "The older path of the same evaluation: `v=4` answers as `/flags?v=2`, `v=3` as `/flags` without `v`, `v=2` the values of the flags that are on, no `v` their keys"
    )
  )
  .annotateMerge(OpenApi.annotations({ title: "Flag evaluation" }))
{}
