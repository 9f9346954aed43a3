import { ProjectService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import { bindGroup } from "./binding.ts"

export const projects = bindGroup("projects", {
  list: ({ actor, query, url }) =>
    ProjectService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  retrieve: ({ actor, params }) => ProjectService.use((s) => s.retrieveVisible(actor, params.project_id))
})
