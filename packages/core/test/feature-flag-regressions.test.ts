import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { type DependencyNode, dependencyError } from "../src/feature-flags/dependencies.ts"
import { listPlan } from "../src/feature-flags/list-query.ts"
import type { ProjectId } from "../src/shared/ids.ts"

/** Review findings on the flag rules: inputs that once hung the server or reached the database unfit. */

const dependsOn = (...ids: ReadonlyArray<number>) => ({
  groups: [{ properties: ids.map((id) => ({ key: String(id), type: "flag", operator: "flag_evaluates_to", value: true })), rollout_percentage: 100 }]
})
const inMemory = (nodes: ReadonlyArray<DependencyNode>) => {
  const byId = new Map(nodes.map((node) => [node.id, node]))
  return (ids: ReadonlyArray<number>) => Effect.sync(() => ids.flatMap((id) => byId.get(id) ?? []))
}
const detailOf = (filters: Readonly<Record<string, unknown>>, key: string, nodes: ReadonlyArray<DependencyNode>) =>
  Effect.runSync(dependencyError(filters, key, inMemory(nodes)))?.detail

describe("flag dependency checks", () => {
  it("explore shared dependencies once: flag n on flags n-1 and n-2, 200 deep, answers at once", () => {
    // Walked path by path this graph has about 4e41 paths; the check once took seconds from 30 flags on.
    const nodes: Array<DependencyNode> = []
    for (let id = 1; id <= 200; id++) {
      nodes.push({ id, key: `f${id}`, active: true, filters: dependsOn(...[id - 1, id - 2].filter((dep) => dep >= 1)) })
    }
    const started = Date.now()
    assert.strictEqual(detailOf(dependsOn(200, 199), "new", nodes), undefined)
    assert.isBelow(Date.now() - started, 2000)
  })

  it("still report the first cycle PostHog's search finds, through shared dependencies", () => {
    const nodes: ReadonlyArray<DependencyNode> = [
      { id: 1, key: "a", active: true, filters: dependsOn(3) },
      { id: 2, key: "b", active: true, filters: dependsOn(3) },
      { id: 3, key: "c", active: true, filters: dependsOn(4) },
      { id: 4, key: "d", active: true, filters: dependsOn(5) },
      { id: 5, key: "e", active: true, filters: { groups: [] } },
      { id: 6, key: "root", active: true, filters: { groups: [] } }
    ]
    // a and b share c → d → e; nothing leads back.
    assert.strictEqual(detailOf(dependsOn(1, 2), "root", nodes), undefined)
    // e now depends on the flag being written: found through a first, never re-walked for b.
    const cyclic = nodes.map((node) => (node.id === 5 ? { ...node, filters: dependsOn(6) } : node))
    assert.strictEqual(detailOf(dependsOn(1, 2), "root", cyclic), "Circular dependency detected: root → a → c → d → e → root")
    // A cycle among stored flags that never reaches the written one is still named from where it closes.
    const loop = nodes.map((node) => (node.id === 5 ? { ...node, filters: dependsOn(3) } : node))
    assert.strictEqual(detailOf(dependsOn(2), "root", loop), "Circular dependency detected: c → d → e → c")
  })

  it("follow a chain of 20,000 flags without exhausting the call stack", () => {
    const nodes: Array<DependencyNode> = []
    for (let id = 1; id <= 20_000; id++) nodes.push({ id, key: `c${id}`, active: true, filters: id === 1 ? { groups: [] } : dependsOn(id - 1) })
    assert.strictEqual(detailOf(dependsOn(20_000), "top", nodes), undefined)
  })
})

describe("flag list query", () => {
  const project = 1 as ProjectId
  const now = Date.parse("2026-06-01T00:00:00Z")
  it("plans nothing for values no stored flag can hold: NUL in search or tags, creator ids beyond int4", () => {
    assert.deepStrictEqual(listPlan(project, { search: "a\u0000" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan(project, { tags: "[\"\\u0000\"]" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan(project, { created_by_id: "2147483648" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan(project, { created_by_id: "9999999999" }, now), { _tag: "Empty" })
  })
  it("keeps the names that can match and the largest serial creator id", () => {
    const plan = listPlan(project, { tags: "[\"a\\u0000\", \"b\"]", created_by_id: "2147483647" }, now)
    assert.isTrue(plan._tag === "Query" && plan.filter.created_by_id === 2147483647)
    assert.deepStrictEqual(plan._tag === "Query" ? plan.filter.tags : null, ["b"])
  })
})
