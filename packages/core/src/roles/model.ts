import { Schema, SchemaTransformation, Struct } from "effect"
import { Choice, maxLength, notBlank, rule, Trimmed } from "../shared/fields.ts"
import { OrganizationId, RoleId, RoleMembershipId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { UserSummary } from "../users/model.ts"
import { Member } from "../members/model.ts"

/** A role's access level to feature flags, PostHog's older per-role setting: 21 can only view, 37 can always edit. */
export const FeatureFlagsAccessLevel = Schema.Literals([21, 37])
export type FeatureFlagsAccessLevel = typeof FeatureFlagsAccessLevel.Type
export const AccessLevel = { canOnlyView: 21, canAlwaysEdit: 37 } as const

/**
 * A role membership: a user in a role, with their membership of the role's organization. A membership
 * of a role is never changed, only made and ended, so `updated_at` is when it was made.
 */
export const RoleMembership = Schema.Struct({
  id: RoleMembershipId,
  role_id: RoleId,
  organization_member: Member,
  user: UserSummary,
  joined_at: Timestamp,
  updated_at: Timestamp
})
export type RoleMembership = typeof RoleMembership.Type

/**
 * A role. `feature_flags_access_level` is PostHog's older per-role setting, which the flag edit rules
 * read; `is_default` is false, as no organization here names a default role.
 */
export const Role = Schema.Struct({
  id: RoleId,
  name: Schema.String,
  feature_flags_access_level: FeatureFlagsAccessLevel,
  created_at: Timestamp,
  created_by: Schema.NullOr(UserSummary),
  members: Schema.Array(RoleMembership),
  is_default: Schema.Boolean
})
export type Role = typeof Role.Type

/** A role as the roles table holds it: its organization and creator by id, no members. */
export const RoleRecord = Schema.Struct({
  ...Struct.pick(Role.fields, ["id", "name", "feature_flags_access_level", "created_at"]),
  organization_id: OrganizationId,
  created_by_id: Schema.NullOr(UserId)
})
export type RoleRecord = typeof RoleRecord.Type

/** A role's name: text of at most 200 characters, unique in the organization whatever its case. */
const RoleName = Trimmed.check(notBlank, maxLength(200))
const Level = Choice([AccessLevel.canOnlyView, AccessLevel.canAlwaysEdit])

/** Body of `POST …/roles/`. */
export const RoleCreate = Schema.Struct({
  name: RoleName,
  feature_flags_access_level: Schema.optionalKey(Level)
})
export type RoleCreate = typeof RoleCreate.Type

/** Body of `PATCH …/roles/{id}/`. */
export const RoleUpdate = Schema.Struct({
  name: Schema.optionalKey(RoleName),
  feature_flags_access_level: Schema.optionalKey(Level)
})
export type RoleUpdate = typeof RoleUpdate.Type

/**
 * A UUID as PostHog reads one: hex text with or without hyphens, braces or a `urn:uuid:` prefix, or an
 * integer; the canonical text, or undefined when it is none.
 */
const uuidOf = (value: unknown): string | undefined => {
  let hex: string
  if (typeof value === "string") {
    hex = value.replace(/urn:/g, "").replace(/uuid:/g, "").replace(/^[{}]+|[{}]+$/g, "").replace(/-/g, "")
    if (!/^[0-9a-fA-F]{32}$/.test(hex)) return undefined
  } else if (typeof value === "boolean" || (typeof value === "number" && Number.isSafeInteger(value) && value >= 0)) {
    hex = Number(value).toString(16).padStart(32, "0")
  } else {
    return undefined
  }
  const h = hex.toLowerCase()
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}

/** A UUID field (not null), decoded to the canonical text, with PostHog's messages. */
const UuidInput = Schema.Unknown.check(
  rule<unknown>("null", (value) => (value === null ? "This field may not be null." : undefined)),
  rule<unknown>("invalid", (value) => (uuidOf(value) === undefined ? "Must be a valid UUID." : undefined))
).pipe(Schema.decodeTo(Schema.String, SchemaTransformation.transform<string, unknown>({ decode: (value) => uuidOf(value)!, encode: (text) => text })))

/** Body of `POST …/roles/{id}/role_memberships/`: the user, an active member of the role's organization. */
export const RoleMembershipCreate = Schema.Struct({ user_uuid: UuidInput })
export type RoleMembershipCreate = typeof RoleMembershipCreate.Type
