import { OrganizationService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./endpoint.ts"

export const organizations = bindGroup("organizations", {
  list: ({ actor, query, url }) =>
    OrganizationService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  retrieve: ({ actor, params }) => OrganizationService.use((s) => s.retrieve(actor, params.organization_id))
})
