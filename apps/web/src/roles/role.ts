import type { FeatureFlagsAccessLevel } from "@hedgerow/core"
import type { Payload, Success } from "../api/contract.ts"

/** The API's paths for an organization's roles and their members, as the contract declares them. */
export const ROLES_PATH = "/api/organizations/:organization_id/roles/"
export const ROLE_PATH = "/api/organizations/:organization_id/roles/:id/"
export const ROLE_MEMBERSHIPS_PATH = "/api/organizations/:organization_id/roles/:role_id/role_memberships/"
export const ROLE_MEMBERSHIP_PATH = "/api/organizations/:organization_id/roles/:role_id/role_memberships/:id/"

/** A role as the API answers it, with every one of its members. */
export type Role = Success<"GET", typeof ROLES_PATH>["results"][number]

/** What a PATCH of a role may send. */
export type RoleChanges = NonNullable<Payload<"PATCH", typeof ROLE_PATH>>

/** The prefix of every read of an organization's roles: what a write to one makes stale. */
export const rolesPrefix = (organizationId: string) => `/api/organizations/${encodeURIComponent(organizationId)}/roles/`

/** What a role lets its members do with feature flags, in words: exactly core's levels (the record is typed by them). */
export const ACCESS_WORDS = {
  21: "Can only view feature flags, and edit those granted to the role",
  37: "Can edit every feature flag"
} as const satisfies Record<FeatureFlagsAccessLevel, string>

export const ACCESS_OPTIONS: ReadonlyArray<readonly [string, string]> = Object.entries(ACCESS_WORDS)

export const countWords = (count: number) => `${count} ${count === 1 ? "member" : "members"}`
