import { Schema } from "effect"
import { Email, Integer, maxLength, NonEmptyList, notBlank, rule, SerialReference, Text, Trimmed } from "../shared/fields.ts"
import { isUuid } from "../shared/ids.ts"
import { isScopeGrant } from "../shared/scope.ts"

/** A key's label has at most 40 characters. */
const LABEL_MAX = 40

/** A key's scopes: at least one, each `*` or `<object>:<read|write>`, PostHog's message naming the first bad one. */
export const KeyScopes = Schema.Array(Text()).check(
  rule<ReadonlyArray<string>>("invalid_input", (scopes) =>
    scopes.length === 0 ? "At least one scope is required." : undefined),
  rule<ReadonlyArray<string>>("invalid_input", (scopes) => {
    const bad = scopes.find((s) => !isScopeGrant(s))
    return bad === undefined ? undefined : `Invalid scope: ${bad}`
  })
)

/** The label: trimmed, then not blank and at most 40 characters. */
const Label = Trimmed.check(notBlank, maxLength(LABEL_MAX))

/**
 * The restriction lists, read as PostHog reads them: project ids are any integers (a project that does
 * not exist is refused as one the caller is no member of), organization ids any text, checked as UUIDs
 * later with PostHog's message.
 */
const ScopedTeams = Schema.Array(Integer)
const ScopedOrganizations = Schema.Array(Text())

/** Body of `POST /api/personal_api_keys/`: the key is the caller's own. */
export const PersonalApiKeyCreate = Schema.Struct({
  label: Label,
  scopes: KeyScopes,
  scoped_teams: Schema.optionalKey(ScopedTeams),
  scoped_organizations: Schema.optionalKey(ScopedOrganizations)
})
export type PersonalApiKeyCreate = typeof PersonalApiKeyCreate.Type

/** Body of `PATCH /api/personal_api_keys/{id}/`: what is given is checked as on create. */
export const PersonalApiKeyUpdate = Schema.Struct({
  label: Schema.optionalKey(Label),
  scopes: Schema.optionalKey(KeyScopes),
  scoped_teams: Schema.optionalKey(ScopedTeams),
  scoped_organizations: Schema.optionalKey(ScopedOrganizations)
})
export type PersonalApiKeyUpdate = typeof PersonalApiKeyUpdate.Type

/**
 * What the operator gives `hedgerow admin keys create`: the holder by e-mail, an optional label, and
 * restrictions that are null (none) or name something, so a typo cannot widen a key.
 */
export const PersonalApiKeyAdminCreate = Schema.Struct({
  email: Email,
  label: Schema.optionalKey(Text({ max: LABEL_MAX, allowBlank: true })),
  scopes: KeyScopes,
  scoped_organizations: Schema.optionalKey(Schema.NullOr(NonEmptyList(
    Schema.String.check(rule<string>("invalid_input", (s) => (isUuid(s) ? undefined : "Must be a valid UUID.")))
  ))),
  scoped_teams: Schema.optionalKey(Schema.NullOr(NonEmptyList(SerialReference)))
})
