import { assert, describe, it } from "@effect/vitest"
import { Effect, Exit } from "effect"
import { lookupIn } from "../src/cohorts/graph.ts"
import type { CohortBrief } from "../src/cohorts/model.ts"
import { cohortsInMakingOrder } from "../src/cohorts/order.ts"
import { rewriteReferences } from "../src/feature-flags/references.ts"
import type { FileFlag, FlagsFile } from "../src/flag-files/document.ts"
import { flagsFileOf } from "../src/flag-files/export.ts"
import { forProject, groupTypeIndexesIn, importPlan } from "../src/flag-files/plan.ts"
import { readFlagsFile } from "../src/flag-files/read.ts"
import type { CohortId } from "../src/shared/ids.ts"

/** The pure rules of copying and of flags files: references, the order records are made in, the plan. */

const naming = (value: unknown) => ({ type: "cohort", key: "id", value })
const byFilters = (...values: ReadonlyArray<unknown>) => ({ properties: { type: "OR", values: [{ type: "AND", values }] } })
const brief = (id: number, filters: unknown = null, is_static = false): CohortBrief =>
  ({ id: id as CohortId, name: `c${id}`, filters, groups: [], deleted: false, is_static })

const flag = (key: string, filters: FileFlag["filters"] = { groups: [] }): FileFlag => ({
  key, name: "", active: true, filters, ensure_experience_continuity: false, tags: [], evaluation_runtime: "all",
  is_remote_configuration: false, has_encrypted_payloads: false
})
const file = (fields: Partial<FlagsFile>): FlagsFile => ({ hedgerow_flags_file: 1, group_types: [], cohorts: [], flags: [], ...fields })

describe("references", () => {
  it("rewrites cohort values, flag keys and group type indexes wherever they sit, and nothing else", () => {
    const filters = {
      aggregation_group_type_index: 2,
      groups: [{ properties: [naming(7), { type: "flag", key: "9", value: true }, { type: "person", key: "id", value: 7 }], aggregation_group_type_index: 2 }],
      payloads: { true: "{\"type\": \"cohort\", \"value\": 7}" }
    }
    const rewritten = rewriteReferences(filters, {
      cohort: (value) => (value === 7 ? "seven" : undefined),
      flag: (key) => (key === "9" ? "nine" : undefined),
      groupTypeIndex: (index) => (index === 2 ? 0 : undefined)
    })
    assert.deepStrictEqual(rewritten, {
      aggregation_group_type_index: 0,
      groups: [{ properties: [naming("seven"), { type: "flag", key: "nine", value: true }, { type: "person", key: "id", value: 7 }], aggregation_group_type_index: 0 }],
      payloads: filters.payloads
    })
    // The source is not changed.
    assert.strictEqual(filters.groups[0]!.properties[0]!.value, 7)
  })

  it("orders cohorts so that each comes after those it names, each once, static ones followed no further", () => {
    const cohorts = [brief(1, byFilters(naming(3), naming(2))), brief(2, byFilters(naming(3))), brief(3), brief(4, byFilters(naming(1)), true)]
    assert.deepStrictEqual(cohortsInMakingOrder([4, 1, 99], lookupIn(cohorts)).map((cohort) => cohort.id), [4, 3, 2, 1])
    // A chain far longer than any call stack is ordered too.
    const chain = Array.from({ length: 50_000 }, (_, i) => brief(i + 1, i === 49_999 ? null : byFilters(naming(i + 2))))
    const ordered = cohortsInMakingOrder([1], lookupIn(chain))
    assert.strictEqual(ordered.length, 50_000)
    assert.strictEqual(ordered[0]!.id, 50_000)
  })
})

describe("flags files", () => {
  it("export names records by name and key, and refuses a project it cannot name", () => {
    const records = {
      groupTypes: [{ group_type_index: 1, group_type: "team", name_singular: null, name_plural: null }],
      cohorts: [{ id: 5, name: "Pros", description: "", is_static: false, filters: byFilters({ type: "person", key: "plan", value: "pro" }), groups: [] }],
      flags: [{ id: 8, ...flag("b", { groups: [{ properties: [naming(5)] }] }) }, { id: 9, ...flag("a", { groups: [{ properties: [{ type: "flag", key: "8" }] }] }) }]
    }
    const exported = flagsFileOf(records)
    assert.ok(typeof exported !== "string")
    assert.deepStrictEqual(exported.flags.map((f) => [f.key, f.filters]), [
      ["a", { groups: [{ properties: [{ type: "flag", key: "b" }] }] }],
      ["b", { groups: [{ properties: [naming("Pros")] }] }]
    ])
    assert.strictEqual(
      flagsFileOf({ ...records, cohorts: [...records.cohorts, { ...records.cohorts[0]!, id: 6 }] }),
      "Cohorts 5 and 6 are both named \"Pros\", and a file names cohorts by name: rename one first."
    )
    assert.strictEqual(
      flagsFileOf({ ...records, flags: [{ id: 8, ...flag("b", { groups: [{ properties: [naming(77)] }] }) }] }),
      "The flag \"b\" names cohort 77, which is not a live record of the project."
    )
  })

  it("plans creates, updates by field, unchanged records and those left alone, with the project's group type indexes", () => {
    const wanted = file({
      group_types: [{ group_type_index: 0, group_type: "company", name_singular: null, name_plural: null }, { group_type_index: 1, group_type: "team", name_singular: null, name_plural: null }],
      flags: [flag("same"), { ...flag("grouped", { aggregation_group_type_index: 1, groups: [] }), tags: ["b", "a"] }, flag("new")]
    })
    const current = file({
      group_types: [{ group_type_index: 0, group_type: "team", name_singular: null, name_plural: null }],
      flags: [flag("same"), { ...flag("grouped", { aggregation_group_type_index: 0, groups: [] }), tags: ["a"] }, flag("other")]
    })
    const plan = importPlan(wanted, current)
    assert.ok(typeof plan !== "string")
    assert.deepStrictEqual([...plan.groupTypeIndexes], [[0, 1], [1, 0]])
    assert.deepStrictEqual(plan.records.map((record) => [record.action, record.kind, record.name, record.fields]), [
      ["create", "group type", "company", []],
      ["unchanged", "group type", "team", []],
      ["unchanged", "flag", "same", []],
      ["update", "flag", "grouped", ["tags"]],
      ["create", "flag", "new", []]
    ])
    assert.deepStrictEqual(plan.leftAlone, [{ kind: "flag", name: "other" }])
    const full = Array.from({ length: 5 }, (_, i) => ({ group_type_index: i, group_type: `t${i}`, name_singular: null, name_plural: null }))
    assert.strictEqual(
      groupTypeIndexesIn([{ group_type_index: 0, group_type: "sixth", name_singular: null, name_plural: null }], full),
      "The project has no free group type index for \"sixth\": a project holds at most 5."
    )
    assert.deepStrictEqual(
      forProject({ groups: [{ properties: [naming("Pros"), { type: "flag", key: "a" }] }] }, { cohorts: new Map([["Pros", 3]]), flags: new Map([["a", 4]]), groupTypeIndexes: new Map() }),
      { groups: [{ properties: [naming(3), { type: "flag", key: "4" }] }] }
    )
  })

  it.effect("a file is checked whole: names twice, unknown names, loops and bad filters are refused", () =>
    Effect.gen(function*() {
      const refusal = (json: unknown) =>
        Effect.map(Effect.exit(readFlagsFile(json)), (exit) => (Exit.isFailure(exit) ? JSON.stringify(exit.cause) : "accepted"))
      const loop = file({ flags: [flag("a", { groups: [{ properties: [{ type: "flag", key: "b" }] }] }), flag("b", { groups: [{ properties: [{ type: "flag", key: "a" }] }] })] })
      assert.include(yield* refusal(loop), "The flag \\\"a\\\" names itself through other flags, in a loop.")
      assert.include(yield* refusal(file({ flags: [flag("a", { groups: [{ properties: [{ type: "flag", key: "z" }] }] })] })), "names flag \\\"z\\\", which the file does not hold.")
      assert.include(yield* refusal(file({ flags: [flag("a", { aggregation_group_type_index: 3, groups: [] })] })), "names group type index 3")
      assert.include(yield* refusal(file({ flags: [flag("a", { groups: "all" as never })] })), "flags__0__filters")
      assert.strictEqual(yield* refusal(file({ flags: [flag("a"), flag("b", { groups: [{ properties: [{ type: "flag", key: "a" }] }] })] })), "accepted")
    }))
})
