import { Schema, Struct } from "effect"
import { Bool, maxLength, notBlank, Trimmed } from "../shared/fields.ts"
import { OrganizationId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { Level } from "./levels.ts"

export { Level, mayAdminister, mayGrantLevel, mayManageMember } from "./levels.ts"
export const MembershipLevel = Schema.Literals([Level.member, Level.admin, Level.owner])
export type MembershipLevel = typeof MembershipLevel.Type

/** An organization as its member sees it (discovery endpoints). */
export const OrganizationView = Schema.Struct({
  id: OrganizationId,
  name: Schema.String,
  slug: Schema.String,
  created_at: Timestamp,
  membership_level: Schema.NullOr(MembershipLevel),
  /** Whether members' log-in sessions must pass a second factor (PostHog's setting; null reads as off). */
  enforce_2fa: Schema.NullOr(Schema.Boolean)
})
export type OrganizationView = typeof OrganizationView.Type

/** An organization as the organizations table holds it; the level is the viewer's, from a membership. */
export const Organization = Schema.Struct({
  ...Struct.omit(OrganizationView.fields, ["membership_level"]),
  updated_at: Timestamp
})
export type Organization = typeof Organization.Type

/** An organization's name: text of at most 64 characters. */
const OrganizationName = Trimmed.check(notBlank, maxLength(64))

/** Body of `POST /api/organizations/`; PostHog's other writable settings have no meaning here and are dropped. */
export const OrganizationCreate = Schema.Struct({ name: OrganizationName })
export type OrganizationCreate = typeof OrganizationCreate.Type

/** Body of `PATCH /api/organizations/{id}/`: the name, the two-factor rule, or nothing. */
export const OrganizationUpdate = Schema.Struct({
  name: Schema.optionalKey(OrganizationName),
  enforce_2fa: Schema.optionalKey(Schema.NullOr(Bool))
})
export type OrganizationUpdate = typeof OrganizationUpdate.Type

/** How the caller's organizations are listed: by name, ties broken by id. */
export const byName = (a: { readonly name: string; readonly id: string }, b: { readonly name: string; readonly id: string }) =>
  a.name.localeCompare(b.name) || a.id.localeCompare(b.id)

/** A URL-safe slug derived from the name; uniqueness is settled by the repository. */
export const slugify = (name: string): string =>
  name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48) || "organization"
