import { ProjectService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const organizationProjects = bindGroup("organizationProjects", {
  list: ({ actor, params, query, url }) =>
    ProjectService.use((s) => s.list(actor, params.organization_id, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  create: ({ actor, params, body }) => ProjectService.use((s) => s.create(actor, params.organization_id, body)),
  retrieve: ({ actor, params }) => ProjectService.use((s) => s.retrieve(actor, params.organization_id, params.id))
})
