import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { conditionsOf, parseConditions } from "../src/feature-flags/conditions.ts"
import { dependencyError } from "../src/feature-flags/management/dependencies.ts"
import { conditionRulesError, payloadsError } from "../src/feature-flags/management/filter-rules.ts"
import { FlagCreateBody } from "../src/feature-flags/management/input.ts"
import { listPlan } from "../src/feature-flags/management/list-query.ts"
import type { DependencyNode } from "../src/feature-flags/repository.ts"
import { ValidationError } from "../src/shared/errors.ts"
import { decodeInput } from "../src/shared/validation.ts"

/** Review findings on the flag rules: inputs that once hung the server or reached the database unfit. */

const dependsOn = (...ids: ReadonlyArray<number>) => ({
  groups: [{ properties: ids.map((id) => ({ key: String(id), type: "flag", operator: "flag_evaluates_to", value: true })), rollout_percentage: 100 }]
})
const inMemory = (nodes: ReadonlyArray<DependencyNode>) => {
  const byId = new Map(nodes.map((node) => [node.id, node]))
  return (ids: ReadonlyArray<number>) => Effect.sync(() => ids.flatMap((id) => byId.get(id) ?? []))
}
const detailOf = (filters: Readonly<Record<string, unknown>>, key: string, nodes: ReadonlyArray<DependencyNode>) =>
  Effect.runSync(dependencyError(conditionsOf(filters), key, inMemory(nodes)))?.detail

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
  const now = Date.parse("2026-06-01T00:00:00Z")
  it("plans nothing for values no stored flag can hold: NUL in search or tags, creator ids beyond int4", () => {
    assert.deepStrictEqual(listPlan({ search: "a\u0000" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan({ tags: "[\"\\u0000\"]" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan({ created_by_id: "2147483648" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan({ created_by_id: "9999999999" }, now), { _tag: "Empty" })
  })
  it("keeps the names that can match and the largest serial creator id", () => {
    const plan = listPlan({ tags: "[\"a\\u0000\", \"b\"]", created_by_id: "2147483647" }, now)
    assert.isTrue(plan._tag === "Query" && plan.filter.created_by_id === 2147483647)
    assert.deepStrictEqual(plan._tag === "Query" ? plan.filter.tags : null, ["b"])
  })
})

describe("flag bodies", () => {
  const failureOf = (input: unknown) => {
    const exit = Effect.runSyncExit(decodeInput(FlagCreateBody)(input))
    if (Exit.isSuccess(exit)) return undefined
    const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error
    return error instanceof ValidationError ? { code: error.code, detail: error.detail, attr: error.attr } : error
  }
  const surrogate = (attr: string) => ({ code: "surrogate_characters_not_allowed", detail: "Surrogate characters are not allowed.", attr })

  it("refuse a lone surrogate in kept text, keys of JSON included, which jsonb cannot store", () => {
    assert.deepStrictEqual(failureOf({ key: "k", name: "a\ud800" }), surrogate("name"))
    assert.deepStrictEqual(failureOf({ key: "k", rollback_conditions: { "\udfff": 1 } }), surrogate("rollback_conditions__\udfff"))
    assert.deepStrictEqual(failureOf({ key: "k", filters: { groups: [], payloads: { true: "\"\udc00\"" } } }), surrogate("filters__payloads__true"))
    // Pairs are ordinary characters; unknown fields are ignored whatever they hold.
    assert.strictEqual(failureOf({ key: "k", name: "\ud83d\ude00", ignored: "\ud800" }), undefined)
  })

  it("refuse a tag over PostHog's 255 characters, naming the item", () => {
    assert.deepStrictEqual(failureOf({ key: "k", tags: ["a", "b".repeat(256)] }), {
      code: "max_length",
      detail: "Ensure this field has no more than 255 characters.",
      attr: "tags__1"
    })
    assert.strictEqual(failureOf({ key: "k", tags: ["b".repeat(255)] }), undefined)
  })

  it("look variant keys up in constant time: 50,000 overrides against 50,000 variants", () => {
    // A 1 MiB body holds tens of thousands of each; a list lookup made that about a billion comparisons.
    const variants = Array.from({ length: 50_000 }, (_, i) => ({ key: `v${i}`, ...(i === 0 ? { rollout_percentage: 100 } : {}) }))
    const filters = {
      groups: Array.from({ length: 50_000 }, () => ({ properties: [], variant: "v49999" })),
      multivariate: { variants },
      payloads: { v49999: "1" }
    }
    const started = Date.now()
    const conditions = parseConditions(filters)
    assert.isFalse(conditions instanceof ValidationError)
    if (conditions instanceof ValidationError) return
    assert.strictEqual(conditionRulesError(conditions, new Map()) ?? payloadsError(conditions), undefined)
    assert.isBelow(Date.now() - started, 1000)
  })
})
