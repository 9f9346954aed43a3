import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { integerOf } from "../shared/python.ts"
import type { CohortDefinitions } from "./model.ts"

/**
 * How far reading a cohort's definition goes, worked out once per set of definitions rather than along
 * each evaluation's path, so that a cohort reads the same wherever it is named and an evaluation reads
 * each cohort once. Depth counts groups within groups and cohorts named by a filter, as evaluation
 * descends them. A cohort that names itself, directly or through others, or whose reading goes deeper
 * than `MAX_COHORT_DEPTH`, is one neither decider can read: posthog-node's reading of it may never end or
 * may exhaust its stack, and PostHog's service refuses a loop of cohorts. Writes refuse both; a definition
 * stored by other means is still read safely.
 */

/** Levels a cohort's reading may go down: well past any real definition, well short of the stack's limit. */
export const MAX_COHORT_DEPTH = 100

/**
 * A group as the deciders read it: empty (everyone matches), a type neither reads (it is left to the
 * service), or an AND or OR whose values are all groups (`nested`, as the first value says) or all leaves.
 */
export type GroupShape =
  | { readonly kind: "empty" }
  | { readonly kind: "unread" }
  | { readonly kind: "read"; readonly all: boolean; readonly nested: boolean; readonly values: ReadonlyArray<JsonRecord> }

const EMPTY: GroupShape = { kind: "empty" }
const UNREAD: GroupShape = { kind: "unread" }

export const groupShape = (group: JsonRecord): GroupShape => {
  if (Object.keys(group).length === 0) return EMPTY
  const type = group["type"] === "property" ? "AND" : group["type"]
  if (type !== "AND" && type !== "OR") return UNREAD
  const values = Array.isArray(group["values"]) ? group["values"].filter(isRecord) : []
  return { kind: "read", all: type === "AND", nested: values.length > 0 && "values" in values[0]!, values }
}

/**
 * The ids a cohort filter's value names a cohort by: the SDK looks the value up as text, the service as
 * an integer. Both are the same unless the id is written oddly (" 5").
 */
export interface NamedIds {
  readonly sdk: string
  readonly service: string | undefined
}

export const namedIds = (value: unknown): NamedIds => {
  const id = integerOf(value)
  return { sdk: String(value), service: id === null ? undefined : String(id) }
}

export interface CohortReading {
  /** Whether neither decider can read the definition: it loops, or goes too deep. */
  readonly unreadable: (definition: JsonRecord) => boolean
  /** How deep reading the definition goes (loops not followed), for those that do not loop. */
  readonly depth: (definition: JsonRecord) => number | undefined
}

/** A definition's own groups: how deep they go, and the definitions its filters name, at their depth. */
interface Outline {
  readonly own: number
  readonly named: ReadonlyArray<{ readonly at: number; readonly definition: JsonRecord }>
}

/** Walked with an explicit stack: a stored definition nested however deep cannot exhaust the call stack. */
const outlineOf = (root: JsonRecord, definitions: CohortDefinitions): Outline => {
  let own = 0
  const named: Array<{ at: number; definition: JsonRecord }> = []
  const stack: Array<{ group: JsonRecord; depth: number }> = [{ group: root, depth: 0 }]
  while (stack.length > 0) {
    const { group, depth } = stack.pop()!
    own = Math.max(own, depth)
    const shape = groupShape(group)
    if (shape.kind !== "read") continue
    for (const value of shape.values) {
      if (shape.nested) {
        stack.push({ group: value, depth: depth + 1 })
      } else if (value["type"] === "cohort") {
        const ids = namedIds(value["value"])
        const sdk = definitions.get(ids.sdk)
        const service = ids.service === undefined ? undefined : definitions.get(ids.service)
        if (sdk !== undefined) named.push({ at: depth + 1, definition: sdk })
        if (service !== undefined && service !== sdk) named.push({ at: depth + 1, definition: service })
      }
    }
  }
  return { own, named }
}

const readings = new WeakMap<CohortDefinitions, CohortReading>()

/** The reading of a set of definitions, worked out on first use and kept while the set lives. */
export const cohortReading = (definitions: CohortDefinitions): CohortReading => {
  let reading = readings.get(definitions)
  if (reading === undefined) {
    reading = readingOf(definitions)
    readings.set(definitions, reading)
  }
  return reading
}

/**
 * Tarjan's strongly connected components over the definitions naming one another, with an explicit
 * stack: a component of more than one definition, or one naming itself, is a loop. Components come out
 * after every component they name, so each depth is worked out from depths already known.
 */
const readingOf = (definitions: CohortDefinitions): CohortReading => {
  const outlines = new Map<JsonRecord, Outline>()
  const outline = (definition: JsonRecord) => {
    let known = outlines.get(definition)
    if (known === undefined) {
      known = outlineOf(definition, definitions)
      outlines.set(definition, known)
    }
    return known
  }
  const index = new Map<JsonRecord, number>()
  const low = new Map<JsonRecord, number>()
  const onStack = new Set<JsonRecord>()
  const component: Array<JsonRecord> = []
  const looping = new Set<JsonRecord>()
  const depths = new Map<JsonRecord, number>()

  const close = (root: JsonRecord) => {
    const members: Array<JsonRecord> = []
    let member: JsonRecord
    do {
      member = component.pop()!
      onStack.delete(member)
      members.push(member)
    } while (member !== root)
    if (members.length > 1 || outline(root).named.some((named) => named.definition === root)) {
      for (const each of members) looping.add(each)
      return
    }
    const { own, named } = outline(root)
    let depth = own
    for (const { at, definition } of named) {
      const below = depths.get(definition)
      if (below !== undefined) depth = Math.max(depth, at + below)
    }
    depths.set(root, depth)
  }

  for (const start of new Set(definitions.values())) {
    if (index.has(start)) continue
    const frames: Array<{ readonly definition: JsonRecord; next: number }> = []
    const enter = (definition: JsonRecord) => {
      index.set(definition, index.size)
      low.set(definition, index.get(definition)!)
      component.push(definition)
      onStack.add(definition)
      frames.push({ definition, next: 0 })
    }
    enter(start)
    while (frames.length > 0) {
      const frame = frames[frames.length - 1]!
      const named = outline(frame.definition).named
      if (frame.next < named.length) {
        const target = named[frame.next++]!.definition
        if (!index.has(target)) enter(target)
        else if (onStack.has(target)) low.set(frame.definition, Math.min(low.get(frame.definition)!, index.get(target)!))
        continue
      }
      frames.pop()
      const parent = frames[frames.length - 1]
      if (parent !== undefined) low.set(parent.definition, Math.min(low.get(parent.definition)!, low.get(frame.definition)!))
      if (low.get(frame.definition) === index.get(frame.definition)) close(frame.definition)
    }
  }

  return {
    unreadable: (definition) => looping.has(definition) || (depths.get(definition) ?? 0) > MAX_COHORT_DEPTH,
    depth: (definition) => depths.get(definition)
  }
}
