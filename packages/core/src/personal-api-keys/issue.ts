import { Effect } from "effect"
import { ValidationError } from "../shared/errors.ts"
import { maskOf, newPersonalApiKey, secureValueOf } from "../shared/secrets.ts"
import { UserRepository } from "../users/repository.ts"
import type { NewPersonalApiKey } from "./model.ts"
import { PersonalApiKeyRepository } from "./repository.ts"

/** PostHog's per-user key limit. */
export const MAX_KEYS_PER_USER = 10

export const tooManyKeys = () =>
  ValidationError.field(
    null,
    `You can only have ${MAX_KEYS_PER_USER} personal API keys. Remove an existing key before creating a new one.`
  )

/** A new key: the text shown once, and the hash and mask that are all the store keeps of it. */
export const newKeySecret = () => {
  const plain = newPersonalApiKey()
  return { plain, secure_value: secureValueOf(plain), mask_value: maskOf(plain) }
}

/**
 * Inserts a key, inside the caller's transaction, counted under the owner's row lock so that two
 * requests at once cannot pass the limit.
 */
export const insertKeyWithinLimit = (record: NewPersonalApiKey) =>
  Effect.gen(function*() {
    const users = yield* UserRepository
    const keys = yield* PersonalApiKeyRepository
    yield* users.lock(record.user_id)
    if ((yield* keys.countForUser(record.user_id)) >= MAX_KEYS_PER_USER) return yield* tooManyKeys()
    return yield* keys.insert(record)
  })
