import { Schema } from "effect"
import type { FeatureFlagId, UserId } from "../../shared/ids.ts"
import type { Page, PageRequest } from "../../shared/page.ts"
import { millisOf, type Timestamp } from "../../shared/time.ts"
import { UserSummary } from "../../users/model.ts"
import { derivedColumns } from "../derived.ts"
import type { FlagListFilter, FlagOrderField } from "../management/list-query.ts"
import type { StoredFlag } from "../model.ts"
import { isStale } from "../status.ts"

/** A live flag with what the list's filters read of it, computed once when the project is loaded. */
interface Entry {
  readonly flag: StoredFlag
  /** About what the flag costs in memory, for the read model's budget. */
  readonly bytes: number
  readonly key: string
  readonly name: string
  readonly multivariate: boolean
  readonly fullyRolledOut: boolean
}

/**
 * A project's live (not deleted) flags in memory, newest first: what the list pages through and what
 * evaluation reads. Orders other than the default are sorted on first use and kept until a flag changes.
 * Changes are applied in place, between the synchronous passes that read it, so that a write does not
 * copy thousands of entries.
 */
export interface ProjectFlags {
  readonly entries: Array<Entry>
  readonly sorted: Map<string, ReadonlyArray<Entry>>
  /** The entries' bytes, kept as changes come in. */
  bytes: number
  /** One object per person the flags show, shared by all their flags. */
  readonly users: Map<UserId, UserSummary>
  /**
   * How many times changes were applied in place: what is derived from the flags (evaluation's prepared
   * flags) is kept with the count it was made at, and made again once the count moves on.
   */
  changes: number
}

/** A flag's fixed fields and objects, beside its text and filters (two bytes a character in the heap). */
const FLAG_OVERHEAD_BYTES = 2_000
/** A project's snapshot itself, flags aside. */
const PROJECT_OVERHEAD_BYTES = 1_000

const DEFAULT_ORDER = "-created_at"

/**
 * Text as the search compares it: lower case one code point at a time, as the database's ILIKE folds
 * each character (a whole string lowered by JavaScript ends a Greek word with ς, which σ would not find).
 */
export const searchFold = (text: string) => {
  const characters: Array<string> = []
  for (const character of text) characters.push(character.toLowerCase())
  // Joined, the text is one flat string rather than a chain of pieces; text already folded is kept as it is.
  const folded = characters.join("")
  return folded === text ? text : folded
}

const sameUser = Schema.toEquivalence(UserSummary)

const sharedUser = (users: Map<UserId, UserSummary>, user: UserSummary | null) => {
  if (user === null) return null
  const known = users.get(user.id)
  if (known !== undefined && sameUser(known, user)) return known
  users.set(user.id, user)
  return user
}

/**
 * The flag with its creator and last modifier shared with the project's other flags: each row read
 * brings its own copies of them, which a project's many flags by few people would hold many times over.
 */
const withSharedUsers = (users: Map<UserId, UserSummary>, flag: StoredFlag): StoredFlag => {
  const created_by = sharedUser(users, flag.created_by)
  const last_modified_by = sharedUser(users, flag.last_modified_by)
  return created_by === flag.created_by && last_modified_by === flag.last_modified_by
    ? flag
    : { ...flag, created_by, last_modified_by }
}

const entryOf = (users: Map<UserId, UserSummary>, read: StoredFlag): Entry => {
  const flag = withSharedUsers(users, read)
  const derived = derivedColumns(flag.filters)
  return {
    flag,
    bytes: FLAG_OVERHEAD_BYTES + 4 * (flag.key.length + flag.name.length) + 2 * JSON.stringify(flag.filters).length,
    key: searchFold(flag.key),
    name: searchFold(flag.name),
    multivariate: derived.is_multivariate,
    fullyRolledOut: derived.fully_rolled_out
  }
}

/** `flags` newest first (created_at, then id, descending), as the store reads them. */
export const projectFlags = (flags: ReadonlyArray<StoredFlag>): ProjectFlags => {
  const users = new Map<UserId, UserSummary>()
  const entries = flags.map((flag) => entryOf(users, flag))
  return {
    entries,
    sorted: new Map([[DEFAULT_ORDER, entries]]),
    bytes: entries.reduce((sum, entry) => sum + entry.bytes, PROJECT_OVERHEAD_BYTES),
    users,
    changes: 0
  }
}

/** Whether `a` comes before `b` newest first. */
const newer = (a: StoredFlag, b: StoredFlag) => a.created_at > b.created_at || (a.created_at === b.created_at && a.id > b.id)

/**
 * Takes in that the flags `ids` changed: they leave, and those of `changed` (their rows now) that are
 * live come back in place. Every other flag keeps what was computed for it. Applying the same change
 * twice leaves the same flags.
 */
export const applyChanges = (project: ProjectFlags, ids: ReadonlyArray<number>, changed: ReadonlyArray<StoredFlag>) => {
  const gone = new Set(ids)
  const { entries } = project
  let kept = 0
  for (const entry of entries) {
    if (!gone.has(entry.flag.id)) entries[kept++] = entry
    else project.bytes -= entry.bytes
  }
  entries.length = kept
  for (const flag of changed) {
    if (flag.deleted) continue
    let low = 0
    let high = entries.length
    while (low < high) {
      const middle = (low + high) >>> 1
      if (newer(entries[middle]!.flag, flag)) low = middle + 1
      else high = middle
    }
    const entry = entryOf(project.users, flag)
    project.bytes += entry.bytes
    entries.splice(low, 0, entry)
  }
  project.sorted.clear()
  project.sorted.set(DEFAULT_ORDER, entries)
  project.changes++
}

/**
 * Text in code point order, as the database's C collation sorts it: UTF-16 order but for a surrogate
 * (half of a code point above U+FFFF), which comes after every other unit.
 */
const compareText = (a: string, b: string) => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i)
    const y = b.charCodeAt(i)
    if (x === y) continue
    const xHigh = x >= 0xd800 && x <= 0xdfff
    const yHigh = y >= 0xd800 && y <= 0xdfff
    return xHigh === yHigh ? x - y : xHigh ? 1 : -1
  }
  return a.length - b.length
}

const compareField = (field: FlagOrderField) => (a: StoredFlag, b: StoredFlag): number => {
  switch (field) {
    case "key":
    case "name":
    case "created_at":
    case "updated_at":
      return compareText(a[field], b[field])
    case "active":
      return Number(a.active) - Number(b.active)
    case "id":
    case "version":
      return a[field] - b[field]
  }
}

/** Ties are broken by id, in the same direction. */
const inOrder = (project: ProjectFlags, order: FlagListFilter["order"]) => {
  const name = `${order.descending ? "-" : ""}${order.field}`
  const known = project.sorted.get(name)
  if (known !== undefined) return known
  const compare = compareField(order.field)
  const sign = order.descending ? -1 : 1
  const sorted = [...project.entries].sort((a, b) => sign * (compare(a.flag, b.flag) || a.flag.id - b.flag.id))
  project.sorted.set(name, sorted)
  return sorted
}

/** When each flag was last called, as far as this process knows: what staleness reads. */
type LastCalled = (id: FeatureFlagId) => Timestamp | null

const matcher = (filter: FlagListFilter, lastCalled: LastCalled): ((entry: Entry) => boolean) | undefined => {
  const tests: Array<(entry: Entry) => boolean> = []
  if (filter.search !== null) {
    const text = searchFold(filter.search)
    tests.push((e) => e.key.includes(text) || e.name.includes(text))
  }
  if (filter.multivariate !== null) tests.push((e) => e.multivariate === filter.multivariate)
  if (filter.remoteConfiguration !== null) tests.push((e) => e.flag.is_remote_configuration === filter.remoteConfiguration)
  if (filter.evaluation_runtime !== null) tests.push((e) => e.flag.evaluation_runtime === filter.evaluation_runtime)
  if (filter.excludedKeys !== null) {
    const excluded = new Set(filter.excludedKeys)
    tests.push((e) => !excluded.has(e.flag.key))
  }
  if (filter.active !== null) tests.push((e) => e.flag.active === filter.active)
  if (filter.staleAt !== null) {
    const now = filter.staleAt
    tests.push((e) => {
      if (!e.flag.active) return false
      const called = lastCalled(e.flag.id)
      return isStale(e.flag.created_at, e.fullyRolledOut, called === null ? null : millisOf(called), now)
    })
  }
  if (filter.created_by_id !== null) tests.push((e) => e.flag.created_by_id === filter.created_by_id)
  if (filter.tags !== null) {
    const tags = new Set(filter.tags)
    tests.push((e) => e.flag.tags.some((tag) => tags.has(tag)))
  }
  return tests.length === 0 ? undefined : (entry) => tests.every((test) => test(entry))
}

/** One page of the flags that pass `filter`, in its order, with how many pass in all. */
export const selectFlags = (
  project: ProjectFlags,
  filter: FlagListFilter,
  page: PageRequest,
  lastCalled: LastCalled = () => null
): Page<StoredFlag> => {
  const ordered = inOrder(project, filter.order)
  const matches = matcher(filter, lastCalled)
  const passing = matches === undefined ? ordered : ordered.filter(matches)
  return {
    count: passing.length,
    results: passing.slice(page.offset, page.offset + page.limit).map((entry) => entry.flag),
    request: page
  }
}
