import { Cause, Context, Effect, FiberSet, Layer, Schedule } from "effect"
import { Mailer } from "./mailer.ts"
import { type OutboxEntry, OutboxRepository } from "./outbox.ts"

/** Attempts per message: a mail server that is briefly away still gets the e-mail. */
export const MAX_ATTEMPTS = 3

/**
 * Sends recorded messages after the change that recorded them has committed. Delivery runs in fibers of
 * its own, so a slow or dead mail server never fails or delays the request; every attempt is written to
 * the outbox row. The fibers belong to this layer and stop with it.
 */
export class MailDelivery extends Context.Service<MailDelivery, {
  readonly configured: boolean
  readonly dispatch: (entries: ReadonlyArray<OutboxEntry>) => Effect.Effect<void>
}>()("hedgerow/MailDelivery") {
  static readonly layerNoDeps = Layer.effect(
    MailDelivery,
    Effect.gen(function*() {
      const mailer = yield* Mailer
      const outbox = yield* OutboxRepository
      const fibers = yield* FiberSet.make()

      const attempt = (entry: OutboxEntry) =>
        mailer.send(entry).pipe(
          Effect.tapError((error) => outbox.recordFailure(entry.id, error.message)),
          Effect.andThen(outbox.recordSent(entry.id))
        )

      const deliver = (entry: OutboxEntry) =>
        attempt(entry).pipe(
          Effect.retry({ schedule: Schedule.exponential("1 second"), times: MAX_ATTEMPTS - 1 }),
          // The outbox row already holds the last error; a store failure here must not escape either.
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.logWarning("e-mail not delivered", Cause.squash(cause))),
          Effect.withSpan("MailDelivery.deliver")
        )

      const dispatch = (entries: ReadonlyArray<OutboxEntry>) =>
        !mailer.configured || entries.length === 0
          ? Effect.void
          : FiberSet.run(fibers, Effect.forEach(entries, deliver, { concurrency: 4, discard: true })).pipe(Effect.asVoid)

      return MailDelivery.of({ configured: mailer.configured, dispatch })
    })
  )
}
