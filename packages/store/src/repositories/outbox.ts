import { OutboxEntry, OutboxRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { decodeOne } from "./table.ts"

/** Delivery errors can be long (a server's whole reply); the row keeps enough to diagnose. */
const MAX_ERROR_LENGTH = 1000

const decodeEntry = decodeOne(OutboxEntry)

export const layerNoDeps = Layer.effect(
  OutboxRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return OutboxRepository.of({
      insert: (input) =>
        // The table names a message's fields as e-mail does (recipient, body), beside its delivery columns.
        sql`
          INSERT INTO email_outbox (id, recipient, subject, body, kind, related_id)
          VALUES (gen_random_uuid(), ${input.to}, ${input.subject}, ${input.text}, ${input.kind}, ${input.related_id})
          RETURNING id, recipient AS to, subject, body AS text`.pipe(Effect.orDie, Effect.flatMap(decodeEntry)),
      recordSent: (id) =>
        sql`UPDATE email_outbox SET attempts = attempts + 1, sent_at = now(), last_error = NULL WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.asVoid
        ),
      recordFailure: (id, error) =>
        sql`UPDATE email_outbox SET attempts = attempts + 1, last_error = ${error.slice(0, MAX_ERROR_LENGTH)} WHERE id = ${id}`.pipe(
          Effect.orDie,
          Effect.asVoid
        )
    })
  })
)
