import { bucketHash } from "./bucket-hash.ts"
import type { HashPrefix } from "./hash-prefix.ts"

/**
 * Whether the identifier's rollout hash under `prefix` (by `hash`, the SDK's unless given) falls within a
 * percentage; 100 lets everyone in without hashing.
 */
export const inRollout = (percentage: number, prefix: HashPrefix, identifier: string, hash = bucketHash): boolean =>
  percentage === 100 || hash(prefix, identifier, "") <= percentage / 100

/** The variant whose cumulative share first exceeds the hash, or null where the shares stop short of it. */
export const variantAt = (hash: number, variants: ReadonlyArray<{ readonly key: string; readonly rollout_percentage: number }>): string | null => {
  let boundary = 0
  for (const variant of variants) {
    boundary += variant.rollout_percentage / 100
    if (hash < boundary) return variant.key
  }
  return null
}
