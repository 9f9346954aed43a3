import { fieldsChanged } from "../api/changed-fields.ts"
import type { Success } from "../api/contract.ts"
import { type Restriction, restrictionFields, restrictionOf, UNRESTRICTED } from "./restrictions.ts"
import { choiceOf, NO_SCOPES, type ScopeChoice, scopesOf } from "./scopes.ts"

/** A key as the API answers it; `value` is set only in the answer to a create or a roll. */
export type PersonalApiKey = Success<"GET", "/api/personal_api_keys/:id/">

export const KEYS_PATH = "/api/personal_api_keys/"
export const KEY_PATH = "/api/personal_api_keys/:id/"

/** What the key form edits. */
export interface KeyDraft {
  readonly label: string
  readonly scopes: ScopeChoice
  readonly restriction: Restriction
}

export const emptyKeyDraft = (): KeyDraft => ({ label: "", scopes: NO_SCOPES, restriction: UNRESTRICTED })

export const keyDraftOf = (key: PersonalApiKey): KeyDraft => ({
  label: key.label,
  scopes: choiceOf(key.scopes),
  restriction: restrictionOf(key)
})

/** The body a create sends: every field, the label as typed (the API trims it and judges it). */
export const keyFieldsOf = (draft: KeyDraft) => ({ label: draft.label, scopes: scopesOf(draft.scopes), ...restrictionFields(draft.restriction) })

/**
 * The body an edit sends: only what differs from what the key was, so a restriction the form does not
 * show (a key restricted both ways, made by a script) is kept as it is.
 */
export const changedFields = (before: KeyDraft, after: KeyDraft) => fieldsChanged(keyFieldsOf(before), keyFieldsOf(after))
