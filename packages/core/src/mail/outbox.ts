import { Context, type Effect, Schema } from "effect"
import { MailMessage } from "./mailer.ts"

/** A message recorded for sending; the row keeps its delivery history (attempts, last error, sent time). */
export const OutboxEntry = Schema.Struct({ id: Schema.String, ...MailMessage.fields })
export type OutboxEntry = typeof OutboxEntry.Type

export class OutboxRepository extends Context.Service<OutboxRepository, {
  /** Records a message in the current transaction, so it exists exactly when the change that caused it does. */
  readonly insert: (input: MailMessage & {
    readonly kind: string
    readonly related_id: string | null
  }) => Effect.Effect<OutboxEntry>
  readonly recordSent: (id: string) => Effect.Effect<void>
  readonly recordFailure: (id: string, error: string) => Effect.Effect<void>
}>()("hedgerow/OutboxRepository") {}
