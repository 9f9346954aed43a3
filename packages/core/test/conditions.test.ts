import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { cohortIdsIn, conditionsOf, type FlagConditions, parseConditions } from "../src/feature-flags/conditions.ts"
import { dependenciesOf, fullRolloutOf, isSimpleFlag } from "../src/feature-flags/derived.ts"
import { dependencyError } from "../src/feature-flags/management/dependencies.ts"
import { conditionRulesError, payloadsError, propertyTypesError } from "../src/feature-flags/management/filter-rules.ts"
import { FLAG_VIEW_FIELDS } from "../src/feature-flags/model.ts"
import { toFlagView } from "../src/feature-flags/view.ts"
import { ValidationError } from "../src/shared/errors.ts"
import type { JsonRecord } from "../src/shared/fields.ts"
import { storedFlag } from "./stored-flag.ts"

/** The one reading of a flag's filters that validation, computed fields, dependencies and the view share. */

const parsed = (filters: JsonRecord): FlagConditions => {
  const conditions = parseConditions(filters)
  if (conditions instanceof ValidationError) throw new Error(`unexpected refusal: ${conditions.detail}`)
  return conditions
}
const refusal = (filters: JsonRecord) => {
  const conditions = parseConditions(filters)
  return conditions instanceof ValidationError ? conditions.detail : undefined
}
const firstProperty = (filters: JsonRecord) => parsed(filters).groups[0]!.properties[0]!
const withProperty = (property: JsonRecord) => ({ groups: [{ properties: [property], rollout_percentage: 100 }] })
const cohort = (value: unknown) => withProperty({ key: "id", type: "cohort", value })

/** Every rule of validate_filters that needs no stored data, in PostHog's order. */
const rulesError = (filters: JsonRecord, cohorts: ReadonlyMap<number, { name: string | null; behavioral: boolean }>) => {
  const conditions = parseConditions(filters)
  if (conditions instanceof ValidationError) return conditions.detail
  return (propertyTypesError(conditions) ?? conditionRulesError(conditions, cohorts) ?? payloadsError(conditions))?.detail
}

const stored = (filters: JsonRecord) => storedFlag({ filters })
const render = (filters: JsonRecord, cohortNames: ReadonlyMap<number, string> = new Map()) =>
  toFlagView(stored(filters), { canEdit: true, cohortNames, nowMillis: Date.parse("2026-06-01T00:00:00Z"), lastCalled: () => null })

describe("a flag's conditions", () => {
  it("read stored `{}` (a flag created without filters) as one open group, which submitted filters may not be", () => {
    const legacy = conditionsOf({})
    assert.strictEqual(legacy.groups.length, 1)
    assert.deepStrictEqual(legacy.groups[0]!.properties, [])
    assert.strictEqual(legacy.groups[0]!.rollout_percentage, null)
    assert.isTrue(legacy.withoutFilters)
    assert.deepStrictEqual(legacy.json, { groups: [{ properties: [], rollout_percentage: null }] })
    assert.isTrue(isSimpleFlag(legacy))
    assert.strictEqual(fullRolloutOf(legacy), "This boolean flag will always evaluate to \"true\"")
    // The same open group written out is only partly rolled out: PostHog's status check counts 100 alone.
    const written = conditionsOf({ groups: [{ properties: [], rollout_percentage: null }] })
    assert.isFalse(written.withoutFilters)
    assert.strictEqual(fullRolloutOf(written), null)
    assert.deepStrictEqual(render({}).filters, { groups: [{ properties: [], rollout_percentage: null }] })
    assert.strictEqual(refusal({}), "Filters are not valid (groups must be a list of objects)")
  })

  it("read a property without a type (or with an empty one) as an event property", () => {
    const property = firstProperty(withProperty({ key: "email", value: "a@b.c" }))
    assert.strictEqual(property.type, "event")
    assert.strictEqual(property.operator, null)
    assert.strictEqual(firstProperty(withProperty({ key: "email", type: "" })).type, "event")
    assert.strictEqual(firstProperty(withProperty({ key: "email", type: "person" })).type, "person")
    assert.strictEqual(
      rulesError(withProperty({ key: "email", value: "x" }), new Map()),
      "Filters are not valid (can only use person, cohort, and flag properties)"
    )
  })

  it("parse a cohort id given as text or as a number one way, Python's safe_int, in validation and in the view", () => {
    for (const value of ["12", 12, " 12 ", "+12"]) assert.strictEqual(firstProperty(cohort(value)).cohort_id, 12)
    for (const value of ["12.0", 12.5, "1e1", "twelve", true, null, [12]]) assert.strictEqual(firstProperty(cohort(value)).cohort_id, null)
    // Only cohort properties name a cohort.
    assert.strictEqual(firstProperty(withProperty({ key: "id", type: "person", value: 12 })).cohort_id, null)

    const buyers = new Map([[12, { name: "Buyers", behavioral: false }]])
    const events = new Map([[12, { name: "Clickers", behavioral: true }]])
    for (const value of ["12", 12]) {
      assert.strictEqual(rulesError(cohort(value), buyers), undefined)
      assert.strictEqual(rulesError(cohort(value), events), "Cohort 'Clickers' with filters on events cannot be used in feature flags.")
      assert.strictEqual(rulesError(cohort(value), new Map()), "Cohort with id 12 does not exist")
      assert.deepStrictEqual(cohortIdsIn(parsed(cohort(value))), [12])
      assert.deepStrictEqual(cohortIdsIn(conditionsOf(stored(cohort(value)).filters)), [12])
      assert.deepStrictEqual(render(cohort(value), new Map([[12, "Buyers"]])).filters, {
        groups: [{ properties: [{ key: "id", type: "cohort", value, cohort_name: "Buyers" }], rollout_percentage: 100 }]
      })
    }
    // Text that is a number to JavaScript but no int to Python names no cohort, in either place.
    assert.strictEqual(rulesError(cohort("1e1"), new Map([[10, { name: "Ten", behavioral: false }]])), "Cohort with id 1e1 does not exist")
    assert.deepStrictEqual(cohortIdsIn(conditionsOf(stored(cohort("1e1")).filters)), [])
  })

  it("render stored filters as they are, adding only cohort names", () => {
    const filters = {
      groups: [
        { rollout_percentage: 50, description: "no properties key" },
        { properties: [{ key: "email", type: "person", value: "x" }, { key: "id", type: "cohort", value: 3, cohort_name: "old" }] }
      ],
      payloads: {},
      extra: [1]
    }
    assert.deepStrictEqual(render(filters, new Map()).filters, {
      groups: [
        { rollout_percentage: 50, description: "no properties key" },
        { properties: [{ key: "email", type: "person", value: "x" }, { key: "id", type: "cohort", value: 3, cohort_name: null }] }
      ],
      payloads: {},
      extra: [1]
    })
    const plain = { groups: [{ properties: [], rollout_percentage: 20 }] }
    assert.strictEqual(render(plain).filters, plain)
  })

  it("parse flag references: the key as a flag id, as text or a number, once for every reader", () => {
    const flags = (...keys: ReadonlyArray<unknown>) => ({
      groups: [{ properties: keys.map((key) => ({ key, type: "flag", operator: "flag_evaluates_to", value: true })) }]
    })
    const read = parsed(flags("7", 7, "beta"))
    assert.deepStrictEqual(read.groups[0]!.properties.map((property) => property.flag_id), [7, 7, null])
    assert.deepStrictEqual(dependenciesOf(read), [7])
    // A person property keyed by digits names no flag.
    assert.strictEqual(firstProperty(withProperty({ key: "7", type: "person", value: 1 })).flag_id, null)

    const load = (ids: ReadonlyArray<number>) =>
      Effect.succeed(ids.includes(7) ? [{ id: 7, key: "seven", active: true, filters: {} }] : [])
    const check = (filters: JsonRecord) => Effect.runSync(dependencyError(parsed(filters), "new", load))?.detail
    assert.strictEqual(check(flags("7", 7)), undefined)
    assert.strictEqual(
      check(flags(7, "beta")),
      "Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: 'beta'"
    )
    // PostHog skips an empty reference.
    assert.strictEqual(check(flags("", 0, false)), undefined)
    assert.strictEqual(check(flags(8)), "Flag dependency references non-existent flag with ID 8")
  })

  it("read variants, overrides, payloads and the aggregation as PostHog's rules do", () => {
    const read = parsed({
      groups: [{ properties: [], variant: "" }, { properties: [], variant: "b" }, { properties: [], variant: 0 }],
      multivariate: { variants: [{ key: "a", name: "A", rollout_percentage: 100 }, { key: "b" }] },
      payloads: { a: "1" },
      aggregation_group_type_index: 0
    })
    assert.deepStrictEqual(read.variants, [{ key: "a", name: "A", rollout_percentage: 100 }, { key: "b", name: null, rollout_percentage: 0 }])
    assert.deepStrictEqual(read.groups.map((group) => group.variant), [null, "b", null])
    assert.isTrue(read.hasMultivariate)
    assert.deepStrictEqual(read.payloads, { a: "1" })
    assert.strictEqual(read.aggregation_group_type_index, 0)
    // `multivariate: {}` is a boolean flag to PostHog; payloads that are no object are kept for their rule to refuse.
    assert.isFalse(parsed({ groups: [], multivariate: {} }).hasMultivariate)
    assert.strictEqual(parsed({ groups: [], payloads: ["x"] }).payloads, null)
    assert.strictEqual(rulesError({ groups: [], payloads: ["x"] }, new Map()), "Payloads must be passed as a dictionary")
    // An override that is not text names no variant.
    assert.strictEqual(
      rulesError({ groups: [{ properties: [], variant: 5 }], multivariate: { variants: [{ key: "5", rollout_percentage: 100 }] } }, new Map()),
      "Filters are not valid (variant override does not exist)"
    )
  })

  it("refuse the first unsound shape in PostHog's order, yet read any stored filters", () => {
    const unsound = { groups: [{ properties: {} }, 1], multivariate: [] }
    assert.strictEqual(refusal(unsound), "Filters are not valid (groups must be a list of objects)")
    assert.strictEqual(
      refusal({ groups: [{ properties: [{ value: 1 }], rollout_percentage: 200 }] }),
      "Filters are not valid (every property needs a key)"
    )
    assert.strictEqual(
      refusal({ groups: [{ properties: [], rollout_percentage: 200 }], multivariate: { variants: [{}] } }),
      "Filters are not valid (rollout_percentage must be a number between 0 and 100)"
    )
    const read = conditionsOf(unsound)
    assert.strictEqual(read.groups.length, 1)
    assert.deepStrictEqual(read.variants, [])
  })
})

describe("a flag's answer", () => {
  it("has the answer's fields, in the order PostHog's serializer prints them", () => {
    assert.deepStrictEqual(Object.keys(render({ groups: [{ properties: [], rollout_percentage: 50 }] })), [...FLAG_VIEW_FIELDS])
  })
})
