import { batchExports } from "./batch-exports.ts"
import { capture } from "./capture.ts"
import { cohorts } from "./cohorts.ts"
import { domains } from "./domains.ts"
import type {
  Binding,
  GroupBindings,
  GroupName,
  PublicBinding,
  PublicGroupBindings,
  PublicGroupName,
  SessionBinding,
  SessionGroupBindings,
  SessionGroupName
} from "./endpoint.ts"
import { featureFlags } from "./feature-flags.ts"
import { flagDefinitions } from "./flag-definitions.ts"
import { flagEvaluation } from "./flag-evaluation.ts"
import { flagRoleAccess } from "./flag-role-access.ts"
import { groupTypes } from "./group-types.ts"
import { flagUsage } from "./flag-usage.ts"
import { identity } from "./identity.ts"
import { invites } from "./invites.ts"
import { members } from "./members.ts"
import { organizationProjects } from "./organization-projects.ts"
import { organizations } from "./organizations.ts"
import { personalApiKeys } from "./personal-api-keys.ts"
import { projects } from "./projects.ts"
import { roles } from "./roles.ts"
import { sdkConfig } from "./sdk-config.ts"
import { sessions } from "./sessions.ts"
import { signup } from "./signup.ts"

export type * from "./endpoint.ts"
export { answer, bindPublicGroup, bindSessionGroup, isAnswer } from "./endpoint.ts"

/**
 * Every authenticated endpoint bound to its core call, one file per group of the contract. The HTTP
 * handlers and the harness's in-process target both run these, so each binding is written once.
 */
export const endpoints: { readonly [G in GroupName]: GroupBindings<G> } = {
  organizations,
  organizationProjects,
  domains,
  batchExports,
  invites,
  members,
  roles,
  projects,
  featureFlags,
  flagRoleAccess,
  flagDefinitions,
  groupTypes,
  flagUsage,
  cohorts,
  personalApiKeys,
  identity
}

/** The endpoints answered without a caller, bound to core the same way. */
export const publicEndpoints: { readonly [G in PublicGroupName]: PublicGroupBindings<G> } = {
  flagEvaluation,
  sdkConfig,
  capture
}

/** The endpoints answered whoever calls, which read the request's session themselves. */
export const sessionEndpoints: { readonly [G in SessionGroupName]: SessionGroupBindings<G> } = {
  sessions,
  signup
}

/** Whether a group reads the request's session itself. */
export const isSessionGroup = (group: string): group is SessionGroupName => Object.prototype.hasOwnProperty.call(sessionEndpoints, group)

/** A session endpoint's binding by name, for callers that choose endpoints at run time (the harness). */
export const sessionBindingOf = (group: SessionGroupName, endpoint: string): SessionBinding<any> | undefined =>
  new Map(Object.entries<SessionBinding<any>>(sessionEndpoints[group])).get(endpoint)

/** Whether a group is answered without a caller. */
export const isPublicGroup = (group: string): group is PublicGroupName => Object.prototype.hasOwnProperty.call(publicEndpoints, group)

/** A public endpoint's binding by name, for callers that choose endpoints at run time (the harness). */
export const publicBindingOf = (group: PublicGroupName, endpoint: string): PublicBinding<any> | undefined =>
  new Map(Object.entries<PublicBinding<any>>(publicEndpoints[group])).get(endpoint)

/** An endpoint's binding by name, for callers that choose endpoints at run time (the harness). */
export const bindingOf = (group: GroupName, endpoint: string): Binding<any> | undefined =>
  new Map(Object.entries<Binding<any>>(endpoints[group])).get(endpoint)
