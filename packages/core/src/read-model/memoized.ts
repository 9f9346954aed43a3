import { Cause, Deferred, Effect, Exit, Option } from "effect"
import type { FreshnessShape } from "./freshness.ts"
import type { WatchedTable } from "./watched.ts"

export interface MemoOptions<K> {
  /** What the entries are, as monitoring names this part of the read model (`flags_by_id`). */
  readonly name: string
  /** The tables a value is read from, as READS names them: a change to any of them drops it. */
  readonly reads: ReadonlyArray<WatchedTable>
  /** The map key of a lookup key that is not a primitive. */
  readonly keyOf?: ((key: K) => unknown) | undefined
  /** Entries kept at most; past it the lookup starts over, so a flood of keys cannot grow the heap. */
  readonly maxEntries?: number | undefined
}

/**
 * A store lookup served from memory while `freshness` allows. Only found values are kept: an unknown key
 * is asked of the store every time, so ids that name nothing take no memory. An entry is kept under the
 * version of its tables read before the store was asked: a change committed while the lookup ran has moved
 * the version on already, so that entry is never served. Versions only grow, so an entry of an older
 * version can never be served again, and every entry is let go as soon as a newer version is seen, not
 * when its key is next asked for, which for a key nobody asks again would be never. Lookups of one key
 * that miss together share the store's answer: after a write, the requests waiting for the flag it changed
 * read it once, not once each.
 */
export const memoized = <K, A, E, R>(
  freshness: FreshnessShape,
  lookup: (key: K) => Effect.Effect<Option.Option<A>, E, R>,
  options: MemoOptions<K>
) => {
  const { reads, keyOf = (key: K) => key, maxEntries = 10_000 } = options
  const entries = new Map<unknown, A>()
  const pending = new Map<unknown, { readonly version: number; readonly answer: Deferred.Deferred<Option.Option<A>, E> }>()
  /** The version every entry was read under. */
  let held = -1
  freshness.holds(options.name, () => entries.size)

  const ask = (lookupKey: K, key: unknown, live: boolean, version: number): Effect.Effect<Option.Option<A>, E, R> => {
    const answer = Deferred.makeUnsafe<Option.Option<A>, E>()
    if (live) pending.set(key, { version, answer })
    return Effect.onExit(lookup(lookupKey), (exit) =>
      Effect.sync(() => {
        if (pending.get(key)?.answer === answer) pending.delete(key)
        Deferred.doneUnsafe(answer, exit)
        if (Exit.isFailure(exit)) return
        const found = exit.value
        if (Option.isNone(found)) return entries.delete(key)
        // Read under a version that has moved on meanwhile: never to be served.
        if (!live || version !== held) return
        if (entries.size >= maxEntries) entries.clear()
        entries.set(key, found.value)
      }))
  }

  return (lookupKey: K): Effect.Effect<Option.Option<A>, E, R> => {
    const key = keyOf(lookupKey)
    const live = freshness.live()
    const version = freshness.version(reads)
    if (version !== held) {
      entries.clear()
      held = version
    }
    const value = entries.get(key)
    if (live && value !== undefined) return Effect.succeed(Option.some(value))
    const asked = pending.get(key)
    if (!live || asked === undefined || asked.version !== version) return ask(lookupKey, key, live, version)
    // The one who asked was interrupted: ask again.
    return Effect.catchCause(Deferred.await(asked.answer), (cause) =>
      Cause.hasInterruptsOnly(cause) ? ask(lookupKey, key, live, version) : Effect.failCause(cause))
  }
}
