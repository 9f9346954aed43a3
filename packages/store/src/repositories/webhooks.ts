import { type ProjectId, Webhook, WebhookAttempt, WebhookDelivery } from "@hedgerow/core"
import { WebhookRepository } from "@hedgerow/core/ports"
import { Effect, Layer, Struct } from "effect"
import { SqlClient } from "effect/sql"
import { decodedPage, pageAndTotal } from "./paging.ts"
import { columnsOf, decodeFirst, decodeOne, decodeRows } from "./table.ts"

const decodeWebhook = decodeOne(Webhook)
const decodeFound = decodeFirst(Webhook)
const decodeWebhooks = decodeRows(Webhook)
const decodeDeliveries = decodeRows(WebhookDelivery)
const decodeDelivery = decodeFirst(WebhookDelivery)

const ATTEMPT_FIELDS = Object.keys(WebhookAttempt.fields).map((name) => `'${name}', a.${name}`).join(", ")
/** A delivery's columns, its body as JSON, and its attempts in order as one JSON list. */
const DELIVERY_SELECT = `${columnsOf({ fields: Struct.omit(WebhookDelivery.fields, ["payload", "attempts"]) }, "d")},
  d.body::jsonb AS payload,
  COALESCE((SELECT json_agg(json_build_object(${ATTEMPT_FIELDS}) ORDER BY a.attempt)
    FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts`

export const layerNoDeps = Layer.effect(
  WebhookRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const countOf = (project: ProjectId) => sql<{ n: number }>`SELECT count(*)::integer AS n FROM webhooks WHERE project_id = ${project}`
    const columns = sql.unsafe(columnsOf(Webhook))
    const delivery = sql.unsafe(DELIVERY_SELECT)
    /** A list of text as one parameter. */
    const textArray = (items: ReadonlyArray<string>) => sql`ARRAY(SELECT jsonb_array_elements_text(${JSON.stringify(items)}::jsonb))`
    return WebhookRepository.of({
      insert: (input) =>
        sql`
          INSERT INTO webhooks (id, project_id, url, secret, description, events, enabled)
          VALUES (gen_random_uuid(), ${input.project_id}, ${input.url}, ${input.secret}, ${input.description},
            ${textArray(input.events)}, ${input.enabled})
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeWebhook)),
      find: (project, id) =>
        sql`SELECT ${columns} FROM webhooks WHERE id = ${id} AND project_id = ${project}`.pipe(Effect.orDie, Effect.flatMap(decodeFound)),
      count: (project) =>
        countOf(project).pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0]?.n ?? 0)
        ),
      list: (project, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${columns} FROM webhooks WHERE project_id = ${project}
            ORDER BY created_at, id LIMIT ${page.limit} OFFSET ${page.offset}`,
          countOf(project)
        ).pipe(Effect.flatMap(decodedPage(decodeWebhooks, page))),
      update: (project, id, fields, secret) =>
        sql`
          UPDATE webhooks
          SET url = ${fields.url}, description = ${fields.description}, enabled = ${fields.enabled},
            events = ${textArray(fields.events)},
            secret = COALESCE(${secret ?? null}, secret), updated_at = now()
          WHERE id = ${id} AND project_id = ${project}
          RETURNING ${columns}`.pipe(Effect.orDie, Effect.flatMap(decodeFound)),
      remove: (project, id) =>
        sql<{ id: string }>`DELETE FROM webhooks WHERE id = ${id} AND project_id = ${project} RETURNING id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.length > 0)
        ),
      deliveries: (webhook, page) =>
        pageAndTotal(
          page,
          sql`
            SELECT ${delivery} FROM webhook_deliveries d WHERE d.webhook_id = ${webhook}
            ORDER BY d.seq DESC LIMIT ${page.limit} OFFSET ${page.offset}`,
          sql<{ n: number }>`SELECT count(*)::integer AS n FROM webhook_deliveries WHERE webhook_id = ${webhook}`
        ).pipe(Effect.flatMap(decodedPage(decodeDeliveries, page))),
      delivery: (webhook, id) =>
        sql`SELECT ${delivery} FROM webhook_deliveries d WHERE d.id = ${id} AND d.webhook_id = ${webhook}`.pipe(
          Effect.orDie,
          Effect.flatMap(decodeDelivery)
        )
    })
  })
)
