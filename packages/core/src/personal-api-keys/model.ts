import { Schema, Struct } from "effect"
import { Membership } from "../members/model.ts"
import { OrganizationId, PersonalApiKeyId, ProjectId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"
import { User } from "../users/model.ts"

/** `GET /api/personal_api_keys/@current/`: the calling key, without its secret. */
export const PersonalApiKeyView = Schema.Struct({
  id: PersonalApiKeyId,
  label: Schema.String,
  scopes: Schema.Array(Schema.String),
  scoped_organizations: Schema.NullOr(Schema.Array(OrganizationId)),
  scoped_teams: Schema.NullOr(Schema.Array(ProjectId)),
  mask_value: Schema.String,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp)
})
export type PersonalApiKeyView = typeof PersonalApiKeyView.Type

/** A stored key: its owner and only its sha256 (`secure_value`) besides the view, never the key itself. */
export const PersonalApiKey = Schema.Struct({
  ...PersonalApiKeyView.fields,
  user_id: UserId,
  secure_value: Schema.String
})
export type PersonalApiKey = typeof PersonalApiKey.Type

/** What a new key's row is given; the database fills in its id and creation time. */
export const NewPersonalApiKey = PersonalApiKey.mapFields(Struct.omit(["id", "created_at", "last_used_at"]))
export type NewPersonalApiKey = typeof NewPersonalApiKey.Type

/** A key with its owner and the owner's memberships: all that authentication needs, in one read. */
export const KeyHolder = Schema.Struct({
  key: PersonalApiKey,
  user: User,
  memberships: Schema.Array(Membership.mapFields(Struct.pick(["organization_id", "level"])))
})
export type KeyHolder = typeof KeyHolder.Type

export const toPersonalApiKeyView = (key: PersonalApiKey): PersonalApiKeyView => ({
  id: key.id,
  label: key.label,
  scopes: key.scopes,
  scoped_organizations: key.scoped_organizations,
  scoped_teams: key.scoped_teams,
  mask_value: key.mask_value,
  created_at: key.created_at,
  last_used_at: key.last_used_at
})
