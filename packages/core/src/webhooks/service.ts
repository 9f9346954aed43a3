import { Context, Effect, Layer } from "effect"
import type { Actor } from "../auth/actor.ts"
import { Access, requireAdmin } from "../auth/access.ts"
import { type Body, type BodyError, decodeBody } from "../shared/body.ts"
import { NotFound, orNotFound, PermissionDenied, ValidationError } from "../shared/errors.ts"
import { canonicalUuid, type ProjectId, type WebhookId } from "../shared/ids.ts"
import { type ListQuery, type Page, pageRequest } from "../shared/page.ts"
import { timestampFromDate } from "../shared/time.ts"
import { Transactions } from "../shared/transactions.ts"
import { EVERY_EVENT, TEST_EVENT } from "./events.ts"
import { WebhookCreate, WebhookUpdate } from "./input.ts"
import type { Webhook, WebhookCreated, WebhookDelivery } from "./model.ts"
import { testPayloadOf } from "./payload.ts"
import { checkReceiverUrl } from "./receiver.ts"
import { WebhookQueue, WebhookRepository } from "./repository.ts"
import { WebhookSettings } from "./settings.ts"
import { newWebhookSecret, secretKeyOf } from "./signature.ts"
import { WebhookTransport } from "./transport.ts"

const decodeCreate = decodeBody(WebhookCreate)
const decodeUpdate = decodeBody(WebhookUpdate)

const badSecret = () =>
  ValidationError.field("secret", "Enter a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes.")
const noEvents = () => ValidationError.field("events", "This list may not be empty.", "empty")

/**
 * Deliveries carry their bodies, a flag before and after (filters and all), so a page of them holds at
 * most 100 rather than the 1,000 of other lists.
 */
export const MAX_DELIVERIES_PAGE = 100

/** Every change is sent to every webhook that wants it: a bound keeps one change from costing without end. */
export const MAX_WEBHOOKS_PER_PROJECT = 50
const tooMany = () =>
  ValidationError.field(null, `A project can have at most ${MAX_WEBHOOKS_PER_PROJECT} webhooks.`, "max_webhooks")

type Failure = PermissionDenied | NotFound
type WriteFailure = Failure | ValidationError | BodyError

export class WebhookService extends Context.Service<WebhookService, {
  readonly list: (actor: Actor, project: string, query: ListQuery) => Effect.Effect<Page<Webhook>, Failure>
  /** The answer holds the secret, which no later answer shows. */
  readonly create: (actor: Actor, project: string, body: Body) => Effect.Effect<WebhookCreated, WriteFailure>
  readonly retrieve: (actor: Actor, project: string, id: string) => Effect.Effect<Webhook, Failure>
  readonly update: (actor: Actor, project: string, id: string, body: Body) => Effect.Effect<Webhook, WriteFailure>
  /** Removes the webhook and its deliveries; pending ones are never sent. */
  readonly destroy: (actor: Actor, project: string, id: string) => Effect.Effect<void, Failure>
  readonly deliveries: (actor: Actor, project: string, id: string, query: ListQuery) => Effect.Effect<Page<WebhookDelivery>, Failure>
  /**
   * Sends a `webhook.test` delivery to the webhook, enabled or not, and answers it as first recorded. The
   * body is optional and ignored, but a malformed one is refused.
   */
  readonly test: (actor: Actor, project: string, id: string, body: Body) => Effect.Effect<WebhookDelivery, Failure | BodyError>
}>()("hedgerow/WebhookService") {
  static readonly layerNoDeps = Layer.effect(
    WebhookService,
    Effect.gen(function*() {
      const access = yield* Access
      const webhooks = yield* WebhookRepository
      const queue = yield* WebhookQueue
      const transactions = yield* Transactions
      const transport = yield* WebhookTransport
      const settings = yield* WebhookSettings

      const readable = (actor: Actor, project: string) => access.project(actor, project, "webhook:read")
      // A webhook sends every change of the project outside, signed: setting one up is an administrator's call.
      const writable = (actor: Actor, project: string) =>
        access.project(actor, project, "webhook:write").pipe(Effect.tap(requireAdmin))

      const find = (project: ProjectId, id: string) => {
        const uuid = canonicalUuid(id)
        return uuid === undefined ? Effect.fail(NotFound.default()) : webhooks.find(project, uuid as WebhookId).pipe(Effect.flatMap(orNotFound))
      }

      const receiver = (url: string) => checkReceiverUrl(transport, url, settings.allowPrivate)

      const secretOf = (given: string | undefined) =>
        given === undefined ? Effect.succeed(newWebhookSecret()) : secretKeyOf(given) === undefined ? Effect.fail(badSecret()) : Effect.succeed(given)

      const eventsOf = (events: ReadonlyArray<string> | undefined, current: ReadonlyArray<string>) =>
        events === undefined ? Effect.succeed(current) : events.length === 0 ? Effect.fail(noEvents()) : Effect.succeed([...new Set(events)])

      const list = Effect.fn("WebhookService.list")(function*(actor: Actor, project: string, query: ListQuery) {
        const { project: found } = yield* readable(actor, project)
        return yield* webhooks.list(found.id, pageRequest(query))
      })

      const create = Effect.fn("WebhookService.create")(function*(actor: Actor, project: string, body: Body) {
        const { project: found } = yield* writable(actor, project)
        const input = yield* decodeCreate(body)
        const url = yield* receiver(input.url)
        const events = yield* eventsOf(input.events, [EVERY_EVENT])
        const secret = yield* secretOf(input.secret)
        // Creations in a project take turns, so that two at once cannot both pass the bound.
        const created = yield* transactions.run(Effect.gen(function*() {
          yield* transactions.serialize(`hedgerow:webhooks:${found.id}`)
          if ((yield* webhooks.count(found.id)) >= MAX_WEBHOOKS_PER_PROJECT) return yield* tooMany()
          return yield* webhooks.insert({
            project_id: found.id,
            url,
            description: input.description ?? "",
            events,
            enabled: input.enabled ?? true,
            secret
          })
        }))
        return { ...created, secret }
      })

      const retrieve = Effect.fn("WebhookService.retrieve")(function*(actor: Actor, project: string, id: string) {
        const { project: found } = yield* readable(actor, project)
        return yield* find(found.id, id)
      })

      const update = Effect.fn("WebhookService.update")(function*(actor: Actor, project: string, id: string, body: Body) {
        const { project: found } = yield* writable(actor, project)
        const current = yield* find(found.id, id)
        const input = yield* decodeUpdate(body)
        const url = input.url === undefined ? current.url : yield* receiver(input.url)
        const events = yield* eventsOf(input.events, current.events)
        const secret = input.secret === undefined ? undefined : yield* secretOf(input.secret)
        const fields = {
          url,
          description: input.description ?? current.description,
          events,
          enabled: input.enabled ?? current.enabled
        }
        const updated = yield* transactions.single(webhooks.update(found.id, current.id, fields, secret))
        return yield* orNotFound(updated)
      })

      const destroy = Effect.fn("WebhookService.destroy")(function*(actor: Actor, project: string, id: string) {
        const { project: found } = yield* writable(actor, project)
        const current = yield* find(found.id, id)
        if (!(yield* transactions.single(webhooks.remove(found.id, current.id)))) return yield* NotFound.default()
      })

      const deliveries = Effect.fn("WebhookService.deliveries")(function*(actor: Actor, project: string, id: string, query: ListQuery) {
        const { project: found } = yield* readable(actor, project)
        const webhook = yield* find(found.id, id)
        const request = pageRequest(query)
        return yield* webhooks.deliveries(webhook.id, { ...request, limit: Math.min(request.limit, MAX_DELIVERIES_PAGE) })
      })

      const test = Effect.fn("WebhookService.test")(function*(actor: Actor, project: string, id: string, body: Body) {
        const { project: found } = yield* writable(actor, project)
        const webhook = yield* find(found.id, id)
        yield* body
        const at = timestampFromDate(new Date())
        const [delivery] = yield* transactions.single(
          queue.enqueue([{ webhook_id: webhook.id, event: TEST_EVENT, body: testPayloadOf(found.id, webhook.id, at) }])
        )
        return yield* webhooks.delivery(webhook.id, delivery!).pipe(Effect.flatMap(orNotFound), Effect.orDie)
      })

      return WebhookService.of({ list, create, retrieve, update, destroy, deliveries, test })
    })
  )
}
