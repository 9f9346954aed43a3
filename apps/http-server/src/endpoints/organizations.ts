import { OrganizationService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const organizations = bindGroup("organizations", {
  list: ({ actor, query, url }) =>
    OrganizationService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, body }) => OrganizationService.use((s) => s.found(actor, body)),
  retrieve: ({ actor, params }) => OrganizationService.use((s) => s.retrieve(actor, params.organization_id)),
  update: ({ actor, params, body }) => OrganizationService.use((s) => s.update(actor, params.organization_id, body)),
  destroy: ({ actor, params }) => OrganizationService.use((s) => s.destroy(actor, params.organization_id))
})
