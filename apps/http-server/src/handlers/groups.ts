import { Layer } from "effect"
import { IdentityHandlers } from "./identity.ts"
import { OrganizationProjectsHandlers, OrganizationsHandlers } from "./organizations.ts"
import { ProjectsHandlers } from "./projects.ts"
import { SystemHandlers } from "./system.ts"

/** One handler layer per HttpApi group (one file per resource), each only binding endpoints to operations. */
export const HandlersLive = Layer.mergeAll(
  OrganizationsHandlers,
  OrganizationProjectsHandlers,
  ProjectsHandlers,
  IdentityHandlers,
  SystemHandlers
)
