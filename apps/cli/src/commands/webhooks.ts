import type { Webhook, WebhookDelivery } from "@hedgerow/core"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Argument, Command, Flag } from "effect/cli"
import { details, emit } from "../output.ts"
import { commaList, dataFlag, extraData, given } from "../request-body.ts"
import { resource } from "../resource.ts"
import { inProject } from "../scope.ts"

const FIELDS = ["id", "url", "description", "events", "enabled", "created_at", "updated_at"]

const webhook = resource({
  noun: "webhook",
  scope: inProject,
  id: Argument.String("id").pipe(Argument.withDescription("Webhook id (uuid)")),
  show: (found: Webhook) => details(found, FIELDS)
})

/** The settings create and update share; each left out keeps the server's default or the current value. */
const settingFlags = {
  events: Flag.String("events").pipe(
    Flag.withDescription("Comma-separated events, e.g. feature_flag.created,feature_flag.updated, or * for every change"),
    Flag.optional
  ),
  description: Flag.String("description").pipe(Flag.withDescription("What the webhook is for"), Flag.optional),
  enabled: Flag.String("enabled").pipe(Flag.withDescription("true or false: whether changes are sent"), Flag.optional),
  data: dataFlag()
}

const settings = (values: {
  readonly events: Option.Option<string>
  readonly description: Option.Option<string>
  readonly enabled: Option.Option<string>
}) => given({ events: Option.map(values.events, commaList), description: values.description, enabled: values.enabled })

const list = webhook.list({
  description: "List a project's webhooks, oldest first (never their secrets)",
  columns: ["id", "url", "events", "enabled", "description"],
  row: (found: Webhook) => ({ ...found, events: found.events.join(",") }),
  fetch: ({ client, at }, query) => client.webhooks.list({ params: at, query })
})

const get = webhook.get({
  description: "Show a webhook",
  fetch: ({ client, at, id }) => client.webhooks.retrieve({ params: { ...at, id } })
})

const create = webhook.create({
  description: "Add a webhook; its signing secret is shown this once",
  input: { url: Flag.String("receiver").pipe(Flag.withDescription("The receiver's http or https URL (the server's own is --url)")) },
  flags: settingFlags,
  body: (values) => Effect.map(extraData(values.data), (extra) => ({ ...extra, ...settings(values), url: values.url })),
  schema: (core) => core.WebhookCreate,
  send: ({ client, at }, payload) => client.webhooks.create({ params: at, payload }),
  show: (created) =>
    `${details(created, [...FIELDS, "secret"])}\nThe secret is shown only this once: verify deliveries with it (Standard Webhooks).`
})

const update = webhook.update("update", {
  description: "Change a webhook's URL, events, description or switch",
  flags: { url: Flag.String("receiver").pipe(Flag.withDescription("A new receiver URL"), Flag.optional), ...settingFlags },
  body: (values) => Effect.map(extraData(values.data), (extra) => ({ ...extra, ...settings(values), ...given({ url: values.url }) })),
  schema: (core) => core.WebhookUpdate,
  send: ({ client, at, id }, payload) => client.webhooks.update({ params: { ...at, id }, payload })
})

const remove = webhook.delete({
  description: "Remove a webhook with its deliveries",
  send: ({ client, at, id }) => client.webhooks.destroy({ params: { ...at, id } })
})

/** A delivery as one row: its last attempt's outcome stands for the attempts. */
const deliveryRow = (delivery: WebhookDelivery) => {
  const last = delivery.attempts.at(-1)
  return {
    id: delivery.id,
    event: delivery.event,
    status: delivery.status,
    attempts: delivery.attempts.length,
    last: last === undefined ? "" : last.status_code ?? last.error ?? "",
    next_attempt_at: delivery.next_attempt_at ?? "",
    created_at: delivery.created_at
  }
}

const deliveries = webhook.listOf("deliveries", {
  description: "List a webhook's deliveries, newest first (--json shows every attempt)",
  columns: ["id", "event", "status", "attempts", "last", "next_attempt_at", "created_at"],
  row: deliveryRow,
  fetch: ({ client, at, id }, query) => client.webhooks.deliveries({ params: { ...at, id }, query })
})

const test = webhook.onItem("test", {
  description: "Send a webhook.test delivery now; follow it with `hedgerow webhooks deliveries`",
  run: ({ client, at, id, json }) =>
    client.webhooks.test({ params: { ...at, id } }).pipe(
      Effect.flatMap(emit(json, (delivery: WebhookDelivery) => `Test delivery ${delivery.id} is on its way to webhook ${id}.`))
    )
})

export const webhooks = Command.make("webhooks").pipe(
  Command.withDescription("A project's signed change webhooks, through the API (--url, --key)"),
  Command.withSubcommands([list, get, create, update, remove, deliveries, test])
)
