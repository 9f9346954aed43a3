import { Cause, Effect, FiberSet, Layer } from "effect"
import { ActivityRepository } from "../activity/repository.ts"
import { Transactions } from "../shared/transactions.ts"
import { eventOf, subscribes } from "./events.ts"
import { flagSides, payloadOf } from "./payload.ts"
import { type DueDelivery, WebhookQueue } from "./repository.ts"
import { WebhookSettings, withJitter } from "./settings.ts"
import { signedHeaders } from "./signature.ts"
import { WebhookTransport } from "./transport.ts"

/** Recorded changes turned into deliveries per transaction. */
const CHANGES_AT_ONCE = 100
/** How often a process removes deliveries past their retention. */
const PRUNE_EVERY_MILLIS = 60 * 60 * 1000
/**
 * A lease lasts twice the attempt's deadline and a second more, so that a live process never loses an
 * attempt it still works on, while one left by a process that died is taken up again soon.
 */
const leaseFor = (timeoutMillis: number) => 2 * timeoutMillis + 1000

/**
 * Delivers webhooks after the changes that made them have committed, in fibers of its own: a slow or dead
 * receiver holds one of `concurrency` slots for at most the timeout, and never a request or a write. It
 * makes deliveries of recorded changes, claims due ones under a lease, attempts each, and records every
 * attempt with what the delivery becomes: delivered on a 2xx, else pending again after the next wait of
 * the schedule, or failed when the schedule is spent. A notification of new work wakes it; it also
 * looks every `pollMillis`, for retries come due and leases left by a process that died, and once an
 * hour removes deliveries that ended longer ago than their retention. The fibers belong to the layer and
 * stop with it; a delivery cut off mid-attempt is attempted again once its lease expires, with the same id.
 */
export const layerNoDeps = Layer.effectDiscard(
  Effect.gen(function*() {
    const queue = yield* WebhookQueue
    const activity = yield* ActivityRepository
    const transport = yield* WebhookTransport
    const transactions = yield* Transactions
    const settings = yield* WebhookSettings
    const fibers = yield* FiberSet.make()
    const leaseMillis = leaseFor(settings.timeoutMillis)

    let inFlight = 0
    let signalled = false
    let wakeUp: (() => void) | undefined
    const notify = () => {
      signalled = true
      wakeUp?.()
    }

    /** Waits for a notification or the poll interval, whichever comes first. */
    const nap = Effect.callback<void>((resume) => {
      if (signalled) return resume(Effect.void)
      const timer = setTimeout(() => resume(Effect.void), settings.pollMillis)
      wakeUp = () => resume(Effect.void)
      return Effect.sync(() => {
        clearTimeout(timer)
        wakeUp = undefined
      })
    }).pipe(Effect.ensuring(Effect.sync(() => {
      wakeUp = undefined
      signalled = false
    })))

    /** One transaction: takes recorded changes and makes a delivery per subscribed webhook. */
    const fanOut = transactions.run(Effect.gen(function*() {
      const changes = yield* queue.takeChanges(CHANGES_AT_ONCE)
      if (changes.length === 0) return 0
      const entries = yield* activity.entries(changes.map((change) => change.activity_id))
      const byId = new Map(entries.map((entry) => [String(entry.id), entry]))
      const known = changes.flatMap((change) => {
        const entry = byId.get(change.activity_id)
        const event = entry === undefined ? undefined : eventOf(entry)
        return entry === undefined || event === undefined ? [] : [{ ...change, entry, event }]
      })
      const sides = flagSides(known)
      const hooks = yield* queue.subscribers([...new Set(known.map((change) => change.project_id))])
      // A body is made once per change, whatever the number of its webhooks, and the loop gives way
      // between changes, since a flag's filters (twice, before and after) can make a large body.
      const deliveries = yield* Effect.forEach(known, (change, i) => {
        const to = hooks.filter((hook) => hook.project_id === change.project_id && subscribes(hook.events, change.event))
        if (to.length === 0) return Effect.succeed([])
        const body = payloadOf(change.event, change.project_id, change.entry, sides[i]!)
        return Effect.as(Effect.yieldNow, to.map((hook) => ({ webhook_id: hook.id, event: change.event, body })))
      })
      const made = deliveries.flat()
      if (made.length > 0) yield* queue.enqueue(made)
      return changes.length
    }))

    const attempt = (due: DueDelivery) =>
      Effect.gen(function*() {
        const started = new Date()
        const headers = {
          "content-type": "application/json",
          "user-agent": "Hedgerow-Webhooks",
          ...signedHeaders(due.secret, due.id, Math.floor(started.getTime() / 1000), due.body)
        }
        const reply = yield* Effect.result(transport.send({
          url: due.url,
          headers,
          body: due.body,
          timeoutMillis: settings.timeoutMillis,
          allowPrivate: settings.allowPrivate
        }))
        const duration_ms = Date.now() - started.getTime()
        const status_code = reply._tag === "Success" ? reply.success.status : null
        const delivered = status_code !== null && status_code >= 200 && status_code < 300
        const wait = settings.retryDelaysMillis[due.attempts]
        yield* queue.record({
          delivery_id: due.id,
          attempt: due.attempts + 1,
          started_at: started,
          duration_ms,
          status_code,
          response: reply._tag === "Success" ? reply.success.excerpt : null,
          error: reply._tag === "Failure" ? reply.failure.message : delivered ? null : `HTTP ${status_code}`,
          status: delivered ? "delivered" : wait === undefined ? "failed" : "pending",
          next_attempt_at: delivered || wait === undefined ? null : new Date(Date.now() + withJitter(wait, Math.random()))
        })
      }).pipe(Effect.withSpan("WebhookWorker.attempt", { attributes: { "webhook.delivery_id": due.id } }))

    const start = (due: DueDelivery) => {
      inFlight++
      return FiberSet.run(
        fibers,
        attempt(due).pipe(
          Effect.catchCause((cause) =>
            Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.logWarning("webhook attempt not recorded", Cause.squash(cause))),
          Effect.ensuring(Effect.sync(() => {
            inFlight--
            notify()
          }))
        )
      )
    }

    let prunedAt = 0
    /** Old deliveries go once an hour, the first time at start. */
    const prune = Effect.suspend(() => {
      if (Date.now() - prunedAt < PRUNE_EVERY_MILLIS) return Effect.void
      prunedAt = Date.now()
      return Effect.asVoid(queue.prune(settings.retentionMillis))
    })

    const round = Effect.gen(function*() {
      yield* prune
      while ((yield* fanOut) === CHANGES_AT_ONCE) {
        // More changes wait; each batch is its own transaction.
      }
      const free = settings.concurrency - inFlight
      if (free <= 0) return
      const due = yield* queue.claim(free, leaseMillis)
      yield* Effect.forEach(due, start, { discard: true })
    })

    yield* queue.onWork(notify)
    yield* round.pipe(
      Effect.catchCause((cause) =>
        Cause.hasInterruptsOnly(cause) ? Effect.interrupt : Effect.logWarning("webhook delivery round failed", Cause.squash(cause))),
      Effect.andThen(nap),
      Effect.forever,
      Effect.forkScoped
    )
  })
)
