import type { PropertyFilter } from "../feature-flags/conditions.ts"
import type { DependencyGraph, PreparedFlag } from "./model.ts"

/**
 * A project's flag dependencies (see `DependencyGraph`): each chain is walked depth first when first
 * asked for, and the service's stages are worked out once, when a question first needs them.
 */

interface Stages {
  readonly blocked: ReadonlySet<PreparedFlag>
  readonly missing: ReadonlySet<PreparedFlag>
}

export const dependencyGraph = (
  flags: ReadonlyArray<PreparedFlag>,
  byKey: ReadonlyMap<string, PreparedFlag>,
  byId: ReadonlyMap<number, PreparedFlag>
): DependencyGraph => {
  const target = (property: PropertyFilter): PreparedFlag | undefined =>
    (property.flag_id === null ? undefined : byId.get(property.flag_id)) ??
      (typeof property.key === "string" ? byKey.get(property.key) : undefined)

  const chains = new Map<string, ReadonlyArray<string>>()
  const chain = (key: string): ReadonlyArray<string> => {
    let known = chains.get(key)
    if (known === undefined) {
      known = chainOf(key, byKey, target)
      chains.set(key, known)
    }
    return known
  }

  let stages: Stages | undefined
  const staged = (): Stages => (stages ??= stagesOf(flags, byId))
  // A super group's flag property is no dependency the service stages, but evaluating it reads the flag named.
  const anyDependency = flags.some((flag) =>
    flag.dependencies.length > 0 || (flag.superGroup?.properties.some((property) => property.type === "flag") ?? false)
  )
  return {
    target,
    chain,
    blocked: (flag) => anyDependency && staged().blocked.has(flag),
    missing: (flag) => anyDependency && staged().missing.has(flag),
    hasCycles: () => anyDependency && staged().blocked.size > 0,
    anyDependency
  }
}

/**
 * Depth first from `key`, dependencies before dependents. A flag naming itself directly yields [];
 * further down the walk a flag's dependency on itself is passed over, as PostHog's walk does.
 */
const chainOf = (
  key: string,
  byKey: ReadonlyMap<string, PreparedFlag>,
  target: (property: PropertyFilter) => PreparedFlag | undefined
): ReadonlyArray<string> => {
  const keysOf = (flag: PreparedFlag) => flag.dependencies.map((property) => target(property)?.key)
  const root = byKey.get(key)
  if (root === undefined || keysOf(root).includes(key)) return []
  const done = new Set<string>()
  const onPath = new Set<string>()
  const order: Array<string> = []
  // An explicit stack: a long chain cannot exhaust the call stack.
  const stack: Array<{ readonly key: string; readonly next: ReadonlyArray<string | undefined>; at: number }> = []
  const enter = (current: string | undefined): boolean => {
    if (current === undefined || onPath.has(current)) return false
    if (done.has(current)) return true
    const flag = byKey.get(current)
    if (flag === undefined) return false
    onPath.add(current)
    stack.push({ key: current, next: keysOf(flag).filter((dependency) => dependency !== current), at: 0 })
    return true
  }
  if (!enter(key)) return []
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!
    if (top.at < top.next.length) {
      if (!enter(top.next[top.at++])) return []
    } else {
      stack.pop()
      onPath.delete(top.key)
      done.add(top.key)
      order.push(top.key)
    }
  }
  return order
}

/** The service's staging: only active flags depend on others, by the ids their properties name. */
const stagesOf = (flags: ReadonlyArray<PreparedFlag>, byId: ReadonlyMap<number, PreparedFlag>): Stages => {
  const dependencies = new Map<PreparedFlag, ReadonlySet<PreparedFlag>>()
  const missing = new Set<PreparedFlag>()
  const dependents = new Map<PreparedFlag, Array<PreparedFlag>>()
  const waiting = new Map<PreparedFlag, number>()
  for (const flag of flags) {
    const ids = flag.flag.active ? flag.dependencies.flatMap((property) => (property.flag_id === null ? [] : [property.flag_id])) : []
    const known = new Set<PreparedFlag>()
    for (const id of ids) {
      const dependency = byId.get(id)
      if (dependency === undefined) missing.add(flag)
      else known.add(dependency)
    }
    dependencies.set(flag, known)
    waiting.set(flag, known.size)
    for (const dependency of known) {
      const list = dependents.get(dependency)
      if (list === undefined) dependents.set(dependency, [flag])
      else list.push(flag)
    }
  }
  let stage = flags.filter((flag) => waiting.get(flag) === 0)
  while (stage.length > 0) {
    const next: Array<PreparedFlag> = []
    for (const flag of stage) {
      for (const dependency of dependencies.get(flag)!) if (missing.has(dependency)) missing.add(flag)
      for (const dependent of dependents.get(flag) ?? []) {
        const left = waiting.get(dependent)! - 1
        waiting.set(dependent, left)
        if (left === 0) next.push(dependent)
      }
    }
    stage = next
  }
  const blocked = new Set(flags.filter((flag) => waiting.get(flag)! > 0))
  return { blocked, missing }
}
