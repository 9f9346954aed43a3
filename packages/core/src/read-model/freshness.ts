import { Context, Layer } from "effect"

/**
 * When what this process holds in memory may be served. Every cache reads `epoch` before it reads the
 * database and keeps the entry only under that epoch: a committed change anywhere (this process at
 * commit, another process through the store's change feed) moves the epoch on, so no entry read before
 * the change is served after it. While the feed is down this process cannot hear other processes'
 * changes, so nothing is served from memory until it is back, and everything is read afresh then.
 */
export interface FreshnessShape {
  /** Moves on with every relevant change; an entry is good only under the epoch it was read in. */
  readonly epoch: () => number
  /** Whether memory may be served at all: the change feed is listening. */
  readonly live: () => boolean
  /** Tables written by a committed transaction, or `*` for any. */
  readonly changed: (tables: ReadonlyArray<string>) => void
  /** The feed stopped: changes elsewhere may go unheard. */
  readonly lost: () => void
  /** The feed listens (again): whatever was missed meanwhile is dropped with the epoch. */
  readonly resumed: () => void
}

/** The tables whose rows the in-memory read model holds; a write to any other table changes nothing here. */
export const READ_MODEL_TABLES: ReadonlySet<string> = new Set([
  "users", "personal_api_keys", "memberships", "organizations", "projects", "roles", "role_memberships", "feature_flags"
])

const makeFreshness = (): FreshnessShape => {
  let epoch = 0
  let live = false
  return {
    epoch: () => epoch,
    live: () => live,
    changed: (tables) => {
      if (tables.some((table) => table === "*" || READ_MODEL_TABLES.has(table))) epoch++
    },
    lost: () => {
      live = false
      epoch++
    },
    resumed: () => {
      live = true
      epoch++
    }
  }
}

/**
 * The default is a process that hears of no change: memory is never served, which is always correct. A
 * store with a change feed provides a live one.
 */
export const Freshness = Context.Reference<FreshnessShape>("hedgerow/Freshness", {
  defaultValue: makeFreshness
})

/** A fresh, not yet live freshness for a change feed to drive. */
export const freshnessLayer = Layer.sync(Freshness, makeFreshness)
