import { Effect } from "effect"
import type { ValidationError } from "../shared/errors.ts"
import { isRecord, type JsonRecord } from "../shared/fields.ts"
import { integerOf } from "./computed.ts"
import { pythonStr } from "../shared/validation.ts"
import { filtersError } from "./filters.ts"

/**
 * Flag dependencies (`type: flag` properties): each must name an existing, active flag of the project by
 * id, and no chain of dependencies may lead back to the flag itself (PostHog's depth-first check, with
 * its messages). The reachable flags are loaded breadth-first, one query per level, then walked in
 * memory in PostHog's order.
 */

export interface DependencyNode {
  readonly id: number
  readonly key: string
  readonly active: boolean
  readonly filters: JsonRecord
}

/** Live flags of the project with these ids. */
export type LoadFlags = (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DependencyNode>>

/** The `key`s of flag properties, in condition order; PostHog skips empty ones. */
const referencesOf = (filters: JsonRecord): ReadonlyArray<unknown> => {
  const groups = Array.isArray(filters["groups"]) ? filters["groups"] : []
  return groups.filter(isRecord).flatMap((group) =>
    (Array.isArray(group["properties"]) ? group["properties"] : [])
      .filter((property): property is JsonRecord => isRecord(property) && property["type"] === "flag")
      .map((property) => property["key"])
      .filter((reference) => reference !== undefined && reference !== null && reference !== "" && reference !== 0 && reference !== false))
}

const load = (root: JsonRecord, loadFlags: LoadFlags) =>
  Effect.gen(function*() {
    const known = new Map<number, DependencyNode>()
    const asked = new Set<number>()
    let frontier = [root]
    while (frontier.length > 0) {
      const wanted = [...new Set(frontier.flatMap(referencesOf).flatMap((reference) => {
        const id = integerOf(reference)
        return id === undefined || asked.has(id) ? [] : [id]
      }))]
      if (wanted.length === 0) break
      wanted.forEach((id) => asked.add(id))
      const found = yield* loadFlags(wanted)
      found.forEach((node) => known.set(node.id, node))
      // Only active flags are followed: a disabled one fails validation before its own dependencies matter.
      frontier = found.filter((node) => node.active).map((node) => node.filters)
    }
    return known
  })

class Refused {
  readonly error: ValidationError
  constructor(error: ValidationError) {
    this.error = error
  }
}

/** PostHog's `_validate_flag_reference` for each reference, in order. */
const resolve = (filters: JsonRecord, known: ReadonlyMap<number, DependencyNode>): ReadonlyArray<DependencyNode> => {
  const resolved = new Map<number, DependencyNode>()
  for (const reference of referencesOf(filters)) {
    const id = integerOf(reference)
    if (id === undefined) {
      throw new Refused(filtersError(
        `Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: '${pythonStr(reference)}'`
      ))
    }
    const node = known.get(id)
    if (node === undefined) throw new Refused(filtersError(`Flag dependency references non-existent flag with ID ${id}`))
    if (!node.active) {
      throw new Refused(filtersError(
        `Cannot create dependency on disabled flag '${node.key}' (ID: ${id}). Flag dependencies must reference active flags only.`
      ))
    }
    resolved.set(node.id, node)
  }
  return [...resolved.values()]
}

/**
 * PostHog's depth-first search from the flag being written, finding the same cycle first. Each flag is
 * explored once: a flag whose dependencies were all explored without leading back onto the path cannot
 * lead back later either, so shared dependencies (a flag on two flags that both depend on a third, and
 * so on) cost linear time instead of one walk per path. No recursion: a long chain cannot exhaust the stack.
 */
const walk = (roots: ReadonlyArray<DependencyNode>, rootKey: string, known: ReadonlyMap<number, DependencyNode>): void => {
  const path: Array<string> = [rootKey]
  const onPath = new Map<string, number>([[rootKey, 0]])
  const explored = new Set<number>()
  const frames: Array<{ readonly node: DependencyNode; readonly next: ReadonlyArray<DependencyNode>; at: number }> = []
  const enter = (node: DependencyNode) => {
    const at = onPath.get(node.key)
    if (at !== undefined) throw new Refused(filtersError(`Circular dependency detected: ${[...path.slice(at), node.key].join(" → ")}`))
    if (explored.has(node.id)) return
    frames.push({ node, next: resolve(node.filters, known), at: 0 })
    onPath.set(node.key, path.length)
    path.push(node.key)
  }
  for (const root of roots) {
    enter(root)
    while (frames.length > 0) {
      const top = frames[frames.length - 1]!
      if (top.at < top.next.length) {
        enter(top.next[top.at++]!)
      } else {
        frames.pop()
        path.pop()
        onPath.delete(top.node.key)
        explored.add(top.node.id)
      }
    }
  }
}

/**
 * The first dependency rule these filters break, for a flag whose key is `currentKey` (the stored key
 * on update, the new key on create).
 */
export const dependencyError = (filters: JsonRecord, currentKey: string, loadFlags: LoadFlags) =>
  Effect.gen(function*() {
    if (referencesOf(filters).length === 0) return undefined
    const known = yield* load(filters, loadFlags)
    try {
      const direct = resolve(filters, known)
      if (direct.some((node) => node.key === currentKey)) {
        return filtersError(`Feature flag '${currentKey}' cannot depend on itself`)
      }
      walk(direct, currentKey, known)
      return undefined
    } catch (refusal) {
      if (refusal instanceof Refused) return refusal.error
      throw refusal
    }
  })
