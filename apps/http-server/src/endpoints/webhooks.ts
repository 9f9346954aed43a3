import { toEnvelope, WebhookService } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const webhooks = bindGroup("webhooks", {
  list: ({ actor, params, query, url }) =>
    WebhookService.use((s) => s.list(actor, params.project_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, params, body }) => WebhookService.use((s) => s.create(actor, params.project_id, body)),
  retrieve: ({ actor, params }) => WebhookService.use((s) => s.retrieve(actor, params.project_id, params.id)),
  update: ({ actor, params, body }) => WebhookService.use((s) => s.update(actor, params.project_id, params.id, body)),
  destroy: ({ actor, params }) => WebhookService.use((s) => s.destroy(actor, params.project_id, params.id)),
  deliveries: ({ actor, params, query, url }) =>
    WebhookService.use((s) => s.deliveries(actor, params.project_id, params.id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  test: ({ actor, params, body }) => WebhookService.use((s) => s.test(actor, params.project_id, params.id, body))
})
