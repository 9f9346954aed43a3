import type { Effect } from "effect"
import { type Access, accessOf, type BoundGroupName } from "./access.ts"
import { batchExports } from "./batch-exports.ts"
import type { AccessParts, GroupBindings, RequestParts, Services } from "./binding.ts"
import { capture } from "./capture.ts"
import { cohorts } from "./cohorts.ts"
import { domains } from "./domains.ts"
import { featureFlags } from "./feature-flags.ts"
import { flagCopy } from "./flag-copy.ts"
import { flagDefinitions } from "./flag-definitions.ts"
import { flagEvaluation } from "./flag-evaluation.ts"
import { flagRoleAccess } from "./flag-role-access.ts"
import { flagUsage } from "./flag-usage.ts"
import { groupTypes } from "./group-types.ts"
import { identity } from "./identity.ts"
import { invites } from "./invites.ts"
import { loginPrecheck } from "./login-precheck.ts"
import { members } from "./members.ts"
import { organizationProjects } from "./organization-projects.ts"
import { organizations } from "./organizations.ts"
import { personalApiKeys } from "./personal-api-keys.ts"
import { projects } from "./projects.ts"
import { roles } from "./roles.ts"
import { sdkConfig } from "./sdk-config.ts"
import { sessions } from "./sessions.ts"
import { signup } from "./signup.ts"
import { twoFactor, twoFactorLogin } from "./two-factor.ts"
import { webhooks } from "./webhooks.ts"

/**
 * Every endpoint of the contract bound to its core call, by group, one file per group. The HTTP
 * handlers and the harness's in-process target both run these, so each binding is written once.
 */
export const endpoints: { readonly [G in BoundGroupName]: GroupBindings<G> } = {
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
  flagCopy,
  flagDefinitions,
  groupTypes,
  flagUsage,
  cohorts,
  webhooks,
  personalApiKeys,
  identity,
  flagEvaluation,
  sdkConfig,
  capture,
  sessions,
  loginPrecheck,
  signup,
  twoFactor,
  twoFactorLogin
}

/** Every group bound to core, in the order of `endpoints`. */
export const boundGroups = Object.keys(endpoints) as ReadonlyArray<BoundGroupName>

/** A binding run by a caller that picks it by name: what it is handed is typed by its access alone. */
export type RunnableBinding<A extends Access> = (
  call: RequestParts<unknown, unknown, unknown> & AccessParts[A]
) => Effect.Effect<unknown, unknown, Services>

/** A binding picked by name, with the access that says what its call holds. */
export type NamedBinding = { readonly [A in Access]: { readonly access: A; readonly run: RunnableBinding<A> } }[Access]

/** Any binding, as the table holds it: whatever it is handed, it answers with some value or failure. */
type HeldBinding = (call: never) => Effect.Effect<unknown, unknown, Services>

/**
 * A group's bindings by endpoint name, for callers that choose endpoints at run time: the HTTP handlers,
 * which register each with HttpApi, and the harness's in-process target. Such a caller hands a binding
 * the path, query and headers decoded by that very endpoint's schemas (HttpApi does, and the harness
 * decodes by the contract), which the types cannot follow through a name known only at run time: the
 * cast from a binding of the table to one that takes any decoded parts stands on that.
 */
const bindingTable: ReadonlyMap<BoundGroupName, ReadonlyMap<string, NamedBinding>> = new Map(boundGroups.map((group) => {
  const access = accessOf(group)
  return [group, new Map(Object.entries<HeldBinding>(endpoints[group]).map(([name, run]) => [name, { access, run } as NamedBinding]))]
}))

/** A group's bindings by endpoint name. */
export const bindingsOf = (group: BoundGroupName): ReadonlyMap<string, NamedBinding> => bindingTable.get(group)!

/** An endpoint's binding by group and name. */
export const bindingOf = (group: BoundGroupName, endpoint: string): NamedBinding | undefined => bindingsOf(group).get(endpoint)
