import type { JsonRecord } from "../shared/fields.ts"

/**
 * Bounds on what a `/flags` body makes evaluation read, so that one request costs at most a few
 * milliseconds of the event loop. Past them the body is refused. Each is far beyond what PostHog's SDKs
 * send; PostHog itself stores no longer group key than MAX_IDENTIFIER. The distinct id is not refused
 * for its length: it is read cut to MAX_DISTINCT_ID_LENGTH (shared/distinct-id.ts).
 */

/** Person and group properties together. */
export const MAX_PROPERTIES = 1_000
/** Groups, and group property sets. */
export const MAX_GROUPS = 100
export const MAX_FLAG_KEYS = 10_000
/** One property value: text by its length, a list or an object by its items, their names and their text. */
export const MAX_VALUE_SIZE = 10_000
/** All property values together, measured alike. */
export const MAX_PROPERTIES_SIZE = 100_000
/** A group key, `$anon_distinct_id` and `$device_id`, which flags hash. */
export const MAX_IDENTIFIER = 400

/**
 * The deepest nesting PostHog's flags service reads (its JSON parser's limit); deeper is refused before any
 * value is rendered, since rendering a deeply nested value as text would exhaust the stack.
 */
export const MAX_DEPTH = 128
export const TOO_DEEP = `the body nests deeper than ${MAX_DEPTH} levels`

/**
 * How much a body may make the parser build, counted before it is parsed (nesting is bounded above):
 * members in one object or list, and objects and lists in all. Each bound is more than any SDK sends in
 * one request (a batch holds hundreds of events of a few objects each; evaluation reads at most a
 * thousand properties), and low enough that parsing the largest body allowed costs a few milliseconds.
 * The capture endpoints' bodies are held to them too.
 */
export const MAX_MEMBERS = 10_000
export const MAX_CONTAINERS = 20_000
export const TOO_WIDE = `an object or a list in the body holds more than ${MAX_MEMBERS} members`
export const TOO_MANY_CONTAINERS = `the body holds more than ${MAX_CONTAINERS} objects and lists`

/** The fields of a body whose size evaluation's cost follows, as read from it. */
export interface EvaluatedFields {
  readonly groups: JsonRecord
  readonly person_properties: JsonRecord
  readonly group_properties: Readonly<Record<string, JsonRecord>>
  /** Only these flags, when given. */
  readonly flag_keys: ReadonlyArray<string> | undefined
  readonly anon_distinct_id: string | undefined
  readonly device_id: string | undefined
}

/**
 * Why the body is beyond a bound, or undefined. Counts come first, which look at each map once (a
 * body of a hundred thousand properties is refused after that look); then the nesting, which visits
 * every list and object once; then the sizes, each counted only up to its bound.
 */
export const boundsError = (body: JsonRecord, read: EvaluatedFields): string | undefined => {
  // The group property sets were counted as they were read.
  const groupTypes = Object.keys(read.group_properties)
  if (Object.keys(read.groups).length > MAX_GROUPS) return `groups holds more than ${MAX_GROUPS} groups`
  let properties = Object.keys(read.person_properties).length
  for (const type of groupTypes) properties += Object.keys(read.group_properties[type]!).length
  if (properties > MAX_PROPERTIES) return `the person and group properties number more than ${MAX_PROPERTIES}`
  if (read.flag_keys !== undefined && read.flag_keys.length > MAX_FLAG_KEYS) return `the flag keys number more than ${MAX_FLAG_KEYS}`
  if (tooDeep(body)) return TOO_DEEP
  for (const [name, value] of [["$anon_distinct_id", read.anon_distinct_id], ["$device_id", read.device_id]] as const) {
    if (value !== undefined && value.length > MAX_IDENTIFIER) return `${name} is longer than ${MAX_IDENTIFIER} characters`
  }
  for (const type in read.groups) {
    if (sizeOf(read.groups[type], MAX_IDENTIFIER) > MAX_IDENTIFIER) {
      return `the key of group ${excerpt(type)} is longer than ${MAX_IDENTIFIER} characters`
    }
  }
  let total = 0
  const sets: Array<readonly [string, JsonRecord]> = [["person_properties", read.person_properties]]
  for (const type of groupTypes) sets.push([`group_properties ${excerpt(type)}`, read.group_properties[type]!])
  for (const [name, set] of sets) {
    for (const key in set) {
      const size = sizeOf(set[key], MAX_VALUE_SIZE)
      if (size > MAX_VALUE_SIZE) return `the value of ${excerpt(key)} in ${name} holds more than ${MAX_VALUE_SIZE} characters`
      total += size
      if (total > MAX_PROPERTIES_SIZE) return `the person and group properties hold more than ${MAX_PROPERTIES_SIZE} characters`
    }
  }
  return undefined
}

/** A name as an error quotes it: at most 100 characters of it. */
const excerpt = (name: string) => (name.length > 100 ? `${name.slice(0, 100)}…` : name)

/**
 * Whether a parsed body nests lists and objects deeper than MAX_DEPTH: walked without recursion, and
 * without an allocation per value.
 */
const tooDeep = (body: object): boolean => {
  const values: Array<object> = [body]
  const depths: Array<number> = [1]
  while (values.length > 0) {
    const value = values.pop()!
    const depth = depths.pop()!
    if (depth > MAX_DEPTH) return true
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        const child: unknown = value[i]
        if (typeof child === "object" && child !== null) {
          values.push(child)
          depths.push(depth + 1)
        }
      }
    } else {
      for (const key in value) {
        const child: unknown = (value as JsonRecord)[key]
        if (typeof child === "object" && child !== null) {
          values.push(child)
          depths.push(depth + 1)
        }
      }
    }
  }
  return false
}

/**
 * A value's size: text by its length, a list or an object by its items, their names and their text,
 * anything else 1. Counted only until it passes `bound`, so that measuring costs at most that.
 */
const sizeOf = (value: unknown, bound: number): number => {
  if (typeof value === "string") return value.length
  if (typeof value !== "object" || value === null) return 1
  let size = 0
  const pending: Array<unknown> = [value]
  while (pending.length > 0 && size <= bound) {
    const item = pending.pop()
    if (typeof item === "string") size += item.length
    else if (Array.isArray(item)) {
      size += item.length
      for (let i = 0; i < item.length && size <= bound; i++) pending.push(item[i])
    } else if (typeof item === "object" && item !== null) {
      for (const key in item) {
        size += key.length + 1
        if (size > bound) break
        pending.push((item as JsonRecord)[key])
      }
    } else size += 1
  }
  return size
}
