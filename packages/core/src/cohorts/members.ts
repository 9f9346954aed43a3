import { Schema } from "effect"
import { distinctIdError } from "../shared/distinct-id.ts"
import { ValidationError } from "../shared/errors.ts"
import { isRecord, isTruthy } from "../shared/fields.ts"
import { holdsLoneSurrogate, holdsNul } from "../shared/text.ts"

/**
 * The bodies of a static cohort's member actions, as PostHog reads them: `person_ids` to add, one
 * `person_id` to remove. This service keeps no persons, so those ids are distinct ids.
 */

/** PostHog adds at most this many at once (its batch size). */
export const MAX_ADDED_AT_ONCE = 1000

const refusal = (detail: string) => ValidationError.field(null, detail, "invalid")

/** Why text cannot be stored as a distinct id (`what` names it in the message), or undefined. */
const unstorable = (text: string, what: string): ValidationError | undefined =>
  holdsNul(text) || holdsLoneSurrogate(text)
    ? refusal(`A distinct ID cannot hold a NUL character or a lone surrogate; ${what} does.`)
    : undefined

/**
 * `PATCH {id}/add_persons_to_static_cohort/`: a non-empty list of at most 1000. Ids that are not text
 * (or an integer), or blank, are left out, as PostHog leaves out ids of no person, and none left is
 * refused. Text that could be stored but never matched is refused, saying which: over 200 characters
 * (`/flags` reads no more of a distinct id), or holding what text cannot store.
 */
export const addedMembers = (body: unknown): ReadonlyArray<string> | ValidationError => {
  const given = isRecord(body) ? body["person_ids"] : undefined
  if (!Array.isArray(given)) return refusal("person_ids must be a list")
  if (given.length === 0) return refusal("person_ids cannot be empty")
  if (given.length > MAX_ADDED_AT_ONCE) return refusal("List size exceeds limit")
  const ids: Array<string> = []
  for (const [index, value] of given.entries()) {
    const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value
    if (typeof text !== "string" || text === "") continue
    const what = `item ${index} of person_ids`
    const refused = unstorable(text, what)
    if (refused !== undefined) return refused
    const tooLong = distinctIdError(text, what)
    if (tooLong !== undefined) return refusal(tooLong)
    ids.push(text)
  }
  return ids.length === 0 ? refusal("No valid users to add to cohort") : ids
}

/**
 * `PATCH {id}/remove_person_from_static_cohort/`: one distinct id. Removal is idempotent, so any text
 * that could be stored is taken, however long, so no stored member is out of reach.
 */
export const removedMember = (body: unknown): string | ValidationError => {
  const given = isRecord(body) ? body["person_id"] : undefined
  if (!isTruthy(given)) return refusal("person_id is required")
  if (typeof given !== "string") return refusal("person_id must be a string")
  return unstorable(given, "person_id") ?? given
}

/** The bodies as a client sends them (the service reads them as PostHog does, above). */
export const AddPersonsBody = Schema.Struct({ person_ids: Schema.Array(Schema.String) })
export const RemovePersonBody = Schema.Struct({ person_id: Schema.String })
