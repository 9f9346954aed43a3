import { Schema } from "effect"
import { OrganizationId, PersonalApiKeyId, ProjectId, UserId } from "../shared/ids.ts"
import { Timestamp } from "../shared/time.ts"

/** A stored key: only its sha256 (`secure_value`) and a mask, never the key itself. */
export const PersonalApiKey = Schema.Struct({
  id: PersonalApiKeyId,
  user_id: UserId,
  label: Schema.String,
  secure_value: Schema.String,
  mask_value: Schema.String,
  scopes: Schema.Array(Schema.String),
  scoped_organizations: Schema.NullOr(Schema.Array(OrganizationId)),
  scoped_teams: Schema.NullOr(Schema.Array(ProjectId)),
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp)
})
export type PersonalApiKey = typeof PersonalApiKey.Type

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
