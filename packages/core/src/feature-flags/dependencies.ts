import { Effect } from "effect"
import type { ValidationError } from "../shared/errors.ts"
import { integerOf } from "./computed.ts"
import { filtersError, pythonText } from "./filters.ts"

/**
 * Flag dependencies (`type: flag` properties): each must name an existing, active flag of the project by
 * id, and no chain of dependencies may lead back to the flag itself (PostHog's depth-first check, with
 * its messages). The reachable flags are loaded breadth-first, one query per level, then walked in
 * memory in PostHog's order.
 */

type JsonRecord = Readonly<Record<string, unknown>>

export interface DependencyNode {
  readonly id: number
  readonly key: string
  readonly active: boolean
  readonly filters: JsonRecord
}

/** Live flags of the project with these ids. */
export type LoadFlags = (ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<DependencyNode>>

const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === "object" && value !== null && !Array.isArray(value)

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
  const resolved: Array<DependencyNode> = []
  for (const reference of referencesOf(filters)) {
    const id = integerOf(reference)
    if (id === undefined) {
      throw new Refused(filtersError(
        `Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: '${pythonText(reference)}'`
      ))
    }
    const node = known.get(id)
    if (node === undefined) throw new Refused(filtersError(`Flag dependency references non-existent flag with ID ${id}`))
    if (!node.active) {
      throw new Refused(filtersError(
        `Cannot create dependency on disabled flag '${node.key}' (ID: ${id}). Flag dependencies must reference active flags only.`
      ))
    }
    if (!resolved.some((seen) => seen.id === node.id)) resolved.push(node)
  }
  return resolved
}

const walk = (node: DependencyNode, path: ReadonlyArray<string>, known: ReadonlyMap<number, DependencyNode>): void => {
  const at = path.indexOf(node.key)
  if (at >= 0) throw new Refused(filtersError(`Circular dependency detected: ${[...path.slice(at), node.key].join(" → ")}`))
  for (const next of resolve(node.filters, known)) walk(next, [...path, node.key], known)
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
      for (const node of direct) walk(node, [currentKey], known)
      return undefined
    } catch (refusal) {
      if (refusal instanceof Refused) return refusal.error
      throw refusal
    }
  })
