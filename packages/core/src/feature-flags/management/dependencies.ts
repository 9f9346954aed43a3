import { Effect } from "effect"
import type { ValidationError } from "../../shared/errors.ts"
import { pythonStr } from "../../shared/validation.ts"
import { conditionsOf, filtersError, type FlagConditions, type PropertyFilter, propertiesIn } from "../conditions.ts"
import type { DependencyNode } from "../repository.ts"

/**
 * Flag dependencies (`type: flag` properties): each must name an existing, active flag of the project by
 * id, and no chain of dependencies may lead back to the flag itself (PostHog's depth-first check, with
 * its messages). The reachable flags are loaded breadth-first, one query per level, then walked in
 * memory in PostHog's order.
 */

/** Live flags of the project with these ids. */
export type LoadFlags = (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DependencyNode>>

/** The flag properties PostHog follows, in condition order: it skips those with an empty key. */
const referencesOf = (conditions: FlagConditions): ReadonlyArray<PropertyFilter> =>
  propertiesIn(conditions).filter((property) =>
    property.type === "flag" && property.key !== "" && property.key !== 0 && property.key !== false)

/** A loaded flag with its own references, read once. */
interface Loaded {
  readonly node: DependencyNode
  readonly references: ReadonlyArray<PropertyFilter>
}

const load = (references: ReadonlyArray<PropertyFilter>, loadFlags: LoadFlags) =>
  Effect.gen(function*() {
    const known = new Map<number, Loaded>()
    const asked = new Set<number>()
    let frontier = references
    while (frontier.length > 0) {
      const wanted = [...new Set(frontier.flatMap(({ flag_id }) => (flag_id === null || asked.has(flag_id) ? [] : [flag_id])))]
      if (wanted.length === 0) break
      wanted.forEach((id) => asked.add(id))
      const found = (yield* loadFlags(wanted)).map((node) => ({ node, references: referencesOf(conditionsOf(node.filters)) }))
      found.forEach((loaded) => known.set(loaded.node.id, loaded))
      // Only active flags are followed: a disabled one fails validation before its own dependencies matter.
      frontier = found.filter((loaded) => loaded.node.active).flatMap((loaded) => loaded.references)
    }
    return known
  })

/** The first rule broken, thrown out of the walk and caught where it started. */
class Refused {
  readonly error: ValidationError
  constructor(error: ValidationError) {
    this.error = error
  }
}

/** Each reference, in order, as PostHog checks one: a flag id, of a flag that exists and is active. */
const resolve = (references: ReadonlyArray<PropertyFilter>, known: ReadonlyMap<number, Loaded>): ReadonlyArray<Loaded> => {
  const resolved = new Map<number, Loaded>()
  for (const reference of references) {
    const id = reference.flag_id
    if (id === null) {
      throw new Refused(filtersError(
        `Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: '${pythonStr(reference.key)}'`
      ))
    }
    const loaded = known.get(id)
    if (loaded === undefined) throw new Refused(filtersError(`Flag dependency references non-existent flag with ID ${id}`))
    if (!loaded.node.active) {
      throw new Refused(filtersError(
        `Cannot create dependency on disabled flag '${loaded.node.key}' (ID: ${id}). Flag dependencies must reference active flags only.`
      ))
    }
    resolved.set(id, loaded)
  }
  return [...resolved.values()]
}

/**
 * PostHog's depth-first search from the flag being written, finding the same cycle first. Each flag is
 * explored once: a flag whose dependencies were all explored without leading back onto the path cannot
 * lead back later either, so shared dependencies (a flag on two flags that both depend on a third, and
 * so on) cost linear time instead of one walk per path. No recursion: a long chain cannot exhaust the stack.
 */
const walk = (roots: ReadonlyArray<Loaded>, rootKey: string, known: ReadonlyMap<number, Loaded>): void => {
  const path: Array<string> = [rootKey]
  const onPath = new Map<string, number>([[rootKey, 0]])
  const explored = new Set<number>()
  const frames: Array<{ readonly node: DependencyNode; readonly next: ReadonlyArray<Loaded>; at: number }> = []
  const enter = ({ node, references }: Loaded) => {
    const at = onPath.get(node.key)
    if (at !== undefined) throw new Refused(filtersError(`Circular dependency detected: ${[...path.slice(at), node.key].join(" → ")}`))
    if (explored.has(node.id)) return
    frames.push({ node, next: resolve(references, known), at: 0 })
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
 * The first dependency rule these conditions break, for a flag whose key is `currentKey` (the stored key
 * on update, the new key on create).
 */
export const dependencyError = (conditions: FlagConditions, currentKey: string, loadFlags: LoadFlags) =>
  Effect.gen(function*() {
    const references = referencesOf(conditions)
    if (references.length === 0) return undefined
    const known = yield* load(references, loadFlags)
    try {
      const direct = resolve(references, known)
      if (direct.some(({ node }) => node.key === currentKey)) {
        return filtersError(`Feature flag '${currentKey}' cannot depend on itself`)
      }
      walk(direct, currentKey, known)
      return undefined
    } catch (refusal) {
      if (refusal instanceof Refused) return refusal.error
      throw refusal
    }
  })
