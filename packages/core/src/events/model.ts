import { Schema } from "effect"
import { JsonObject } from "../shared/fields.ts"

/** One event as the SDKs send it: its name, who did it, and its properties (where `token` may name the project). */
export const CapturedEventBody = Schema.Struct({
  event: Schema.String,
  distinct_id: Schema.optionalKey(Schema.Union([Schema.String, Schema.Number])),
  properties: Schema.optionalKey(JsonObject),
  timestamp: Schema.optionalKey(Schema.String),
  uuid: Schema.optionalKey(Schema.String)
})

/**
 * What the SDKs post to the capture endpoints, as documentation: a batch with the project's token, or
 * (older SDKs) a list of events or one event, each then carrying the token; read as JSON, gzip, base64,
 * lz64 or a form's `data` like `/flags`.
 */
export const CaptureRequestBody = Schema.Union([
  Schema.Struct({
    api_key: Schema.optionalKey(Schema.String),
    token: Schema.optionalKey(Schema.String),
    batch: Schema.Array(CapturedEventBody),
    sent_at: Schema.optionalKey(Schema.String)
  }),
  Schema.Array(CapturedEventBody),
  CapturedEventBody
])

/** PostHog's capture answer to events it accepted. */
export const CaptureResponse = Schema.Struct({ status: Schema.Literal(1) })

/** The answer's bytes, the same every time. */
export const CAPTURED_JSON = "{\"status\":1}"
