import { assert, describe, it } from "@effect/vitest"
import { cohortsReached, definedCohortsReached, lookupIn } from "../src/cohorts/graph.ts"
import { hiddenForFlags } from "../src/cohorts/list-query.ts"
import { filtersIn, namedCohortIds } from "../src/cohorts/properties.ts"
import { deletionError, flagUseError, type ProjectCohorts, referenceError } from "../src/cohorts/rules.ts"
import { cohortDefinitions } from "../src/evaluation/cohorts.ts"
import type { ValidationError } from "../src/shared/errors.ts"
import type { FeatureFlagId } from "../src/shared/ids.ts"
import { paced } from "./machine-pace.ts"
import { threadTimed } from "./thread-slices.ts"

/** Cohorts naming cohorts, as the rules read them: every reading of a reference is the same one. */

const cohort = (id: number, fields: { name?: string; filters?: unknown; groups?: unknown; is_static?: boolean; deleted?: boolean } = {}) =>
  ({ id, name: `Cohort ${id}`, filters: null, groups: [], is_static: false, deleted: false, ...fields }) as ProjectCohorts["cohorts"][number]

const naming = (value: unknown) => ({ type: "cohort", key: "id", value })
const byFilters = (...values: ReadonlyArray<unknown>) => ({ properties: { type: "OR", values: [{ type: "AND", values }] } })
const byGroups = (...values: ReadonlyArray<unknown>) => [{ properties: values }]

const project = (...cohorts: ReadonlyArray<ProjectCohorts["cohorts"][number]>): ProjectCohorts => ({ cohorts, flags: [] })

const detailOf = (error: ValidationError | undefined) => error?.detail

const criteria = (names: string) =>
  `This cohort is used as criteria in 1 other cohort(s): ${names}. Please remove this cohort from those cohort definitions before deleting it.`

describe("a cohort another cohort names", () => {
  const five = cohort(5, { filters: byFilters({ type: "person", key: "plan", value: "pro", operator: "exact" }) })

  it("cannot be deleted whether it is named in filters, in legacy groups, or as text holding its id", () => {
    for (const other of [
      cohort(6, { filters: byFilters(naming(5)) }),
      cohort(6, { groups: byGroups(naming(5)) }),
      cohort(6, { groups: byGroups(naming("5")) }),
      cohort(6, { filters: byFilters(naming(" 5 ")) })
    ]) {
      // The reference rule reads the reference: the deletion rule must read it the same way.
      assert.isUndefined(referenceError({ id: other.id, filters: other.filters, groups: other.groups }, project(five)))
      assert.strictEqual(detailOf(deletionError(5, project(five, other))), criteria("Cohort 6"))
    }
  })

  it("can be deleted once no live cohort names it", () => {
    assert.isUndefined(deletionError(5, project(five, cohort(6, { groups: byGroups(naming("5")), deleted: true }))))
    assert.isUndefined(deletionError(5, project(five, cohort(6, { groups: byGroups(naming(50)) }))))
    // Groups are a cohort's definition only when it has no filters.
    assert.isUndefined(deletionError(5, project(five, cohort(6, { filters: byFilters(naming(7)), groups: byGroups(naming(5)) }), cohort(7))))
  })
})

const person = (key: string) => ({ type: "person", key, value: "x", operator: "exact" })
const behavioral = { type: "behavioral", key: "$pageview", value: "performed_event", event_type: "events" }

/** Cohort `i` names cohort `i + 1`, for i in 1..n-1; the last one is `last`. */
const chain = (n: number, last: ProjectCohorts["cohorts"][number]) => [
  ...Array.from({ length: n - 1 }, (_, i) => cohort(i + 1, { filters: byFilters(naming(i + 2)) })),
  last
]

describe("what a cohort names", () => {
  it("its filters, or else its legacy groups; each id once, as an integer, in order; anything else names none", () => {
    assert.deepStrictEqual(namedCohortIds(cohort(1, { filters: byFilters(naming(3), naming("2"), naming(3), naming("x"), naming(2.5), naming(null)) })), [3, 2])
    assert.deepStrictEqual(namedCohortIds(cohort(1, { groups: byGroups(naming(" 4 "), person("plan")) })), [4])
    assert.deepStrictEqual(namedCohortIds(cohort(1, { filters: byFilters(naming(7)), groups: byGroups(naming(4)) })), [7])
    assert.deepStrictEqual(namedCohortIds(cohort(1, { filters: { properties: {} }, groups: byGroups(naming(4)) })), [])
  })

  it("however deep its groups nest: the walk keeps its own stack", () => {
    let tree: unknown = naming(9)
    for (let level = 0; level < 100_000; level++) tree = { type: "AND", values: [person("a"), tree] }
    assert.deepStrictEqual(namedCohortIds(cohort(1, { filters: { properties: tree } })), [9])
    assert.strictEqual(filtersIn(tree).length, 100_001)
  })
})

describe("what a cohort reaches, and what names it", () => {
  it("static cohorts are reached but not followed; unknown ids are left out; deleted cohorts are still read", () => {
    const cohorts = [
      cohort(1, { filters: byFilters(naming(2), naming(3), naming(99)) }),
      cohort(2, { is_static: true, filters: byFilters(naming(4)) }),
      cohort(3, { deleted: true, groups: byGroups(naming("5")) }),
      cohort(4),
      cohort(5, { filters: byFilters(naming(1)) })
    ]
    assert.deepStrictEqual(cohortsReached([1], lookupIn(cohorts)).map((each) => each.id), [1, 2, 3, 5])
    // Evaluation reads the live dynamic cohorts' definitions, and the static lists it is told of.
    assert.deepStrictEqual(definedCohortsReached([1], cohortDefinitions(cohorts), new Set([2])), [1, 2])
    assert.deepStrictEqual(definedCohortsReached([5, 1], cohortDefinitions(cohorts)), [5, 1])
  })

  it("the cohorts hidden from flags are those on events and every live cohort naming one, read backwards once", () => {
    const cohorts = [
      cohort(1, { filters: byFilters(behavioral) }),
      cohort(2, { groups: byGroups(naming("1")) }),
      cohort(3, { filters: byFilters(naming(2)) }),
      cohort(4, { filters: byFilters(naming(2)), deleted: true }),
      cohort(5, { is_static: true, filters: byFilters(behavioral) }),
      cohort(6, { filters: byFilters(naming(5)) }),
      cohort(7, { groups: [{ action_id: 3 }] })
    ]
    assert.sameMembers([...hiddenForFlags(cohorts)], [1, 2, 3, 7])
  })

  it("a chain of 20,000 cohorts is hidden, refused as a loop, and found naming its end in milliseconds", () => {
    const n = 20_000
    const cohorts = chain(n, cohort(n, { filters: byFilters(behavioral) }))
    const [hidden, hiddenMs] = threadTimed(() => hiddenForFlags(cohorts))
    assert.strictEqual(hidden.length, n)
    const [loop, loopMs] = threadTimed(() => referenceError({ id: n, filters: byFilters(naming(1)), groups: [] }, project(...cohorts)))
    assert.strictEqual(detailOf(loop), "Cohorts cannot reference other cohorts in a loop.")
    assert.strictEqual(detailOf(deletionError(n, project(...cohorts))), criteria(`Cohort ${n - 1}`))
    assert.isBelow(hiddenMs, paced(250))
    assert.isBelow(loopMs, paced(250))
  })
})

describe("a cohort active flags reach", () => {
  const flag = (id: number, cohortId: number, active = true) =>
    ({
      id: id as FeatureFlagId,
      key: `flag-${id}`,
      name: "",
      active,
      deleted: false,
      filters: { groups: [{ properties: [naming(cohortId)], rollout_percentage: 100 }] }
    }) as ProjectCohorts["flags"][number]

  it("may not name a cohort on events, however the reference is written", () => {
    const used = cohort(1, { filters: byFilters(person("plan")) })
    const events = cohort(2, { name: "Events", filters: byFilters(behavioral) })
    const known: ProjectCohorts = { cohorts: [used, events], flags: [flag(1, 1)] }
    const message = "A cohort dependency (Events) has filters based on events. These cohorts can't be used in feature flags."
    for (const written of [{ filters: byFilters(naming(2)), groups: [] }, { filters: null, groups: byGroups(naming("2")) }]) {
      assert.strictEqual(detailOf(flagUseError(1, written, known, null)), message)
    }
    // Nor reach it through an inactive flag's cohort, which holds nothing.
    assert.isUndefined(flagUseError(1, { filters: null, groups: byGroups(naming("2")) }, { ...known, flags: [flag(1, 1, false)] }, null))
  })

  it("cannot be deleted while an active flag reaches it through cohorts naming it by text", () => {
    const inner = cohort(1, { filters: byFilters(person("plan")) })
    const outer = cohort(2, { groups: byGroups(naming("1")) })
    assert.strictEqual(
      detailOf(deletionError(1, { cohorts: [inner, outer], flags: [flag(1, 2)] })),
      "This cohort is used in 1 active feature flag(s): flag-1. Please remove the cohort from these feature flags before deleting it."
    )
  })
})
