import { DomainService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const domains = bindGroup("domains", {
  list: ({ actor, params, query, url }) =>
    DomainService.use((s) => s.list(actor, params.organization_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, params, body }) => DomainService.use((s) => s.create(actor, params.organization_id, body)),
  retrieve: ({ actor, params }) => DomainService.use((s) => s.retrieve(actor, params.organization_id, params.id)),
  update: ({ actor, params, body }) => DomainService.use((s) => s.update(actor, params.organization_id, params.id, body)),
  destroy: ({ actor, params }) => DomainService.use((s) => s.destroy(actor, params.organization_id, params.id)),
  verify: ({ actor, params, body }) => DomainService.use((s) => s.verify(actor, params.organization_id, params.id, body))
})
