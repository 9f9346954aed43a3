import { Effect, Option } from "effect"
import type { FreshnessShape } from "./freshness.ts"

/** Entries one lookup keeps at most; past it the lookup starts over, so a flood of keys cannot grow the heap. */
const MAX_ENTRIES = 10_000

/**
 * A store lookup served from memory while `freshness` allows. Only found values are kept: an unknown id
 * is asked of the store every time. An entry is kept under the epoch read before the store was asked, so
 * a change committed while the lookup ran has already moved the epoch on, and the entry is never served.
 */
export const memoized = <K, A, E, R>(
  freshness: FreshnessShape,
  lookup: (key: K) => Effect.Effect<Option.Option<A>, E, R>,
  /** The map key of a lookup key that is not a primitive. */
  keyOf: (key: K) => unknown = (key) => key
) => {
  const entries = new Map<unknown, { readonly epoch: number; readonly value: A }>()
  return (lookupKey: K): Effect.Effect<Option.Option<A>, E, R> => {
    const key = keyOf(lookupKey)
    const live = freshness.live()
    const epoch = freshness.epoch()
    const entry = entries.get(key)
    if (live && entry !== undefined && entry.epoch === epoch) return Effect.succeed(Option.some(entry.value))
    return Effect.tap(lookup(lookupKey), (found) =>
      Effect.sync(() => {
        if (Option.isNone(found)) return entries.delete(key)
        if (!live) return
        if (entries.size >= MAX_ENTRIES) entries.clear()
        entries.set(key, { epoch, value: found.value })
      }))
  }
}
