import { Context, Layer } from "effect"
import type { WatchedTable } from "./watched.ts"

/**
 * When what this process holds in memory may be served. Every cache reads the version of the tables its
 * entry is made of before it reads the database, and keeps the entry only under that version: a committed
 * change to one of them (this process at commit, another process through the store's change feed) moves
 * the version on, so no entry read before the change is served after it, while changes to other tables
 * leave it alone. While the feed is down this process cannot hear other processes' changes, so nothing is
 * served from memory until it is back, and everything is read afresh then.
 */
export interface FreshnessShape {
  /** Moves on with every change to any of `tables`; an entry is good only under the version it was read in. */
  readonly version: (tables: ReadonlyArray<WatchedTable>) => number
  /** Whether memory may be served at all: the change feed is listening. */
  readonly live: () => boolean
  /**
   * What committed statements wrote: each a table's name, `table:row` for one row of it (the row's text
   * is the table's own, e.g. `feature_flags:<project>:<id>`), or `*` for anything.
   */
  readonly changed: (changes: ReadonlyArray<string>) => void
  /** Where the journal of changes stands now, to ask `rowsChangedSince` later. */
  readonly position: () => number
  /**
   * The rows of `table` changed since `position` (repeats possible), or undefined when some change since
   * is not known row by row (a whole table, everything, a lost feed, or more than the journal keeps).
   */
  readonly rowsChangedSince: (table: WatchedTable, position: number) => ReadonlyArray<string> | undefined
  /** The feed stopped: changes elsewhere may go unheard. */
  readonly lost: () => void
  /** The feed listens (again): whatever was missed meanwhile is dropped with every version. */
  readonly resumed: () => void
  /** Registers a part of the read model under `name`; `size` says how many entries it holds when asked. */
  readonly holds: (name: string, size: () => number) => void
  /** The entries each registered part holds now, for monitoring (parts of one name added together). */
  readonly entries: () => ReadonlyMap<string, number>
  /**
   * Calls `callback` whenever the feed names `name`, a name no cache reads (the webhook queues'), and
   * when the feed listens again, since it may have missed one meanwhile; answers how to stop. Such a
   * name moves no version and takes no place in the journal.
   */
  readonly onNotice: (name: string, callback: () => void) => () => void
}

/** Changes the journal keeps; a cache further behind than that reads its entry afresh. */
const JOURNAL_SIZE = 4096

/** `countEntries`: keep the parts that register, for `entries`; the default freshness, shared by the process, does not. */
const makeFreshness = (countEntries: boolean): FreshnessShape => {
  // A table's version is the sum of its own count and the count of changes to everything: both only grow,
  // so a sum that is unchanged means none of its parts changed.
  let everything = 0
  const counts = new Map<string, number>()
  let live = false
  // The latest changes in order: change number `position - journal.length + i` is `journal[i]`, a table
  // with its row, or a table (or `*`) alone when no row is known.
  let position = 0
  let journal: Array<readonly [table: string, row: string | undefined]> = []
  const record = (table: string, row: string | undefined) => {
    position++
    journal.push([table, row])
    if (journal.length > 2 * JOURNAL_SIZE) journal = journal.slice(-JOURNAL_SIZE)
  }
  const changeEverything = () => {
    everything++
    record("*", undefined)
  }
  const parts: Array<readonly [name: string, size: () => number]> = []
  const notices = new Map<string, Set<() => void>>()
  const noticeAll = () => {
    for (const callbacks of notices.values()) for (const callback of callbacks) callback()
  }
  return {
    version: (tables) => {
      let sum = everything
      for (const table of tables) sum += counts.get(table) ?? 0
      return sum
    },
    live: () => live,
    changed: (changes) => {
      for (const change of changes) {
        if (change === "*") {
          changeEverything()
          continue
        }
        const heard = notices.get(change)
        if (heard !== undefined) {
          for (const callback of heard) callback()
          continue
        }
        const colon = change.indexOf(":")
        const table = colon === -1 ? change : change.slice(0, colon)
        counts.set(table, (counts.get(table) ?? 0) + 1)
        record(table, colon === -1 ? undefined : change.slice(colon + 1))
      }
    },
    position: () => position,
    rowsChangedSince: (table, since) => {
      const first = position - journal.length
      if (since < first) return undefined
      const rows: Array<string> = []
      for (let i = since - first; i < journal.length; i++) {
        const [changed, row] = journal[i]!
        if (changed === "*" || (changed === table && row === undefined)) return undefined
        if (changed === table) rows.push(row!)
      }
      return rows
    },
    lost: () => {
      live = false
      changeEverything()
    },
    resumed: () => {
      live = true
      changeEverything()
      noticeAll()
    },
    holds: (name, size) => {
      if (countEntries) parts.push([name, size])
    },
    entries: () => {
      const totals = new Map<string, number>()
      for (const [name, size] of parts) totals.set(name, (totals.get(name) ?? 0) + size())
      return totals
    },
    onNotice: (name, callback) => {
      const callbacks = notices.get(name) ?? new Set()
      notices.set(name, callbacks.add(callback))
      return () => {
        callbacks.delete(callback)
        if (callbacks.size === 0) notices.delete(name)
      }
    }
  }
}

/**
 * The default is a process that hears of no change: memory is never served, which is always correct. A
 * store with a change feed provides a live one.
 */
export const Freshness = Context.Reference<FreshnessShape>("hedgerow/Freshness", {
  defaultValue: () => makeFreshness(false)
})

/** A fresh, not yet live freshness for a change feed to drive. */
export const freshnessLayer = Layer.sync(Freshness, () => makeFreshness(true))
