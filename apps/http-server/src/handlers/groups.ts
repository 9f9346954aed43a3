import { Layer } from "effect"
import { BatchExportsHandlers } from "./batch-exports.ts"
import { DomainsHandlers } from "./domains.ts"
import { FeatureFlagsHandlers, FlagRoleAccessHandlers } from "./feature-flags.ts"
import { IdentityHandlers } from "./identity.ts"
import { InvitesHandlers } from "./invites.ts"
import { MembersHandlers } from "./members.ts"
import { OrganizationProjectsHandlers, OrganizationsHandlers } from "./organizations.ts"
import { ProjectsHandlers } from "./projects.ts"
import { SystemHandlers } from "./system.ts"

/** One handler layer per HttpApi group (one file per resource), each only binding endpoints to operations. */
export const HandlersLive = Layer.mergeAll(
  OrganizationsHandlers,
  OrganizationProjectsHandlers,
  DomainsHandlers,
  BatchExportsHandlers,
  InvitesHandlers,
  MembersHandlers,
  ProjectsHandlers,
  FeatureFlagsHandlers,
  FlagRoleAccessHandlers,
  IdentityHandlers,
  SystemHandlers
)
