import { ValidationError } from "../../shared/errors.ts"

/** A flag key's rules, in PostHog's order: its length (a field rule), uniqueness among live flags, its characters. */
export const MAX_KEY_LENGTH = 400

const KEY_PATTERN = /^[a-zA-Z0-9_-]+$/

export const keyTaken = () => ValidationError.field("key", "There is already a feature flag with this key.", "unique")

export const keyCharactersError = (key: string): ValidationError | undefined =>
  KEY_PATTERN.test(key)
    ? undefined
    : ValidationError.field("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")

/**
 * A soft-deleted flag gives its key up by taking a tombstone key, never by being deleted. A valid key
 * cannot hold `:`, so a key with this suffix can only be a tombstone, and taking the suffix off gives
 * the key back.
 */
const tombstoneSuffix = (id: number) => `:deleted:${id}`

export const tombstoneKey = (key: string, id: number) => `${key}${tombstoneSuffix(id)}`

export const originalKeyOf = (key: string, id: number): string => {
  const suffix = tombstoneSuffix(id)
  return key.endsWith(suffix) ? key.slice(0, -suffix.length) : key
}
