import { CaptureRequestBody, CaptureResponse, QueryText } from "@hedgerow/core"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import {
  AuthenticationErrorResponse,
  InternalErrorResponse,
  PayloadTooLargeResponse,
  PermissionDeniedResponse,
  ValidationErrorResponse
} from "../errors.ts"

/**
 * `compression` says how the body is encoded (as on `/flags`); `data` carries the events of a GET (older
 * SDKs); `beacon=1` asks for an empty 204, as PostHog answers a page's last beacon. The SDKs' other
 * parameters (`ver`, `_`, `ip`, `retry_count`) are read and ignored.
 */
const CaptureQuery = {
  compression: Schema.optionalKey(QueryText),
  data: Schema.optionalKey(QueryText),
  beacon: Schema.optionalKey(QueryText)
}
/** 400 for a body that is not events, 401 without a project token, 403 for a token naming no project, 413 past 1 MiB. */
const CaptureErrors = [
  ValidationErrorResponse,
  AuthenticationErrorResponse,
  PermissionDeniedResponse,
  PayloadTooLargeResponse,
  InternalErrorResponse
] as const
const CaptureAnswers = [CaptureResponse, HttpApiSchema.NoContent] as const

const READ = "Events the SDKs send, as JSON, gzip, base64, lz64 or a form's `data`: `$feature_flag_called` counts a call of its flag, `$groupidentify` names a group type, every other event is accepted and dropped"

/** One capture path, for POST and for GET with the events in `data`. */
const capturePath = <P extends string, G extends string>(post: P, get: G, path: `/${string}/`, description: string) =>
  [
    HttpApiEndpoint.post(post, path, { query: CaptureQuery, payload: CaptureRequestBody, success: CaptureAnswers, error: CaptureErrors })
      .annotate(OpenApi.Description, description),
    HttpApiEndpoint.get(get, path, { query: CaptureQuery, success: CaptureAnswers, error: CaptureErrors })
      .annotate(OpenApi.Description, `${description} (the events base64 or JSON in \`data\`)`)
  ] as const

/**
 * PostHog's capture endpoints, answered as its capture service answers: `{"status": 1}` for events
 * accepted, whatever they are. Public (the project's token is in the body) and with CORS for any site.
 */
export class CaptureGroup extends HttpApiGroup.make("capture")
  .add(...capturePath("event", "eventGet", "/e/", `posthog-js's events. ${READ}`))
  .add(...capturePath("ingest", "ingestGet", "/i/v0/e/", `posthog-js's events, where the remote configuration sends them. ${READ}`))
  .add(...capturePath("batch", "batchGet", "/batch/", `The server and mobile SDKs' batches. ${READ}`))
  .add(...capturePath("capture", "captureGet", "/capture/", `Single events of older libraries. ${READ}`))
  .add(...capturePath("track", "trackGet", "/track/", `Single events of older libraries. ${READ}`))
  .add(...capturePath("engage", "engageGet", "/engage/", `Person updates of older libraries, read as \`$identify\`. ${READ}`))
  .add(...capturePath(
    "recording",
    "recordingGet",
    "/s/",
    "Session recordings: accepted and dropped unread, since this server keeps none (its remote configuration turns recording off)"
  ))
  .annotateMerge(OpenApi.annotations({ title: "Event capture" }))
{}
