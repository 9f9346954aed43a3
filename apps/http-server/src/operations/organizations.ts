import { OrganizationService, ProjectService, toEnvelope } from "@hedgerow/core"
import { Effect } from "effect"
import type { Operation } from "../operation.ts"

export const organizations = {
  list: ({ actor, query, url }) =>
    OrganizationService.use((s) => s.listVisible(actor, query)).pipe(Effect.map((page) => toEnvelope(page, url))),
  retrieve: ({ actor, params }) => OrganizationService.use((s) => s.retrieve(actor, params["organization_id"]!))
} as const satisfies Record<string, Operation>

export const organizationProjects = {
  list: ({ actor, params, query, url }) =>
    ProjectService.use((s) => s.list(actor, params["organization_id"]!, query)).pipe(
      Effect.map((page) => toEnvelope(page, url))
    ),
  create: ({ actor, params, body }) => ProjectService.use((s) => s.create(actor, params["organization_id"]!, body)),
  retrieve: ({ actor, params }) => ProjectService.use((s) => s.retrieve(actor, params["organization_id"]!, params["id"]!))
} as const satisfies Record<string, Operation>
