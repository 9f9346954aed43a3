import { ProjectService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import type { Operation } from "../operation.ts"

export const projects = {
  list: ({ actor, query, url }) =>
    ProjectService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  retrieve: ({ actor, params }) => ProjectService.use((s) => s.retrieveVisible(actor, params["project_id"]!))
} as const satisfies Record<string, Operation>
