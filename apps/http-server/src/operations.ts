import type { Operation } from "./operation.ts"
import { batchExports } from "./operations/batch-exports.ts"
import { domains } from "./operations/domains.ts"
import { featureFlags, flagRoleAccess } from "./operations/feature-flags.ts"
import { identity } from "./operations/identity.ts"
import { invites } from "./operations/invites.ts"
import { members } from "./operations/members.ts"
import { organizationProjects, organizations } from "./operations/organizations.ts"
import { projects } from "./operations/projects.ts"

export type { Operation, OperationInput } from "./operation.ts"

/**
 * Every authenticated endpoint of the contract bound to its core call, keyed like HedgerowApi's groups
 * and endpoints (one file per resource under operations/). The HTTP handlers and the harness's
 * in-process target both run these, so the binding is written once; each entry only translates.
 */
export const operations = {
  organizations,
  organizationProjects,
  domains,
  batchExports,
  invites,
  members,
  projects,
  featureFlags,
  flagRoleAccess,
  identity
} as const satisfies Record<string, Record<string, Operation>>

export type Operations = typeof operations
