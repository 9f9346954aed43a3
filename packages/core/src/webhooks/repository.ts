import { Context, type Effect, type Option, type Scope } from "effect"
import type { ProjectId, WebhookDeliveryId, WebhookId } from "../shared/ids.ts"
import type { Page, PageRequest } from "../shared/page.ts"
import type { DeliveryStatus, Webhook, WebhookDelivery } from "./model.ts"

/** A webhook's writable settings. */
export interface WebhookFields {
  readonly url: string
  readonly description: string
  readonly events: ReadonlyArray<string>
  readonly enabled: boolean
}

export class WebhookRepository extends Context.Service<WebhookRepository, {
  readonly insert: (input: WebhookFields & { readonly project_id: ProjectId; readonly secret: string }) => Effect.Effect<Webhook>
  readonly find: (project: ProjectId, id: WebhookId) => Effect.Effect<Option.Option<Webhook>>
  readonly count: (project: ProjectId) => Effect.Effect<number>
  /** Oldest first, ties by id. */
  readonly list: (project: ProjectId, page: PageRequest) => Effect.Effect<Page<Webhook>>
  /** None when the project has no such webhook; a given secret replaces the old one. */
  readonly update: (
    project: ProjectId,
    id: WebhookId,
    fields: WebhookFields,
    secret: string | undefined
  ) => Effect.Effect<Option.Option<Webhook>>
  /** Removes it with its deliveries; false when the project has no such webhook. */
  readonly remove: (project: ProjectId, id: WebhookId) => Effect.Effect<boolean>
  /** The webhook's deliveries, newest first, each with its attempts in order. */
  readonly deliveries: (webhook: WebhookId, page: PageRequest) => Effect.Effect<Page<WebhookDelivery>>
  readonly delivery: (webhook: WebhookId, id: WebhookDeliveryId) => Effect.Effect<Option.Option<WebhookDelivery>>
}>()("hedgerow/WebhookRepository") {}

/**
 * A change recorded for webhooks by the store in the transaction that wrote its activity entry, while
 * its project had an enabled webhook: the entry, and the changed item's row as that transaction left it
 * (flags only; null for other kinds or when the row is gone).
 */
export interface RecordedChange {
  readonly activity_id: string
  readonly project_id: ProjectId
  readonly item: unknown
}

/** A delivery due for an attempt, leased to the process that claimed it. */
export interface DueDelivery {
  readonly id: WebhookDeliveryId
  readonly url: string
  readonly secret: string
  readonly body: string
  /** Attempts recorded so far. */
  readonly attempts: number
}

export interface AttemptRecord {
  readonly delivery_id: WebhookDeliveryId
  /**
   * Which attempt this is: one more than the attempts its claim saw. An attempt already recorded under
   * that number (by a process whose lease ran out while it still sent) is not recorded again.
   */
  readonly attempt: number
  readonly started_at: Date
  readonly duration_ms: number
  readonly status_code: number | null
  readonly response: string | null
  readonly error: string | null
  /** What the delivery becomes; `next_attempt_at` only while it stays pending. */
  readonly status: DeliveryStatus
  readonly next_attempt_at: Date | null
}

/** The webhook outbox: recorded changes, the deliveries made of them, and their attempts. */
export class WebhookQueue extends Context.Service<WebhookQueue, {
  /** Takes (deletes) the oldest recorded changes, within the caller's transaction, skipping those another process holds. */
  readonly takeChanges: (limit: number) => Effect.Effect<ReadonlyArray<RecordedChange>>
  /** The enabled webhooks of these projects. */
  readonly subscribers: (projects: ReadonlyArray<ProjectId>) => Effect.Effect<
    ReadonlyArray<{ readonly id: WebhookId; readonly project_id: ProjectId; readonly events: ReadonlyArray<string> }>
  >
  /** New pending deliveries, due now. */
  readonly enqueue: (
    deliveries: ReadonlyArray<{ readonly webhook_id: WebhookId; readonly event: string; readonly body: string }>
  ) => Effect.Effect<ReadonlyArray<WebhookDeliveryId>>
  /**
   * Leases up to `limit` due pending deliveries for `leaseMillis`, skipping those another process holds:
   * no two processes attempt one delivery at once, and a lease left by a process that died expires. A
   * disabled webhook's deliveries wait until it is enabled again, but for those of the test action.
   */
  readonly claim: (limit: number, leaseMillis: number) => Effect.Effect<ReadonlyArray<DueDelivery>>
  /** Records an attempt and the delivery's new state, and ends its lease. */
  readonly record: (attempt: AttemptRecord) => Effect.Effect<void>
  /** Removes deliveries that ended (delivered or failed) more than `millis` ago, with their attempts; answers how many. */
  readonly prune: (millis: number) => Effect.Effect<number>
  /** Calls `notify` whenever a process commits new work, for as long as the scope lives. */
  readonly onWork: (notify: () => void) => Effect.Effect<void, never, Scope.Scope>
}>()("hedgerow/WebhookQueue") {}
