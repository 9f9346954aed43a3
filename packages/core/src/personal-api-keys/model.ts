import { Schema, Struct } from "effect"
import { MembershipLevels } from "../members/model.ts"
import { OrganizationId, PersonalApiKeyId, ProjectId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { User } from "../users/model.ts"

/**
 * A stored key: its owner and only its sha256 (`secure_value`), never the key itself. A restriction list
 * that is null or empty restricts nothing.
 */
export const PersonalApiKey = Schema.Struct({
  id: PersonalApiKeyId,
  label: Schema.String,
  mask_value: Schema.String,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  last_rolled_at: Schema.NullOr(Timestamp),
  user_id: UserId,
  scopes: Schema.Array(Schema.String),
  scoped_teams: Schema.NullOr(Schema.Array(ProjectId)),
  scoped_organizations: Schema.NullOr(Schema.Array(OrganizationId)),
  secure_value: Schema.String
})
export type PersonalApiKey = typeof PersonalApiKey.Type

/** What a new key's row is given; the database fills in its id and creation time. */
export const NewPersonalApiKey = PersonalApiKey.mapFields(Struct.omit(["id", "created_at", "last_used_at", "last_rolled_at"]))
export type NewPersonalApiKey = typeof NewPersonalApiKey.Type

/** The fields a key's owner may change after creation. */
export const PersonalApiKeyChanges = PersonalApiKey.mapFields(Struct.pick(["label", "scopes", "scoped_teams", "scoped_organizations"]))
export type PersonalApiKeyChanges = typeof PersonalApiKeyChanges.Type

/**
 * A key as PostHog answers it, in its field order: `value` is the key itself right after it is made or
 * rolled and null ever after; the restrictions are always lists, `[]` meaning unrestricted (PostHog's
 * clients read them as arrays).
 */
export const PersonalApiKeyView = Schema.Struct({
  id: PersonalApiKeyId,
  label: Schema.String,
  value: Schema.NullOr(Schema.String),
  mask_value: Schema.String,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp),
  user_id: UserId,
  scopes: Schema.Array(Schema.String),
  scoped_teams: Schema.Array(ProjectId),
  scoped_organizations: Schema.Array(OrganizationId),
  last_rolled_at: Schema.NullOr(Timestamp)
})
export type PersonalApiKeyView = typeof PersonalApiKeyView.Type

/** A key with its owner and the owner's memberships: all that authentication needs, in one read. */
export const KeyHolder = Schema.Struct({
  key: PersonalApiKey,
  user: User,
  memberships: MembershipLevels
})
export type KeyHolder = typeof KeyHolder.Type

/** The answer for a stored key; `value` only when the key was made or rolled by this very request. */
export const toPersonalApiKeyView = (key: PersonalApiKey, value: string | null = null): PersonalApiKeyView => ({
  id: key.id,
  label: key.label,
  value,
  mask_value: key.mask_value,
  created_at: key.created_at,
  last_used_at: key.last_used_at,
  user_id: key.user_id,
  scopes: key.scopes,
  scoped_teams: key.scoped_teams ?? [],
  scoped_organizations: key.scoped_organizations ?? [],
  last_rolled_at: key.last_rolled_at
})
