import { Schema } from "effect"
import { ValidationError } from "../shared/errors.ts"
import { characters, isRecord, isTruthy } from "../shared/fields.ts"
import { MAX_DISTINCT_ID_LENGTH } from "./csv.ts"

/**
 * The bodies of a static cohort's member actions, as PostHog reads them: `person_ids` to add, one
 * `person_id` to remove. This service keeps no persons, so those ids are distinct ids.
 */

/** PostHog adds at most this many at once (its batch size). */
export const MAX_ADDED_AT_ONCE = 1000

const refusal = (detail: string) => ValidationError.field(null, detail, "invalid")

const LONE_SURROGATE = /\p{Surrogate}/u

/** A distinct id as one can be stored and asked about: text, not blank, no NUL, at most 400 characters. */
const distinctIdOf = (value: unknown): string | undefined => {
  const text = typeof value === "number" && Number.isSafeInteger(value) ? String(value) : value
  if (typeof text !== "string" || text === "" || text.includes("\u0000") || LONE_SURROGATE.test(text)) return undefined
  return characters(text) > MAX_DISTINCT_ID_LENGTH ? undefined : text
}

/**
 * `PATCH {id}/add_persons_to_static_cohort/`: a non-empty list of at most 1000; ids that cannot be
 * distinct ids are left out, as PostHog leaves out ids of no person, and none left is refused.
 */
export const addedMembers = (body: unknown): ReadonlyArray<string> | ValidationError => {
  const given = isRecord(body) ? body["person_ids"] : undefined
  if (!Array.isArray(given)) return refusal("person_ids must be a list")
  if (given.length === 0) return refusal("person_ids cannot be empty")
  if (given.length > MAX_ADDED_AT_ONCE) return refusal("List size exceeds limit")
  const ids = given.flatMap((value) => distinctIdOf(value) ?? [])
  return ids.length === 0 ? refusal("No valid users to add to cohort") : ids
}

/** `PATCH {id}/remove_person_from_static_cohort/`: one distinct id. */
export const removedMember = (body: unknown): string | ValidationError => {
  const given = isRecord(body) ? body["person_id"] : undefined
  if (!isTruthy(given)) return refusal("person_id is required")
  if (typeof given !== "string") return refusal("person_id must be a string")
  return distinctIdOf(given) ?? refusal(`person_id must be a distinct ID: text of at most ${MAX_DISTINCT_ID_LENGTH} characters`)
}

/** The bodies as a client sends them (the service reads them as PostHog does, above). */
export const AddPersonsBody = Schema.Struct({ person_ids: Schema.Array(Schema.String) })
export const RemovePersonBody = Schema.Struct({ person_id: Schema.String })
