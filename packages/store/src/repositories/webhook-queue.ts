import { ProjectId, TEST_EVENT, WebhookDeliveryId, WebhookId } from "@hedgerow/core"
import { Freshness, WebhookQueue } from "@hedgerow/core/ports"
import { Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"

/** The queues whose inserts the change feed names: new work for the workers. */
const QUEUES = ["webhook_changes", "webhook_deliveries"]

/** A receiver's reply and an error are kept to this many characters, without NUL, which text columns cannot hold. */
const MAX_TEXT = 1000
const storable = (text: string | null) => (text === null ? null : text.replaceAll("\u0000", "").slice(0, MAX_TEXT))

const Change = Schema.Struct({ activity_id: Schema.String, project_id: ProjectId, item: Schema.Unknown })
const Subscriber = Schema.Struct({ id: WebhookId, project_id: ProjectId, events: Schema.Array(Schema.String) })
const Due = Schema.Struct({ id: WebhookDeliveryId, url: Schema.String, secret: Schema.String, body: Schema.String, attempts: Schema.Number })
const decodeIds = Schema.decodeUnknownEffect(Schema.Array(Schema.Struct({ id: WebhookDeliveryId })))
const decodeChanges = Schema.decodeUnknownEffect(Schema.Array(Change))
const decodeSubscribers = Schema.decodeUnknownEffect(Schema.Array(Subscriber))
const decodeDue = Schema.decodeUnknownEffect(Schema.Array(Due))

export const layerNoDeps = Layer.effect(
  WebhookQueue,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const freshness = yield* Freshness
    return WebhookQueue.of({
      takeChanges: (limit) =>
        sql`
          WITH taken AS (
            DELETE FROM webhook_changes WHERE id IN (
              SELECT id FROM webhook_changes ORDER BY id LIMIT ${limit} FOR UPDATE SKIP LOCKED)
            RETURNING id, activity_id, project_id, item)
          SELECT activity_id::text AS activity_id, project_id, item FROM taken ORDER BY id`.pipe(Effect.flatMap(decodeChanges), Effect.orDie),
      subscribers: (projects) =>
        projects.length === 0 ? Effect.succeed([]) : sql`
          SELECT id::text AS id, project_id, events FROM webhooks
          WHERE enabled AND project_id IN (SELECT jsonb_array_elements_text(${JSON.stringify(projects)}::jsonb)::integer)`.pipe(
          Effect.flatMap(decodeSubscribers),
          Effect.orDie
        ),
      enqueue: (deliveries) =>
        sql<{ id: string }>`
          INSERT INTO webhook_deliveries (id, webhook_id, event, body)
          SELECT gen_random_uuid(), x.webhook_id, x.event, x.body
          FROM jsonb_to_recordset(${JSON.stringify(deliveries)}::jsonb) AS x (webhook_id uuid, event text, body text)
          RETURNING id::text AS id`.pipe(Effect.flatMap(decodeIds), Effect.orDie, Effect.map((rows) => rows.map((row) => row.id))),
      // One statement: the due rows are locked as they are picked, so processes claiming at once share
      // them out, and the lease is set before any of them commits. A disabled webhook's deliveries wait
      // until it is enabled again, but for the test action's.
      claim: (limit, leaseMillis) =>
        sql`
          WITH claimed AS (
            UPDATE webhook_deliveries d SET lease_until = now() + ${leaseMillis} * interval '1 millisecond'
            FROM webhooks w
            WHERE w.id = d.webhook_id AND d.id IN (
              SELECT p.id FROM webhook_deliveries p JOIN webhooks h ON h.id = p.webhook_id
              WHERE p.status = 'pending' AND p.next_attempt_at <= now() AND (p.lease_until IS NULL OR p.lease_until < now())
                AND (h.enabled OR p.event = ${TEST_EVENT})
              ORDER BY p.next_attempt_at, p.seq LIMIT ${limit} FOR UPDATE OF p SKIP LOCKED)
            RETURNING d.seq, d.id::text AS id, w.url, w.secret, d.body, d.attempts)
          SELECT id, url, secret, body, attempts FROM claimed ORDER BY seq`.pipe(
          Effect.flatMap(decodeDue),
          Effect.orDie
        ),
      record: (attempt) =>
        sql`
          WITH recorded AS (
            INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, response, error)
            SELECT id, ${attempt.attempt}, ${attempt.started_at.toISOString()}::timestamptz, ${attempt.duration_ms},
              ${attempt.status_code}, ${storable(attempt.response)}, ${storable(attempt.error)}
            FROM webhook_deliveries WHERE id = ${attempt.delivery_id} AND attempts = ${attempt.attempt - 1}
            ON CONFLICT DO NOTHING)
          UPDATE webhook_deliveries
          SET attempts = attempts + 1, status = ${attempt.status}, lease_until = NULL,
            next_attempt_at = ${attempt.next_attempt_at?.toISOString() ?? null}::timestamptz,
            delivered_at = CASE WHEN ${attempt.status} = 'delivered' THEN now() END
          WHERE id = ${attempt.delivery_id} AND attempts = ${attempt.attempt - 1}`.pipe(Effect.orDie, Effect.asVoid),
      prune: (millis) =>
        sql<{ n: number }>`
          WITH gone AS (
            DELETE FROM webhook_deliveries
            WHERE status <> 'pending' AND COALESCE(delivered_at, created_at) < now() - ${millis} * interval '1 millisecond'
            RETURNING 1)
          SELECT count(*)::integer AS n FROM gone`.pipe(Effect.orDie, Effect.map((rows) => rows[0]?.n ?? 0)),
      // The change feed's own connection carries the notices, so webhooks hold no connection of their own.
      onWork: (notify) =>
        Effect.asVoid(Effect.acquireRelease(
          Effect.sync(() => QUEUES.map((queue) => freshness.onNotice(queue, notify))),
          (stops) => Effect.sync(() => stops.forEach((stop) => stop()))
        ))
    })
  })
)
