import type { JsonValue, PropertyFilter } from "../feature-flags/conditions.ts"
import type { JsonRecord } from "../shared/fields.ts"
import type { PreparedFlag, PreparedFlags } from "./model.ts"

/**
 * What the local-evaluation definitions put in a `flag` property: the key of the flag it names (the
 * stored property names it by id; a reference that names no flag stays as given) and PostHog's
 * `dependency_chain`, the keys to evaluate in order, ending with that flag; [] for a cycle or a flag
 * that does not exist.
 */
export interface DependencyReference {
  readonly key: JsonValue
  readonly dependency_chain: ReadonlyArray<string>
}

export const dependencyReference = (prepared: PreparedFlags, property: PropertyFilter): DependencyReference => {
  const target = prepared.graph.target(property)
  return target === undefined
    ? { key: property.key, dependency_chain: [] }
    : { key: target.key, dependency_chain: prepared.graph.chain(target.key) }
}

/**
 * A flag's filters as the definitions send them: as rendered, with each `flag` property naming its
 * flag by key and carrying its chain.
 */
export const definitionFilters = (prepared: PreparedFlags, flag: PreparedFlag): JsonRecord => {
  const filters = flag.conditions.json
  if (flag.dependencies.length === 0) return filters
  const rewritten = new Map(flag.dependencies.map((property) => [property.json, { ...property.json, ...dependencyReference(prepared, property) }]))
  return {
    ...filters,
    groups: flag.conditions.groups.map((group) => {
      const properties = group.json["properties"]
      return Array.isArray(properties)
        ? { ...group.json, properties: properties.map((property) => rewritten.get(property) ?? property) }
        : group.json
    })
  }
}
