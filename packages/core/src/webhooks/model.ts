import { Schema } from "effect"
import { Json } from "../shared/fields.ts"
import { ProjectId, WebhookDeliveryId, WebhookId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** A project's webhook as the API shows it: never its secret, which only its creation answers. */
export const Webhook = Schema.Struct({
  id: WebhookId,
  project_id: ProjectId,
  url: Schema.String,
  description: Schema.String,
  /** Event names, or `*` for every change. */
  events: Schema.Array(Schema.String),
  enabled: Schema.Boolean,
  created_at: Timestamp,
  updated_at: Timestamp
})
export type Webhook = typeof Webhook.Type

/** The answer to creating a webhook: the webhook and its signing secret, shown this once. */
export const WebhookCreated = Schema.Struct({ ...Webhook.fields, secret: Schema.String })
export type WebhookCreated = typeof WebhookCreated.Type

/**
 * A delivery is `pending` while attempts remain, `delivered` once a receiver answered 2xx, `failed` when
 * the retry schedule ran out.
 */
export const DeliveryStatus = Schema.Literals(["pending", "delivered", "failed"])
export type DeliveryStatus = typeof DeliveryStatus.Type

/** One try at sending a delivery, as recorded when it ended. */
export const WebhookAttempt = Schema.Struct({
  attempt: Schema.Int,
  started_at: Timestamp,
  duration_ms: Schema.Int,
  /** The receiver's status, or null when no answer came (refused, timed out, blocked address). */
  status_code: Schema.NullOr(Schema.Int),
  /** The start of the receiver's reply body, bounded. */
  response: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.String)
})
export type WebhookAttempt = typeof WebhookAttempt.Type

/** One message to one webhook: its id is the `webhook-id` of every attempt, its body is fixed when made. */
export const WebhookDelivery = Schema.Struct({
  id: WebhookDeliveryId,
  webhook_id: WebhookId,
  event: Schema.String,
  status: DeliveryStatus,
  /** The body sent, as JSON. */
  payload: Json,
  next_attempt_at: Schema.NullOr(Timestamp),
  created_at: Timestamp,
  delivered_at: Schema.NullOr(Timestamp),
  attempts: Schema.Array(WebhookAttempt)
})
export type WebhookDelivery = typeof WebhookDelivery.Type
