import { ValidationError } from "../../shared/errors.ts"

/** Flag key rules, in PostHog's order: length (a field rule), uniqueness among live flags, characters. */
export const MAX_KEY_LENGTH = 400

const KEY_PATTERN = /^[a-zA-Z0-9_-]+$/

export const keyTaken = () => ValidationError.field("key", "There is already a feature flag with this key.", "unique")

export const keyCharactersError = (key: string): ValidationError | undefined =>
  KEY_PATTERN.test(key)
    ? undefined
    : ValidationError.field("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")

/**
 * A tombstone: a soft-deleted flag gives its key up by renaming it, never by being deleted. Valid keys cannot hold `:`, so a
 * key with this suffix can only be a tombstone, and the original key is recovered by stripping it.
 */
export const tombstoneKey = (key: string, id: number) => `${key}:deleted:${id}`

export const originalKeyOf = (key: string, id: number): string => {
  const suffix = `:deleted:${id}`
  return key.endsWith(suffix) ? key.slice(0, -suffix.length) : key
}
