import { assert, describe, it } from "@effect/vitest"
import { bucketHash } from "../src/bucketing/bucket-hash.ts"
import { flagPrefix } from "../src/bucketing/hash-prefix.ts"
import type { Cohort } from "../src/cohorts/model.ts"
import { cohortDefinitions } from "../src/evaluation/cohorts.ts"
import type { EvaluationContext } from "../src/evaluation/context.ts"
import { definitionFilters, dependencyReference } from "../src/evaluation/definitions.ts"
import { evaluateFlags, resultsByKey } from "../src/evaluation/evaluate.ts"
import type { CohortDefinitions, EvaluatedFlag, FlagResult, PreparedFlags } from "../src/evaluation/model.ts"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import type { JsonRecord } from "../src/shared/fields.ts"
import type { CohortId, FeatureFlagId, ProjectId } from "../src/shared/ids.ts"
import { timestampFromDate } from "../src/shared/time.ts"
import { storedFlag } from "./stored-flag.ts"
import { paced } from "./machine-pace.ts"
import { threadMillis } from "./thread-slices.ts"

/** Flag evaluation's rules, one by one: operators, variants and payloads, reasons, groups, dependencies, cohorts. */

let nextId = 1

const flagOf = (key: string, filters: JsonRecord, extra: Partial<EvaluatedFlag> = {}): EvaluatedFlag =>
  ({ ...storedFlag({ id: nextId++ as FeatureFlagId, key, filters, version: 3 }), ...extra })

const NOW = new Date("2026-03-31T12:00:00Z")

/** The project's group types: index 0 is `company`, 1 is `team`, and the others have none. */
const GROUP_TYPES = { "0": "company", "1": "team" }

const evaluate = (flags: ReadonlyArray<EvaluatedFlag>, context: Partial<EvaluationContext> = {}, cohorts?: CohortDefinitions) =>
  evaluateFlags(prepareFlags(flags, { cohorts, groupTypes: GROUP_TYPES }), { distinct_id: "user-1", now: NOW, ...context })

const one = (flag: EvaluatedFlag, context: Partial<EvaluationContext> = {}, cohorts?: CohortDefinitions): FlagResult => {
  const result = resultsByKey(evaluate([flag], context, cohorts)).get(flag.key)
  if (result === undefined) throw new Error(`${flag.key} has no result`)
  return result
}

const valueOf = (result: FlagResult | undefined) => (result === undefined ? undefined : result.variant ?? result.enabled)

/** Whether one property filter matches these person properties. */
const matches = (property: JsonRecord, person_properties: JsonRecord) =>
  one(flagOf("f", { groups: [{ properties: [{ type: "person", ...property }], rollout_percentage: 100 }] }), { person_properties }).enabled

describe("evaluation operators", () => {
  it("exact and is_not: text case-insensitive, lists any of, booleans and their text by truth", () => {
    assert.isTrue(matches({ key: "plan", value: "Pro" }, { plan: "pro" }))
    assert.isTrue(matches({ key: "plan", operator: "exact", value: ["free", "PRO"] }, { plan: "pro" }))
    assert.isFalse(matches({ key: "plan", operator: "exact", value: ["free"] }, { plan: "pro" }))
    assert.isTrue(matches({ key: "beta", operator: "exact", value: "true" }, { beta: true }))
    assert.isTrue(matches({ key: "beta", operator: "exact", value: true }, { beta: "TRUE" }))
    assert.isFalse(matches({ key: "beta", operator: "exact", value: [] }, { beta: "x" }))
    assert.isTrue(matches({ key: "plan", operator: "is_not", value: ["free", "team"] }, { plan: "pro" }))
    assert.isFalse(matches({ key: "plan", operator: "is_not", value: "PRO" }, { plan: "pro" }))
    assert.isTrue(matches({ key: "plan", operator: "exact", value: "null" }, { plan: null }))
    assert.isTrue(matches({ key: "score", operator: "exact", value: 1.5 }, { score: "1.5" }))
    // Integers are compared as the service renders them.
    assert.isTrue(matches({ key: "age", operator: "exact", value: 30 }, { age: "30" }))
    assert.isTrue(matches({ key: "tags", operator: "exact", value: '{"a":1,"b":2}' }, { tags: { b: 2, a: 1 } }))
  })

  it("is_set and is_not_set; a property the request lacks matches only the negative operators", () => {
    assert.isTrue(matches({ key: "email", operator: "is_set", value: "is_set" }, { email: null }))
    assert.isFalse(matches({ key: "email", operator: "is_set" }, {}))
    assert.isTrue(matches({ key: "email", operator: "is_not_set" }, {}))
    assert.isFalse(matches({ key: "email", operator: "is_not_set" }, { email: "a@b.c" }))
    for (const operator of ["exact", "icontains", "starts_with", "ends_with", "regex", "gt", "lt", "is_date_before", "semver_gt"]) {
      assert.isFalse(matches({ key: "email", operator, value: "1" }, {}), operator)
    }
    for (const operator of ["is_not", "not_icontains", "not_starts_with", "not_ends_with", "not_regex"]) {
      assert.isTrue(matches({ key: "email", operator, value: "1" }, {}), operator)
    }
    // A filter without a value matches nothing, negative or not.
    assert.isFalse(matches({ key: "email", operator: "is_not", value: null }, {}))
  })

  it("text operators fold ASCII case only, and read other values as JavaScript text", () => {
    assert.isTrue(matches({ key: "email", operator: "icontains", value: "EXAMPLE" }, { email: "ann@example.com" }))
    assert.isFalse(matches({ key: "email", operator: "icontains", value: "åsa" }, { email: "ÅSA@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "not_icontains", value: "test" }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "starts_with", value: "ANN" }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "not_starts_with", value: "bob" }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "ends_with", value: ".COM" }, { email: "ann@example.com" }))
    assert.isFalse(matches({ key: "email", operator: "not_ends_with", value: ".com" }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "tags", operator: "icontains", value: "a,b" }, { tags: ["a", "b"] }))
    assert.isTrue(matches({ key: "plan", operator: "icontains", value: "nul" }, { plan: null }))
  })

  it("regex and not_regex search anywhere; a pattern that does not compile matches under neither", () => {
    assert.isTrue(matches({ key: "email", operator: "regex", value: "@example\\.com$" }, { email: "ann@example.com" }))
    assert.isFalse(matches({ key: "email", operator: "regex", value: "^bob" }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "not_regex", value: "^bob" }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "regex", value: "" }, { email: "ann" }))
    assert.isFalse(matches({ key: "email", operator: "regex", value: "(" }, { email: "ann" }))
    assert.isFalse(matches({ key: "email", operator: "not_regex", value: "(" }, { email: "ann" }))
  })

  it("gt, gte, lt, lte compare numbers when both sides read as one, else text", () => {
    assert.isTrue(matches({ key: "age", operator: "gt", value: "18" }, { age: 30 }))
    assert.isFalse(matches({ key: "age", operator: "gt", value: "18" }, { age: "9" }))
    assert.isTrue(matches({ key: "age", operator: "gte", value: "30" }, { age: "30.0" }))
    assert.isTrue(matches({ key: "age", operator: "lt", value: "100" }, { age: "99abc" }))
    assert.isTrue(matches({ key: "plan", operator: "gt", value: "free" }, { plan: "pro" }))
    assert.isTrue(matches({ key: "plan", operator: "lte", value: "pro" }, { plan: "enterprise" }))
    assert.isFalse(matches({ key: "age", operator: "gt", value: "1" }, { age: null }))
  })

  it("dates: relative filters count back from now, months clamping the day; ISO dates and epoch milliseconds", () => {
    const daysAgo = (days: number) => new Date(NOW.getTime() - days * 86_400_000).toISOString()
    assert.isTrue(matches({ key: "signup", operator: "is_date_before", value: "-30d" }, { signup: daysAgo(31) }))
    assert.isFalse(matches({ key: "signup", operator: "is_date_before", value: "-30d" }, { signup: daysAgo(29) }))
    assert.isTrue(matches({ key: "signup", operator: "is_date_after", value: "-1h" }, { signup: daysAgo(0.02) }))
    assert.isTrue(matches({ key: "signup", operator: "is_date_after", value: "-2w" }, { signup: daysAgo(13) }))
    // 31 March less one month is 28 February (2026 is not a leap year), less one year 31 March 2025.
    assert.isTrue(matches({ key: "signup", operator: "is_date_after", value: "-1m" }, { signup: "2026-02-28T12:00:01Z" }))
    assert.isFalse(matches({ key: "signup", operator: "is_date_after", value: "-1m" }, { signup: "2026-02-28T11:59:59Z" }))
    assert.isTrue(matches({ key: "signup", operator: "is_date_before", value: "-1y" }, { signup: "2025-03-31T11:00:00Z" }))
    assert.isTrue(matches({ key: "signup", operator: "is_date_before", value: "2024-06-01" }, { signup: "2024-05-31T23:00:00Z" }))
    assert.isTrue(matches({ key: "signup", operator: "is_date_after", value: "2024-06-01" }, { signup: Date.parse("2024-07-01") }))
    assert.isFalse(matches({ key: "signup", operator: "is_date_after", value: "2024-06-01" }, { signup: "not a date" }))
  })

  it("semver: comparisons, ~, ^ and wildcards; mobile versions with leading zeros as the service reads them", () => {
    assert.isTrue(matches({ key: "v", operator: "semver_eq", value: "1.2" }, { v: "v1.2.0" }))
    assert.isTrue(matches({ key: "v", operator: "semver_neq", value: "1.2.3" }, { v: "1.2.4" }))
    assert.isTrue(matches({ key: "v", operator: "semver_gt", value: "1.9.9" }, { v: "1.10.0" }))
    assert.isTrue(matches({ key: "v", operator: "semver_gte", value: "2.0.0" }, { v: "2.0.0-beta" }))
    assert.isTrue(matches({ key: "v", operator: "semver_lt", value: "1.2.4" }, { v: "1.2.3" }))
    assert.isFalse(matches({ key: "v", operator: "semver_lte", value: "1.2.3" }, { v: "1.3.0" }))
    assert.isTrue(matches({ key: "v", operator: "semver_tilde", value: "1.2.0" }, { v: "1.2.9" }))
    assert.isFalse(matches({ key: "v", operator: "semver_tilde", value: "1.2.0" }, { v: "1.3.0" }))
    assert.isTrue(matches({ key: "v", operator: "semver_caret", value: "1.2.0" }, { v: "1.9.0" }))
    assert.isFalse(matches({ key: "v", operator: "semver_caret", value: "0.2.0" }, { v: "0.3.0" }))
    assert.isTrue(matches({ key: "v", operator: "semver_caret", value: "0.0.3" }, { v: "0.0.3" }))
    assert.isTrue(matches({ key: "v", operator: "semver_wildcard", value: "1.2.*" }, { v: "1.2.7" }))
    assert.isFalse(matches({ key: "v", operator: "semver_wildcard", value: "1.*" }, { v: "2.0.0" }))
    assert.isTrue(matches({ key: "v", operator: "semver_gt", value: "3.7" }, { v: "3.08" }))
    assert.isTrue(matches({ key: "v", operator: "semver_wildcard", value: "1.*.*" }, { v: "1.4.0" }))
    assert.isFalse(matches({ key: "v", operator: "semver_eq", value: "1.2.3" }, { v: "garbage" }))
  })

  it("the service's own operators: icontains_multi, between, is_date_exact", () => {
    assert.isTrue(matches({ key: "email", operator: "icontains_multi", value: ["zzz", "EXAMPLE"] }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "email", operator: "not_icontains_multi", value: ["zzz"] }, { email: "ann@example.com" }))
    assert.isTrue(matches({ key: "age", operator: "between", value: [18, 40] }, { age: "40" }))
    assert.isTrue(matches({ key: "age", operator: "not_between", value: [18, 40] }, { age: 41 }))
    assert.isTrue(matches({ key: "day", operator: "is_date_exact", value: "2024-06-01" }, { day: "2024-06-01T00:00:00Z" }))
    assert.isFalse(matches({ key: "plan", operator: "made_up", value: "pro" }, { plan: "pro" }))
  })

  it("read a number from text in one pass, however long the text that almost is one (neither side of between)", () => {
    const started = threadMillis()
    for (const text of [`${"1".repeat(10_000)}x`, `${"1".repeat(10_000)}.${"1".repeat(10_000)}e`, `.${"1".repeat(10_000)}e+`]) {
      assert.isFalse(matches({ key: "age", operator: "between", value: [1, 2] }, { age: text }))
      assert.isFalse(matches({ key: "age", operator: "not_between", value: [1, 2] }, { age: text }))
    }
    assert.isBelow(threadMillis() - started, paced(100))
    assert.isTrue(matches({ key: "age", operator: "between", value: ["1.", ".5e1"] }, { age: "1.5E+0" }))
  })

  it("reads names that objects inherit (constructor, toString, __proto__) as any other", () => {
    assert.isTrue(matches({ key: "constructor", value: "x" }, { constructor: "x" }))
    assert.isFalse(matches({ key: "toString", operator: "is_set" }, {}))
    assert.isTrue(matches({ key: "__proto__", value: "y" }, JSON.parse('{"__proto__": "y"}')))
    const flag = flagOf("odd-group", { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 100 }] })
    const prepared = prepareFlags([flag], { groupTypes: { "0": "toString" } })
    assert.deepStrictEqual(resultsByKey(evaluateFlags(prepared, { distinct_id: "u" })).get("odd-group")!.reason.code, "no_group_type")
  })

  it("reads distinct_id as a person property, and $initial_ properties from their current ones", () => {
    assert.isTrue(matches({ key: "distinct_id", value: "user-1" }, {}))
    assert.isTrue(matches({ key: "$initial_browser", value: "Chrome" }, { $browser: "Chrome" }))
    assert.isFalse(matches({ key: "$initial_browser", value: "Chrome" }, { $browser: "Chrome", $initial_browser: "Safari" }))
  })
})

describe("evaluation of conditions, variants and payloads", () => {
  const variants = {
    multivariate: {
      variants: [
        { key: "control", rollout_percentage: 50 },
        { key: "test", rollout_percentage: 50 }
      ]
    },
    payloads: { control: '{"color":"blue"}', test: '"red"' }
  }

  it("ORs condition groups in order and ANDs their properties; a null rollout lets everyone in", () => {
    const flag = flagOf("or", {
      groups: [
        { properties: [{ key: "plan", type: "person", value: "pro" }, { key: "age", type: "person", operator: "gt", value: "18" }] },
        { properties: [{ key: "email", type: "person", operator: "icontains", value: "@example" }], rollout_percentage: null }
      ]
    })
    assert.deepStrictEqual(one(flag, { person_properties: { plan: "pro", age: 30 } }).reason, {
      code: "condition_match",
      condition_index: 0,
      description: "Matched condition set 1"
    })
    assert.deepStrictEqual(one(flag, { person_properties: { plan: "pro", age: 3, email: "a@example.com" } }).reason.condition_index, 1)
    assert.deepStrictEqual(one(flag, { person_properties: { plan: "free" } }).reason, {
      code: "no_condition_match",
      condition_index: 1,
      description: "No matching condition set"
    })
  })

  it("picks the variant by the variant hash over cumulative shares, with its payload as stored", () => {
    const flag = flagOf("mv", { groups: [{ properties: [], rollout_percentage: 100 }], ...variants })
    for (let i = 0; i < 50; i++) {
      const distinct_id = `user-${i}`
      const result = one(flag, { distinct_id })
      const expected = bucketHash(flagPrefix("mv"), distinct_id, "variant") < 0.5 ? "control" : "test"
      assert.strictEqual(result.variant, expected)
      assert.isTrue(result.enabled)
      assert.strictEqual(result.payload, expected === "control" ? '{"color":"blue"}' : '"red"')
    }
  })

  it("a condition's override decides the variant when it names one; an unknown one is ignored", () => {
    const flag = flagOf("override", {
      groups: [
        { properties: [{ key: "plan", type: "person", value: "pro" }], rollout_percentage: 100, variant: "test" },
        { properties: [], rollout_percentage: 100, variant: "nope" }
      ],
      ...variants
    })
    assert.strictEqual(one(flag, { person_properties: { plan: "pro" } }).variant, "test")
    const hashed = bucketHash(flagPrefix("override"), "user-1", "variant") < 0.5 ? "control" : "test"
    assert.strictEqual(one(flag, { person_properties: { plan: "free" } }).variant, hashed)
  })

  it("a boolean flag's payload is the \"true\" one, only when on; rollout bounds exclude by the flag's hash", () => {
    const on = flagOf("bool", { groups: [{ properties: [], rollout_percentage: 100 }], payloads: { true: "[1,2]" } })
    assert.deepStrictEqual([one(on).enabled, one(on).variant, one(on).payload], [true, null, "[1,2]"])
    const half = flagOf("half", { groups: [{ properties: [], rollout_percentage: 50 }], payloads: { true: "1" } })
    for (let i = 0; i < 40; i++) {
      const result = one(half, { distinct_id: `d${i}` })
      assert.strictEqual(result.enabled, bucketHash(flagPrefix("half"), `d${i}`, "") <= 0.5)
      assert.strictEqual(result.payload, result.enabled ? "1" : null)
      if (!result.enabled) assert.deepStrictEqual(result.reason, { code: "out_of_rollout_bound", condition_index: 0, description: "Out of rollout bound" })
    }
  })

  it("with early_exit, stops at the first condition whose properties match but whose rollout excludes", () => {
    const groups = [{ properties: [], rollout_percentage: 0 }, { properties: [], rollout_percentage: 100 }]
    assert.isTrue(one(flagOf("late", { groups })).enabled)
    assert.deepStrictEqual(one(flagOf("early", { groups, early_exit: true })).reason.code, "out_of_rollout_bound")
  })

  it("holds a share of identifiers out, before any condition, into `holdout-<id>`", () => {
    const held = one(flagOf("held", { groups: [{ properties: [], rollout_percentage: 100 }], holdout: { id: 7, exclusion_percentage: 100 }, payloads: {} }))
    assert.deepStrictEqual([held.variant, held.reason.code, held.reason.condition_index], ["holdout-7", "holdout_condition_value", null])
    assert.isTrue(one(flagOf("free", { groups: [{ properties: [], rollout_percentage: 100 }], holdout: { id: 7, exclusion_percentage: 0 } })).enabled)
    assert.strictEqual(one(flagOf("free2", { groups: [], holdout: { id: 7, exclusion_percentage: 0 } })).variant, null)
  })

  it("inactive flags are off (flag_disabled); deleted flags are absent; a flag without conditions reports no_group_type", () => {
    const flags = resultsByKey(evaluate([
      flagOf("off", { groups: [{ properties: [], rollout_percentage: 100 }] }, { active: false }),
      flagOf("gone", { groups: [{ properties: [], rollout_percentage: 100 }] }, { deleted: true }),
      flagOf("empty", { groups: [] }),
      flagOf("blank", {})
    ]))
    assert.deepStrictEqual(flags.get("off")!.reason, { code: "flag_disabled", condition_index: null, description: "Feature flag is disabled" })
    assert.isFalse(flags.get("off")!.enabled)
    assert.isFalse(flags.has("gone"))
    assert.deepStrictEqual(flags.get("empty")!.reason, { code: "no_group_type", condition_index: null, description: "No group type" })
    assert.isTrue(flags.get("blank")!.enabled)
    assert.deepStrictEqual(flags.get("blank")!.reason.code, "condition_match")
    assert.deepStrictEqual([flags.get("blank")!.id > 0, flags.get("blank")!.version], [true, 3])
  })

  it("evaluates only the flags asked for", () => {
    const evaluation = evaluate([flagOf("a", { groups: [] }), flagOf("b", { groups: [] })], { only: ["b", "zzz"] })
    assert.deepStrictEqual([...resultsByKey(evaluation).keys()], ["b"])
  })
})

describe("evaluation of groups, devices and experience continuity", () => {
  const groupFlag = flagOf("company-flag", {
    aggregation_group_type_index: 0,
    groups: [{ properties: [{ key: "size", type: "group", group_type_index: 0, operator: "gt", value: "10" }], rollout_percentage: 100 }]
  })

  it("a group flag reads the group named by the group type at its index, and hashes its key", () => {
    assert.isTrue(one(groupFlag, { groups: { company: "acme" }, group_properties: { company: { size: 50 } } }).enabled)
    assert.isFalse(one(groupFlag, { groups: { company: "acme" }, group_properties: { company: { size: 5 } } }).enabled)
    assert.deepStrictEqual(one(groupFlag).reason, { code: "no_group_type", condition_index: 0, description: "No group type" })
    // The index is not a name: a group sent as "0" is no group of type company.
    assert.strictEqual(one(groupFlag, { groups: { "0": "acme" }, group_properties: { "0": { size: 50 } } }).reason.code, "no_group_type")
    const half = flagOf("team-half", { aggregation_group_type_index: 1, groups: [{ properties: [], rollout_percentage: 50 }] })
    for (const key of ["acme", "globex", "initech", "umbrella"]) {
      assert.strictEqual(one(half, { groups: { team: key } }).enabled, bucketHash(flagPrefix("team-half"), key, "") <= 0.5)
    }
  })

  it("a flag on an index no group type holds has no group to read: off, no_group_type, whatever the request sends", () => {
    const orphan = flagOf("orphan", { aggregation_group_type_index: 3, groups: [{ properties: [], rollout_percentage: 100 }] })
    const result = one(orphan, { groups: { company: "acme", team: "red", "3": "x" } })
    assert.deepStrictEqual([result.enabled, result.reason.code], [false, "no_group_type"])
    // With no group types at all, every group flag is so.
    const none = evaluateFlags(prepareFlags([groupFlag]), { distinct_id: "u", groups: { company: "acme" }, group_properties: { company: { size: 50 } } })
    assert.strictEqual(resultsByKey(none).get("company-flag")!.reason.code, "no_group_type")
  })

  it("mixed targeting: a group condition of a person flag is skipped without its group, and says so when nothing matched", () => {
    const flag = flagOf("mixed", {
      groups: [
        { properties: [{ key: "plan", type: "person", value: "pro" }], rollout_percentage: 100 },
        { aggregation_group_type_index: 0, properties: [], rollout_percentage: 100 }
      ]
    })
    assert.strictEqual(one(flag, { groups: { company: "acme" }, group_properties: { company: {} } }).reason.condition_index, 1)
    assert.deepStrictEqual(one(flag).reason, {
      code: "no_condition_match",
      condition_index: 0,
      description: "No matching condition set (group conditions were not evaluated because no group type was provided)"
    })
  })

  it("bucketing by device hashes the device id; without one, person conditions are out of rollout", () => {
    const flag = flagOf("device", { groups: [{ properties: [], rollout_percentage: 50 }] }, { bucketing_identifier: "device_id" })
    for (const device of ["d1", "d2", "d3", "d4", "d5"]) {
      assert.strictEqual(one(flag, { device_id: device }).enabled, bucketHash(flagPrefix("device"), device, "") <= 0.5)
      assert.strictEqual(one(flag, { person_properties: { $device_id: device } }).enabled, bucketHash(flagPrefix("device"), device, "") <= 0.5)
    }
    assert.deepStrictEqual(one(flag).reason.code, "out_of_rollout_bound")
  })

  it("experience continuity hashes the request's $anon_distinct_id when given", () => {
    const flag = flagOf("continuity", { groups: [{ properties: [], rollout_percentage: 50 }] }, { ensure_experience_continuity: true })
    for (const anonymous of ["a1", "a2", "a3", "a4", "a5", "a6"]) {
      assert.strictEqual(one(flag, { distinct_id: "logged-in", anon_distinct_id: anonymous }).enabled, bucketHash(flagPrefix("continuity"), anonymous, "") <= 0.5)
    }
    assert.strictEqual(one(flag, { distinct_id: "logged-in" }).enabled, bucketHash(flagPrefix("continuity"), "logged-in", "") <= 0.5)
  })

  it("early access: the enrollment property decides first, with the \"true\" payload whatever the answer", () => {
    const flag = flagOf("beta-feature", { groups: [{ properties: [], rollout_percentage: 0 }], feature_enrollment: true, payloads: { true: "1" } })
    const enrolled = one(flag, { person_properties: { "$feature_enrollment/beta-feature": true } })
    assert.deepStrictEqual([enrolled.enabled, enrolled.reason.code, enrolled.reason.condition_index, enrolled.payload], [true, "super_condition_value", 0, "1"])
    const declined = one(flag, { person_properties: { "$feature_enrollment/beta-feature": "false" } })
    assert.deepStrictEqual([declined.enabled, declined.payload], [false, "1"])
    assert.deepStrictEqual(one(flag).reason.code, "out_of_rollout_bound")
    const legacy = flagOf("legacy", {
      groups: [{ properties: [], rollout_percentage: 0 }],
      super_groups: [{ properties: [{ key: "$feature_enrollment/legacy", type: "person", operator: "exact", value: ["true"] }], rollout_percentage: 100 }]
    })
    assert.isTrue(one(legacy, { person_properties: { "$feature_enrollment/legacy": "true" } }).enabled)
    assert.isFalse(one(legacy).enabled)
  })

  it("the service hashes an empty identifier as 0: within a rollout of 0, not one below it", () => {
    // Super groups are answered by the service, and their rollout is stored as given.
    const early = (rollout_percentage: number) =>
      flagOf(`early-${rollout_percentage}`, {
        groups: [{ properties: [], rollout_percentage: 100 }],
        super_groups: [{ properties: [{ key: "email", type: "person", operator: "is_set", value: "is_set" }], rollout_percentage }]
      })
    const person = { distinct_id: "", person_properties: { email: "a@example.com" } }
    assert.deepStrictEqual([one(early(0), person).enabled, one(early(0), person).reason.code], [true, "super_condition_value"])
    assert.deepStrictEqual([one(early(-10), person).enabled, one(early(-10), person).reason.code], [false, "super_condition_value"])
  })
})

describe("evaluation of flag dependencies", () => {
  const dependsOn = (key: string, target: EvaluatedFlag, value: unknown = true, extra: JsonRecord = {}) =>
    flagOf(key, { groups: [{ properties: [{ key: String(target.id), type: "flag", operator: "flag_evaluates_to", value }], rollout_percentage: 100 }], ...extra })

  it("matches on the dependency's value: true for any enabled value, false for off, text for that variant", () => {
    const variantFlag = flagOf("base", {
      groups: [{ properties: [], rollout_percentage: 100, variant: "test" }],
      multivariate: { variants: [{ key: "control", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] }
    })
    const off = flagOf("off", { groups: [{ properties: [], rollout_percentage: 100 }] }, { active: false })
    const evaluation = evaluate([
      variantFlag, off,
      dependsOn("on-true", variantFlag, true), dependsOn("on-test", variantFlag, "test"), dependsOn("on-control", variantFlag, "control"),
      dependsOn("on-false", variantFlag, false), dependsOn("off-false", off, false), dependsOn("off-true", off, true)
    ])
    const enabled = (key: string) => resultsByKey(evaluation).get(key)!.enabled
    assert.deepStrictEqual(
      ["on-true", "on-test", "on-control", "on-false", "off-false", "off-true"].map(enabled),
      [true, true, false, false, true, false]
    )
  })

  it("gives each dependency property PostHog's dependency_chain: keys in evaluation order, [] for a cycle or a missing flag", () => {
    const a = flagOf("a", { groups: [{ properties: [], rollout_percentage: 100 }] })
    const b = dependsOn("b", a)
    const c = flagOf("c", {
      groups: [{
        properties: [
          { key: String(b.id), type: "flag", operator: "flag_evaluates_to", value: true },
          { key: String(a.id), type: "flag", operator: "flag_evaluates_to", value: true }
        ]
      }]
    })
    const x = flagOf("x", { groups: [] })
    const y = dependsOn("y", x)
    const cyclic = flagOf("x", { groups: [{ properties: [{ key: String(y.id), type: "flag", operator: "flag_evaluates_to", value: true }] }] }, { id: x.id })
    const self = flagOf("self", { groups: [] })
    const selfish = flagOf("self", { groups: [{ properties: [{ key: String(self.id), type: "flag", operator: "flag_evaluates_to", value: true }] }] }, { id: self.id })
    const missing = flagOf("missing", { groups: [{ properties: [{ key: "99999", type: "flag", operator: "flag_evaluates_to", value: true }] }] })
    const prepared = prepareFlags([a, b, c, cyclic, y, selfish, missing])
    const chainOf = (flag: EvaluatedFlag, i = 0) =>
      dependencyReference(prepared, prepared.byKey.get(flag.key)!.dependencies[i]!)
    assert.deepStrictEqual(chainOf(b), { key: "a", dependency_chain: ["a"] })
    assert.deepStrictEqual(chainOf(c, 0), { key: "b", dependency_chain: ["a", "b"] })
    assert.deepStrictEqual(chainOf(y), { key: "x", dependency_chain: [] })
    assert.deepStrictEqual(chainOf(selfish), { key: "self", dependency_chain: [] })
    assert.deepStrictEqual(chainOf(missing), { key: "99999", dependency_chain: [] })
    const filters = definitionFilters(prepared, prepared.byKey.get("c")!) as { groups: Array<{ properties: Array<JsonRecord> }> }
    assert.deepStrictEqual(filters.groups[0]!.properties[0], { key: "b", type: "flag", operator: "flag_evaluates_to", value: true, dependency_chain: ["a", "b"] })
  })

  it("a chain passes over a flag below the top that names itself, as PostHog's walk does", () => {
    const loop = flagOf("loop", { groups: [] })
    const looped = flagOf("loop", { groups: [{ properties: [{ key: String(loop.id), type: "flag", operator: "flag_evaluates_to", value: true }] }, { properties: [] }] }, { id: loop.id })
    const middle = dependsOn("middle", looped)
    const top = dependsOn("top", middle)
    const prepared = prepareFlags([looped, middle, top])
    assert.deepStrictEqual(dependencyReference(prepared, prepared.byKey.get("top")!.dependencies[0]!).dependency_chain, ["loop", "middle"])
  })

  it("a flag on a missing flag is off with missing_dependency; one in or behind a cycle is left out, with errors reported", () => {
    const x = flagOf("x", { groups: [] })
    const y = dependsOn("y", x)
    const cyclic = dependsOn("x", y, true, {})
    const behind = dependsOn("behind", y)
    const fine = flagOf("fine", { groups: [{ properties: [], rollout_percentage: 100 }] })
    const missing = flagOf("missing", { groups: [{ properties: [{ key: "424242", type: "flag", operator: "flag_evaluates_to", value: false }] }] })
    const onMissing = dependsOn("on-missing", missing, false)
    const evaluation = evaluate([{ ...cyclic, id: x.id }, y, behind, fine, missing, onMissing])
    assert.deepStrictEqual([...resultsByKey(evaluation).keys()], ["fine", "missing", "on-missing"])
    assert.isTrue(evaluation.errorsWhileComputingFlags)
    assert.deepStrictEqual(resultsByKey(evaluation).get("missing")!.reason, {
      code: "missing_dependency",
      condition_index: null,
      description: "Flag cannot be evaluated due to missing dependency"
    })
    assert.deepStrictEqual(resultsByKey(evaluation).get("on-missing")!.reason.code, "missing_dependency")
    assert.isFalse(evaluate([fine]).errorsWhileComputingFlags)
  })

  it("a condition on a flag that cannot be evaluated locally still lets a later condition decide, as the SDK does", () => {
    const missing = flagOf("later", {
      groups: [
        { properties: [{ key: "424242", type: "flag", operator: "flag_evaluates_to", value: false }], rollout_percentage: 100 },
        { properties: [], rollout_percentage: 100 }
      ]
    })
    assert.deepStrictEqual([one(missing).enabled, one(missing).reason.condition_index], [true, 1])
  })

  it("evaluates the dependencies of the flags asked for, without answering them", () => {
    const base = flagOf("base", { groups: [{ properties: [], rollout_percentage: 100 }] })
    const evaluation = evaluate([base, dependsOn("dependent", base)], { only: ["dependent"] })
    assert.deepStrictEqual([...resultsByKey(evaluation).keys()], ["dependent"])
    assert.isTrue(resultsByKey(evaluation).get("dependent")!.enabled)
  })

  it("a super group on its own flag, or two on each other, read once: off, with no error reported", () => {
    // No condition names a flag here, so only the super groups make the project's flags read one another.
    const superOn = (key: string, id: number, target: number): EvaluatedFlag => ({
      ...flagOf(key, {
        groups: [{ properties: [], rollout_percentage: 100 }],
        super_groups: [{ properties: [{ key: String(target), type: "flag", operator: "flag_evaluates_to", value: true }], rollout_percentage: 100 }]
      }, { ensure_experience_continuity: true }),
      id: id as FeatureFlagId
    })
    const person_properties = { "9001": true, "9002": true, "9003": true }
    const itself = evaluate([superOn("itself", 9001, 9001)], { person_properties })
    const pair = evaluate([superOn("one", 9002, 9003), superOn("other", 9003, 9002)], { person_properties })
    for (const evaluation of [itself, pair]) {
      assert.isFalse(evaluation.errorsWhileComputingFlags)
      for (const result of resultsByKey(evaluation).values()) assert.deepStrictEqual([result.enabled, result.reason.code], [false, "super_condition_value"])
    }
    assert.strictEqual(resultsByKey(pair).size, 2)
  })
})

describe("evaluation of cohorts", () => {
  const cohortOf = (id: number, fields: Partial<Cohort>): Cohort => ({
    id: id as CohortId,
    project_id: 1 as ProjectId,
    name: `cohort ${id}`,
    description: "",
    groups: [],
    filters: {},
    is_static: false,
    is_calculating: false,
    count: null,
    created_by_id: null,
    created_at: timestampFromDate(new Date("2026-01-01T00:00:00Z")),
    deleted: false,
    ...fields
  })
  const definitions = cohortDefinitions([
    cohortOf(1, { filters: { properties: { type: "OR", values: [{ type: "AND", values: [{ key: "email", type: "person", operator: "icontains", value: "@example" }] }] } } }),
    cohortOf(2, { filters: { properties: { type: "AND", values: [{ type: "AND", values: [{ key: "id", type: "cohort", value: 1 }, { key: "country", type: "person", value: "US", negation: true }] }] } } }),
    cohortOf(3, { groups: [{ properties: [{ key: "plan", type: "person", value: "pro" }] }] }),
    cohortOf(4, { is_static: true }),
    cohortOf(5, { deleted: true, filters: { properties: { type: "AND", values: [] } } })
  ])
  const inCohort = (id: number, person_properties: JsonRecord, operator?: string) =>
    one(
      flagOf("cohort-flag", { groups: [{ properties: [{ key: "id", type: "cohort", value: id, ...(operator === undefined ? {} : { operator }) }], rollout_percentage: 100 }] }),
      { person_properties },
      definitions
    ).enabled

  it("gives posthog-node the dynamic, live cohorts: their filters, or legacy groups as an OR of ANDs", () => {
    assert.deepStrictEqual([...definitions.keys()], ["1", "2", "3"])
    assert.deepStrictEqual(definitions.get("3"), { type: "OR", values: [{ type: "AND", values: [{ key: "plan", type: "person", value: "pro" }] }] })
  })

  it("a dynamic cohort holds whoever its definition matches, nested cohorts and negations included", () => {
    assert.isTrue(inCohort(1, { email: "ann@example.com" }))
    assert.isFalse(inCohort(1, { email: "ann@test.io" }))
    assert.isTrue(inCohort(1, { email: "ann@test.io" }, "not_in"))
    assert.isTrue(inCohort(2, { email: "ann@example.com", country: "CA" }))
    assert.isFalse(inCohort(2, { email: "ann@example.com", country: "US" }))
    assert.isTrue(inCohort(3, { plan: "pro" }))
  })

  it("a static or unknown cohort has no members", () => {
    assert.isFalse(inCohort(4, { email: "ann@example.com" }))
    assert.isTrue(inCohort(4, {}, "not_in"))
    assert.isFalse(inCohort(99, {}))
  })

  it("cohorts that contain each other end, as no match", () => {
    const loop: CohortDefinitions = new Map([
      ["7", { type: "AND", values: [{ key: "id", type: "cohort", value: 8 }] }],
      ["8", { type: "OR", values: [{ key: "id", type: "cohort", value: 7 }, { key: "id", type: "cohort", value: 7 }] }]
    ])
    const flag = flagOf("loop", { groups: [{ properties: [{ key: "id", type: "cohort", value: 7 }], rollout_percentage: 100 }] })
    assert.isFalse(one(flag, {}, loop).enabled)
  })

  it("a cohort the SDK lacks leaves the whole flag to the service, whose first matching condition wins", () => {
    const flag = flagOf("static", {
      groups: [
        { properties: [{ key: "id", type: "cohort", value: 4, operator: "not_in" }], rollout_percentage: 100, variant: "a" },
        { properties: [], rollout_percentage: 100, variant: "b" }
      ],
      multivariate: { variants: [{ key: "a", rollout_percentage: 50 }, { key: "b", rollout_percentage: 50 }] }
    })
    assert.deepStrictEqual(one(flag, {}, definitions).variant, "a")
  })
})

describe("evaluation results", () => {
  it("answers each flag once per evaluation, by key in the project's order", () => {
    const flags = ["z", "a", "m"].map((key) => flagOf(key, { groups: [{ properties: [], rollout_percentage: 100 }] }))
    const prepared: PreparedFlags = prepareFlags(flags)
    const evaluation = evaluateFlags(prepared, { distinct_id: "u" })
    assert.deepStrictEqual([...resultsByKey(evaluation).keys()], ["z", "a", "m"])
    assert.deepStrictEqual([...resultsByKey(evaluation).values()].map(valueOf), [true, true, true])
  })
})

describe("values JavaScript cannot render as text", () => {
  // JSON allows an object whose `toString` is not a function; String() of it throws.
  const unrenderable = JSON.parse("{\"toString\": \"x\", \"valueOf\": 1}") as unknown

  it("are compared as the service reads them, the SDK leaving them to it: no request fails on them", () => {
    const contains = flagOf("contains", { groups: [{ properties: [{ key: "email", type: "person", operator: "icontains", value: "x" }], rollout_percentage: 100 }] })
    const plain = flagOf("plain", { groups: [{ properties: [], rollout_percentage: 100 }] })
    const evaluation = evaluate([contains, plain], { person_properties: { email: unrenderable } })
    // The service renders the object as JSON text, which contains "x".
    assert.deepStrictEqual([...resultsByKey(evaluation).values()].map(valueOf), [true, true])
    assert.isFalse(evaluation.errorsWhileComputingFlags)
  })

  it("as a group key leave a group flag to the service, which finds no group by such a key", () => {
    const flag = flagOf("group", { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 100 }] })
    const result = one(flag, { groups: { company: unrenderable } })
    assert.deepStrictEqual([result.enabled, result.reason.code], [false, "no_group_type"])
  })

  it("in a flag's own filters fail that flag alone, reported as an error while computing flags", () => {
    const broken = flagOf("broken", {
      groups: [{ properties: [{ key: unrenderable, type: "person", operator: "icontains", value: "x" }], rollout_percentage: 100 }]
    })
    const plain = flagOf("fine", { groups: [{ properties: [], rollout_percentage: 100 }] })
    const evaluation = evaluate([broken, plain])
    assert.deepStrictEqual([...resultsByKey(evaluation).keys()], ["fine"])
    assert.isTrue(evaluation.errorsWhileComputingFlags)
  })
})
