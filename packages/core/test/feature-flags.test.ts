import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { changesBetween } from "../src/activity/changes.ts"
import { canManageRoles, editableBy, editRightsOf, editsEveryFlag, needsRoles } from "../src/feature-flags/access/edit-rights.ts"
import { conditionsOf, parseConditions } from "../src/feature-flags/conditions.ts"
import { fullRolloutOf, isMultivariate, isSimpleFlag, rolloutPercentageOf } from "../src/feature-flags/derived.ts"
import { dependencyError } from "../src/feature-flags/management/dependencies.ts"
import { conditionRulesError, payloadsError, propertyTypesError, regexRulesError } from "../src/feature-flags/management/filter-rules.ts"
import { keyCharactersError, originalKeyOf, tombstoneKey } from "../src/feature-flags/management/key.ts"
import { archivePlan, isArchiveQuery, listPlan } from "../src/feature-flags/management/list-query.ts"
import type { DependencyNode } from "../src/feature-flags/repository.ts"
import { statusOf } from "../src/feature-flags/status.ts"
import type { FeatureFlagId, UserId } from "../src/shared/ids.ts"
import { pageNumberRequest, toNumberedEnvelope } from "../src/shared/page.ts"
import { ValidationError } from "../src/shared/errors.ts"
import { pythonStr } from "../src/shared/validation.ts"

type Filters = Readonly<Record<string, unknown>>

const filtersError = (detail: string, code = "invalid_input") => ({ code, detail, attr: "filters" })
const asPlain = (error: ValidationError | undefined) =>
  error === undefined ? undefined : { code: error.code, detail: error.detail, attr: error.attr }

/** Every rule of validate_filters that needs no stored data, in PostHog's order. */
const rulesError = (filters: Filters, cohorts = new Map<number, { name: string | null; behavioral: boolean }>()) => {
  const result = parseConditions(filters)
  if (result instanceof ValidationError) return asPlain(result)
  return asPlain(propertyTypesError(result) ?? conditionRulesError(result, cohorts) ?? payloadsError(result))
}

const group = (properties: ReadonlyArray<object> = [], rollout_percentage: unknown = 100, variant?: string) => ({
  properties,
  rollout_percentage,
  ...(variant === undefined ? {} : { variant })
})
const person = (key: string, value: unknown, operator = "exact") => ({ key, value, operator, type: "person" })
const variants = (...pairs: ReadonlyArray<[string, number]>) => ({
  variants: pairs.map(([key, rollout_percentage]) => ({ key, rollout_percentage }))
})

describe("flag keys", () => {
  it("allow letters, digits, hyphens and underscores only", () => {
    assert.strictEqual(keyCharactersError("Beta_flag-2"), undefined)
    assert.deepStrictEqual(asPlain(keyCharactersError("with space")), {
      code: "invalid_key",
      detail: "Only letters, numbers, hyphens (-) & underscores (_) are allowed.",
      attr: "key"
    })
  })
  it("tombstones carry the flag id and give the original key back", () => {
    assert.strictEqual(tombstoneKey("beta", 7), "beta:deleted:7")
    assert.strictEqual(originalKeyOf("beta:deleted:7", 7), "beta")
    assert.strictEqual(originalKeyOf("beta:deleted:7", 8), "beta:deleted:7")
    assert.strictEqual(originalKeyOf("beta", 7), "beta")
  })
})

describe("filters validation, as PostHog validates filters", () => {
  it("accepts PostHog's shapes: open, with properties, multivariate with payloads, group-aggregated", () => {
    assert.strictEqual(rulesError({ groups: [] }), undefined)
    assert.strictEqual(rulesError({ groups: [group([person("email", "a@b.c")], 50)] }), undefined)
    assert.strictEqual(
      rulesError({
        groups: [group([], 100, "test")],
        multivariate: variants(["control", 50], ["test", 50]),
        payloads: { control: "{\"a\": 1}", test: 5 }
      }),
      undefined
    )
    assert.strictEqual(
      rulesError({ aggregation_group_type_index: 0, groups: [group([{ key: "name", value: "x", type: "group", group_type_index: 0 }])] }),
      undefined
    )
  })

  it("refuses shapes PostHog would crash on, with messages in its style", () => {
    assert.deepStrictEqual(rulesError({}), filtersError("Filters are not valid (groups must be a list of objects)"))
    assert.deepStrictEqual(rulesError({ groups: [1] }), filtersError("Filters are not valid (groups must be a list of objects)"))
    assert.deepStrictEqual(rulesError({ groups: [{ properties: {} }] }), filtersError("Filters are not valid (properties must be a list of objects)"))
    assert.deepStrictEqual(rulesError({ groups: [{ properties: [{ value: 1 }] }] }), filtersError("Filters are not valid (every property needs a key)"))
    assert.deepStrictEqual(rulesError({ groups: [{ multivariate: null }], multivariate: [] }), filtersError("Filters are not valid (multivariate must be an object with a list of variants)"))
    assert.deepStrictEqual(rulesError({ groups: [], multivariate: { variants: [{ rollout_percentage: 100 }] } }), filtersError("Filters are not valid (every variant needs a key)"))
  })

  it("keeps rollout percentages within 0-100", () => {
    const range = filtersError("Filters are not valid (rollout_percentage must be a number between 0 and 100)")
    assert.deepStrictEqual(rulesError({ groups: [group([], 101)] }), range)
    assert.deepStrictEqual(rulesError({ groups: [group([], -1)] }), range)
    assert.deepStrictEqual(rulesError({ groups: [group([], "50")] }), range)
    assert.strictEqual(rulesError({ groups: [group([], null)] }), undefined)
    assert.strictEqual(rulesError({ groups: [group([], 0)] }), undefined)
  })

  it("allows person, cohort and flag properties on person flags, one group type on group flags", () => {
    assert.deepStrictEqual(
      rulesError({ groups: [group([{ key: "$browser", value: "x", type: "event" }])] }),
      filtersError("Filters are not valid (can only use person, cohort, and flag properties)")
    )
    // PostHog's Property takes a missing type for `event`.
    assert.deepStrictEqual(
      rulesError({ groups: [group([{ key: "email", value: "x" }])] }),
      filtersError("Filters are not valid (can only use person, cohort, and flag properties)")
    )
    assert.deepStrictEqual(
      rulesError({ groups: [group([{ key: "1", value: "true", type: "flag", operator: "exact" }])] }),
      filtersError("Flag properties must use the 'flag_evaluates_to' operator")
    )
    assert.deepStrictEqual(
      rulesError({ aggregation_group_type_index: 0, groups: [group([{ key: "name", value: "x", type: "group", group_type_index: 1 }])] }),
      filtersError("Filters are not valid (can only use group properties)")
    )
  })

  it("checks variants, overrides, value lists, cohorts, dates and operators in PostHog's order", () => {
    assert.deepStrictEqual(
      rulesError({ groups: [], multivariate: variants(["a", 50], ["b", 40]) }),
      filtersError("Invalid variant definitions: Variant rollout percentages must sum to 100.")
    )
    assert.deepStrictEqual(
      rulesError({ groups: [group([], 100, "c")], multivariate: variants(["a", 50], ["b", 50]) }),
      filtersError("Filters are not valid (variant override does not exist)")
    )
    assert.deepStrictEqual(
      rulesError({ groups: [group([person("email", Array.from({ length: 1001 }, (_, i) => `${i}`), "exact")])] }),
      filtersError("Property group expressions of type email cannot contain more than 1000 values.")
    )
    assert.strictEqual(rulesError({ groups: [group([person("email", Array.from({ length: 1000 }, (_, i) => `${i}`))])] }), undefined)
    assert.deepStrictEqual(
      rulesError({ groups: [group([{ key: "id", value: 42, type: "cohort" }])] }),
      filtersError("Cohort with id 42 does not exist", "cohort_does_not_exist")
    )
    assert.deepStrictEqual(
      rulesError({ groups: [group([{ key: "id", value: 42, type: "cohort" }])] }, new Map([[42, { name: "Buyers", behavioral: true }]])),
      filtersError("Cohort 'Buyers' with filters on events cannot be used in feature flags.", "behavioral_cohort_found")
    )
    assert.strictEqual(
      rulesError({ groups: [group([{ key: "id", value: "42", type: "cohort" }])] }, new Map([[42, { name: "Buyers", behavioral: false }]])),
      undefined
    )
    assert.deepStrictEqual(
      rulesError({ groups: [group([person("signup", "not a date", "is_date_before")])] }),
      filtersError("Invalid date value: not a date", "invalid_date")
    )
    assert.strictEqual(rulesError({ groups: [group([person("signup", "-30d", "is_date_after")])] }), undefined)
    assert.strictEqual(rulesError({ groups: [group([person("signup", "2024-01-31", "is_date_after")])] }), undefined)
    assert.deepStrictEqual(
      rulesError({ groups: [group([person("age", 5, "gt")])] }),
      filtersError("Invalid value for operator gt: 5", "invalid_value")
    )
    assert.deepStrictEqual(
      rulesError({ groups: [group([person("email", ["a", "b"], "icontains")])] }),
      filtersError("Invalid value for operator icontains: ['a', 'b']", "invalid_value")
    )
  })

  it("checks payloads: an object of JSON values keyed by variant, or only \"true\" for booleans", () => {
    assert.deepStrictEqual(rulesError({ groups: [], payloads: [] }), filtersError("Payloads must be passed as a dictionary"))
    assert.deepStrictEqual(rulesError({ groups: [], payloads: { true: "{not json" } }), filtersError("Payload value is not valid JSON"))
    assert.deepStrictEqual(
      rulesError({ groups: [], payloads: { false: "1" } }),
      filtersError("Payload keys must be 'true' for boolean flags")
    )
    assert.deepStrictEqual(
      rulesError({ groups: [], multivariate: variants(["a", 100]), payloads: { b: "1" } }),
      filtersError("Payload keys must match a variant key for multivariate flags")
    )
    assert.strictEqual(rulesError({ groups: [], payloads: { true: { object: "kept" } } }), undefined)
  })

  it("checks last that each regex and not_regex pattern runs on RE2's engine", () => {
    const regexError = (filters: Filters) => {
      const result = parseConditions(filters)
      return result instanceof ValidationError ? asPlain(result) : asPlain(regexRulesError(result))
    }
    assert.deepStrictEqual(
      regexError({ groups: [group([person("email", "@x\\.com$", "regex")]), group([person("email", "(unclosed", "not_regex")])] }),
      filtersError("Invalid regex pattern: missing closing ): `(unclosed`", "invalid_value")
    )
    assert.deepStrictEqual(
      regexError({ groups: [group([person("email", "^(?!admin)", "regex")])] }),
      filtersError("Invalid regex pattern: invalid or unsupported Perl syntax: `(?!`", "invalid_value")
    )
    // Other operators take any text, and a value that is not text is the type rule's to refuse.
    assert.strictEqual(regexError({ groups: [group([person("email", "(unclosed", "icontains"), person("n", 5, "regex")])] }), undefined)
    assert.strictEqual(regexError({ groups: [group([person("email", "^(a+)+$", "regex")])] }), undefined)
  })

  it("prints values as Python's str() does", () => {
    assert.strictEqual(pythonStr(null), "None")
    assert.strictEqual(pythonStr(true), "True")
    assert.strictEqual(pythonStr(1.5), "1.5")
    assert.strictEqual(pythonStr({ a: [1, "x"] }), "{'a': [1, 'x']}")
  })
})

describe("flag dependencies", () => {
  const nodes: ReadonlyArray<DependencyNode> = [
    { id: 1, key: "one", active: true, filters: { groups: [] } },
    { id: 2, key: "two", active: true, filters: { groups: [group([{ key: "3", type: "flag", operator: "flag_evaluates_to", value: true }])] } },
    { id: 3, key: "three", active: true, filters: { groups: [group([{ key: "2", type: "flag", operator: "flag_evaluates_to", value: true }])] } },
    { id: 4, key: "off", active: false, filters: { groups: [] } }
  ]
  const queries: Array<ReadonlyArray<number>> = []
  const load = (ids: ReadonlyArray<number>) =>
    Effect.sync(() => {
      queries.push(ids)
      return nodes.filter((node) => ids.includes(node.id))
    })
  const dependingOn = (...keys: ReadonlyArray<unknown>) => ({
    groups: [group(keys.map((key) => ({ key, type: "flag", operator: "flag_evaluates_to", value: true })))]
  })
  const check = (filters: Filters, key = "new") => asPlain(Effect.runSync(dependencyError(conditionsOf(filters), key, load)))

  it("accepts dependencies on live, enabled flags and loads each level once", () => {
    queries.length = 0
    assert.strictEqual(check(dependingOn("1")), undefined)
    assert.deepStrictEqual(queries, [[1]])
  })
  it("refuses keys, unknown flags, disabled flags, self-reference and cycles with PostHog's messages", () => {
    assert.deepStrictEqual(
      check(dependingOn("one")),
      filtersError("Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: 'one'")
    )
    assert.deepStrictEqual(check(dependingOn(99)), filtersError("Flag dependency references non-existent flag with ID 99"))
    assert.deepStrictEqual(
      check(dependingOn(4)),
      filtersError("Cannot create dependency on disabled flag 'off' (ID: 4). Flag dependencies must reference active flags only.")
    )
    assert.deepStrictEqual(check(dependingOn(1), "one"), filtersError("Feature flag 'one' cannot depend on itself"))
    assert.deepStrictEqual(check(dependingOn(3), "two"), filtersError("Circular dependency detected: two → three → two"))
  })
})

describe("computed fields", () => {
  it("renders stored `{}` filters as PostHog's one open condition set", () => {
    assert.deepStrictEqual(conditionsOf({}).json, { groups: [{ properties: [], rollout_percentage: null }] })
    assert.isTrue(isSimpleFlag(conditionsOf({})))
    assert.strictEqual(rolloutPercentageOf(conditionsOf({})), null)
  })
  it("is_simple_flag: exactly one condition set without properties, not group-aggregated", () => {
    assert.isTrue(isSimpleFlag(conditionsOf({ groups: [group([], 30)] })))
    assert.strictEqual(rolloutPercentageOf(conditionsOf({ groups: [group([], 30)] })), 30)
    assert.isFalse(isSimpleFlag(conditionsOf({ groups: [group([], 30), group([], 40)] })))
    assert.isFalse(isSimpleFlag(conditionsOf({ groups: [group([person("email", "x")], 30)] })))
    assert.isFalse(isSimpleFlag(conditionsOf({ groups: [group([], 30)], aggregation_group_type_index: 0 })))
    assert.strictEqual(rolloutPercentageOf(conditionsOf({ groups: [group([], 30), group([], 40)] })), null)
  })
  it("multivariate means at least one variant", () => {
    assert.isTrue(isMultivariate(conditionsOf({ groups: [], multivariate: variants(["a", 100]) })))
    assert.isFalse(isMultivariate(conditionsOf({ groups: [], multivariate: { variants: [] } })))
    assert.isFalse(isMultivariate(conditionsOf({ groups: [], multivariate: null })))
  })
})

describe("flag status, computed as PostHog computes it", () => {
  const now = Date.parse("2026-06-01T00:00:00Z")
  const old = "2026-04-01T00:00:00.000000Z"
  const recent = "2026-05-20T00:00:00.000000Z"
  const flag = (filters: Filters, overrides: object = {}) => ({ deleted: false, active: true, filters, created_at: old, ...overrides })

  it("deleted, then disabled, come first", () => {
    assert.deepStrictEqual(statusOf(flag({}, { deleted: true, active: false }), now, null), { status: "deleted", reason: "Flag has been deleted" })
    assert.deepStrictEqual(statusOf(flag({}, { active: false }), now, null), { status: "inactive", reason: "Flag is disabled" })
  })
  it("stale: fully rolled out for more than 30 days, with PostHog's reasons", () => {
    assert.deepStrictEqual(statusOf(flag({ groups: [group([], 100)] }), now, null), {
      status: "stale",
      reason: "This boolean flag will always evaluate to \"true\""
    })
    assert.deepStrictEqual(statusOf(flag({}), now, null).status, "stale")
    assert.deepStrictEqual(statusOf(flag({ groups: [group([], 100)], multivariate: variants(["a", 0], ["b", 100]) }), now, null), {
      status: "stale",
      reason: "This flag will always use the variant \"b\""
    })
    assert.deepStrictEqual(
      statusOf(flag({ groups: [group([], 100, "a")], multivariate: variants(["a", 50], ["b", 50]) }), now, null).reason,
      "This flag will always use the variant \"a\""
    )
  })
  it("active otherwise, before any call saying it has no usage yet: not old enough (even at 100 % of everyone), partly rolled out, or rolled out only under conditions", () => {
    const active = { status: "active", reason: "Flag has no usage data yet" }
    assert.deepStrictEqual(statusOf(flag({ groups: [group([], 100)] }, { created_at: recent }), now, null), active)
    assert.deepStrictEqual(statusOf(flag({ groups: [group([], 99)] }), now, null), active)
    assert.deepStrictEqual(statusOf(flag({ groups: [group([person("email", "x")], 100)] }), now, null), active)
    assert.deepStrictEqual(statusOf(flag({ groups: [group([], 100)], multivariate: variants(["a", 50], ["b", 50]) }), now, null), active)
    assert.strictEqual(fullRolloutOf(conditionsOf({ groups: [group([], null)] })), null)
  })
  it("by its calls once it has been called: stale after 30 days without one, whatever its rollout; in use, and since when, before", () => {
    const day = 24 * 60 * 60 * 1000
    const rolledOut = flag({ groups: [group([], 100)] })
    const partial = flag({ groups: [group([], 40)] })
    assert.deepStrictEqual(statusOf(rolledOut, now, now - 2 * 60 * 60 * 1000), { status: "active", reason: "Flag was called today" })
    assert.deepStrictEqual(statusOf(rolledOut, now, now - day), { status: "active", reason: "Flag was last called 1 day ago" })
    assert.deepStrictEqual(statusOf(partial, now, now - 30 * day), { status: "active", reason: "Flag was last called 30 days ago" })
    assert.deepStrictEqual(statusOf(partial, now, now - 30 * day - 1), { status: "stale", reason: "Flag has not been called in 30 days" })
    assert.deepStrictEqual(statusOf(rolledOut, now, now - 45 * day), { status: "stale", reason: "Flag has not been called in 45 days" })
    // A disabled or deleted flag says so, called or not.
    assert.deepStrictEqual(statusOf(flag({}, { active: false }), now, now - 45 * day).status, "inactive")
  })
})

describe("flag edit rights, by PostHog's rules for flags outside its newer access-control system", () => {
  const me = 7 as UserId
  const mine = { id: 1 as FeatureFlagId, created_by_id: me }
  const theirs = { id: 2 as FeatureFlagId, created_by_id: 8 as UserId }
  const granted = { id: 3 as FeatureFlagId, created_by_id: 8 as UserId }
  const member = { user: me, level: 1 as const }
  const viewer = [{ level: 21 as const, flags: [granted.id] }]

  it("admins, owners and creators always edit; roles are not even read for them", () => {
    assert.isTrue(editableBy({ user: me, level: 8 }, viewer)(theirs))
    assert.isTrue(editableBy(member, viewer)(mine))
    assert.isFalse(needsRoles({ user: me, level: 15 }, [theirs]))
    assert.isFalse(needsRoles(member, [mine]))
    assert.isTrue(needsRoles(member, [mine, theirs]))
  })
  it("no roles is the organization default, can always edit; 37 edits all; 21 only granted flags", () => {
    assert.isTrue(editableBy(member, [])(theirs))
    assert.isTrue(editableBy(member, [...viewer, { level: 37, flags: [] }])(theirs))
    assert.isFalse(editableBy(member, viewer)(theirs))
    assert.isTrue(editableBy(member, viewer)(granted))
  })
  it("role access is managed by admins, creators and always-edit members, not by members a grant lets edit", () => {
    assert.isFalse(canManageRoles(member, viewer, granted))
    assert.isTrue(canManageRoles(member, viewer, mine))
    assert.isTrue(canManageRoles(member, [], theirs))
  })
  it("the project's flags as a whole: administrators, and members whose roles can always edit; a grant or a flag of their own is not enough", () => {
    assert.isTrue(editsEveryFlag({ user: null, level: 1 }, viewer))
    assert.isTrue(editsEveryFlag({ user: me, level: 8 }, viewer))
    assert.isTrue(editsEveryFlag(member, []))
    assert.isFalse(editsEveryFlag(member, viewer))
  })
  it("one rights value answers every question of a request from the same roles", () => {
    const rights = editRightsOf(member, viewer)
    assert.deepStrictEqual([mine, theirs, granted].map(rights.canEdit), [true, false, true])
    assert.deepStrictEqual([mine, theirs, granted].map(rights.canManageRoles), [true, false, false])
  })
})

describe("activity changes", () => {
  it("are created from empty, deleted to empty, changed otherwise; equal JSON is no change", () => {
    const fields = ["name", "filters", "tags", "active"] as const
    const changes = changesBetween(
      "FeatureFlag",
      fields,
      { name: "", filters: { a: 1, b: [1] }, tags: ["x"], active: true },
      { name: "named", filters: { b: [1], a: 1 }, tags: [], active: false }
    )
    assert.deepStrictEqual(changes, [
      { type: "FeatureFlag", action: "created", field: "name", before: null, after: "named" },
      { type: "FeatureFlag", action: "deleted", field: "tags", before: ["x"], after: null },
      { type: "FeatureFlag", action: "changed", field: "active", before: true, after: false }
    ])
  })
  it("pages by number with absolute links carrying page and limit", () => {
    assert.deepStrictEqual(pageNumberRequest({}), { page: 1, limit: 10 })
    assert.deepStrictEqual(pageNumberRequest({ page: "x", limit: "0" }), { page: 1, limit: 10 })
    const envelope = toNumberedEnvelope({ total_count: 25, results: [], request: { page: 2, limit: 10 } }, "http://h/api/a/?x=1")
    assert.deepStrictEqual([envelope.next, envelope.previous], ["http://h/api/a/?x=1&page=3&limit=10", "http://h/api/a/?x=1&page=1&limit=10"])
  })
})

describe("list query", () => {
  const now = Date.parse("2026-06-01T00:00:00Z")
  it("reads PostHog's parameters leniently and plans nothing for what cannot match", () => {
    assert.deepStrictEqual(listPlan({ type: "experiment" }, now), { _tag: "Empty" })
    assert.deepStrictEqual(listPlan({ created_by_id: "abc" }, now), { _tag: "Empty" })
    const plan = listPlan({ active: "no", tags: "[\"a\", 3]", order: "-key", type: "multivariant" }, now)
    assert.strictEqual(plan._tag, "Query")
    if (plan._tag !== "Query") return
    assert.deepStrictEqual(
      [plan.filter.active, plan.filter.tags, plan.filter.order, plan.filter.multivariate],
      [false, ["a"], { field: "key", descending: true }, true]
    )
    const fallback = listPlan({ order: "filters", tags: "not json", active: "STALE" }, now)
    assert.isTrue(fallback._tag === "Query" && fallback.filter.order.field === "created_at" && fallback.filter.tags === null)
    assert.isTrue(fallback._tag === "Query" && fallback.filter.staleAt === now && fallback.filter.active === null)
  })
  it("asks for the archive with deleted=true only, searched by its search alone; text holding NUL finds nothing", () => {
    assert.isTrue(isArchiveQuery({ deleted: "true" }))
    for (const deleted of [undefined, "false", "1", "TRUE", ""]) assert.isFalse(isArchiveQuery({ deleted }), String(deleted))
    assert.deepStrictEqual(archivePlan({ deleted: "true", search: "Banner", active: "false", order: "key" }), { _tag: "Archive", search: "Banner" })
    assert.deepStrictEqual(archivePlan({ deleted: "true", search: "" }), { _tag: "Archive", search: null })
    assert.deepStrictEqual(archivePlan({ deleted: "true" }), { _tag: "Archive", search: null })
    assert.deepStrictEqual(archivePlan({ deleted: "true", search: "a\u0000" }), { _tag: "Empty" })
  })
})
