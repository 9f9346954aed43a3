import assert from "node:assert/strict"
import {
  createFlag,
  FLAGS,
  getFlag,
  patchFlag,
  personProperty,
  projectOf,
  rolledOut,
  uniqueKey
} from "./feature-flags-support.ts"
import { expectReply, invalid, needWorld, type Scenario } from "./scenario.ts"

type Invalid = ReturnType<typeof invalid>
const filtersError = (detail: string, code = "invalid_input") => invalid("filters", detail, code)

/** Body fields other than `filters`: DRF's field messages, then the key rules in PostHog's order (§4). */
const fieldCases = (taken: string): ReadonlyArray<readonly [string, unknown, Invalid]> => [
  ["no key", { name: "x" }, invalid("key", "This field is required.", "required")],
  ["a null key", { key: null }, invalid("key", "This field may not be null.", "null")],
  ["a blank key", { key: "" }, invalid("key", "This field may not be blank.", "blank")],
  ["a key that is not text", { key: true }, invalid("key", "Not a valid string.")],
  ["a key of 401 characters", { key: "k".repeat(401) }, invalid("key", "Ensure this field has no more than 400 characters.", "max_length")],
  ["a key of 401 bad characters (length is checked first)", { key: "!".repeat(401) }, invalid("key", "Ensure this field has no more than 400 characters.", "max_length")],
  ["the key of a live flag", { key: taken }, invalid("key", "There is already a feature flag with this key.", "unique")],
  ["a key with a space", { key: "has space" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
  ["a key with dots", { key: "a.b" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
  ["a key with accents", { key: "été" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
  ["a key with a NUL character", { key: "a\u0000b" }, invalid("key", "Null characters are not allowed.", "null_characters_not_allowed")],
  ["a name that is not text", { key: uniqueKey("n"), name: ["x"] }, invalid("name", "Not a valid string.")],
  ["an unknown creation_context", { key: uniqueKey("c"), creation_context: "nope" }, invalid("creation_context", "\"nope\" is not a valid choice.", "invalid_choice")],
  ["an unknown evaluation_runtime", { key: uniqueKey("r"), evaluation_runtime: "edge" }, invalid("evaluation_runtime", "\"edge\" is not a valid choice.", "invalid_choice")],
  ["active that is no boolean", { key: uniqueKey("a"), active: "maybe" }, invalid("active", "Must be a valid boolean.")],
  ["tags that are not a list", { key: uniqueKey("t"), tags: "beta" }, invalid("tags", "Expected a list of items but got type \"str\".", "not_a_list")],
  ["filters that are a list", { key: uniqueKey("f"), filters: [] }, invalid("filters", "Expected a dictionary of items but got type \"list\".", "not_a_dict")],
  ["filters that are text", { key: uniqueKey("f"), filters: "all" }, invalid("filters", "Expected a dictionary of items but got type \"str\".", "not_a_dict")],
  ["a body that is a list", [{ key: "x" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
]

const group = (properties: ReadonlyArray<unknown>, extra: object = {}) => ({ properties, rollout_percentage: 100, ...extra })
const variants = (...percentages: ReadonlyArray<number>) => ({
  variants: percentages.map((rollout_percentage, i) => ({ key: `v${i}`, name: `Variant ${i}`, rollout_percentage }))
})
const flagProperty = (key: string, operator = "flag_evaluates_to") => ({ key, value: true, operator, type: "flag" })

/** `validate_filters` of §4, one rule per row; all answer `attr: "filters"`. */
const filterCases: ReadonlyArray<readonly [string, unknown, Invalid]> = [
  [
    "an event property on a person flag",
    { groups: [group([{ key: "$browser", value: "Chrome", operator: "exact", type: "event" }])] },
    filtersError("Filters are not valid (can only use person, cohort, and flag properties)")
  ],
  [
    "a group property on a person flag",
    { groups: [group([{ key: "name", value: "Acme", operator: "exact", type: "group", group_type_index: 0 }])] },
    filtersError("Filters are not valid (can only use person, cohort, and flag properties)")
  ],
  [
    "a person property on a group flag",
    { aggregation_group_type_index: 0, groups: [group([personProperty("email", "a@b.c")])] },
    filtersError("Filters are not valid (can only use group properties)")
  ],
  [
    "a property of another group type on a group flag",
    { aggregation_group_type_index: 0, groups: [group([{ key: "name", value: "Acme", operator: "exact", type: "group", group_type_index: 1 }])] },
    filtersError("Filters are not valid (can only use group properties)")
  ],
  [
    "a flag property with another operator than flag_evaluates_to",
    { groups: [group([flagProperty("1", "exact")])] },
    filtersError("Flag properties must use the 'flag_evaluates_to' operator")
  ],
  [
    "a flag dependency named by key",
    { groups: [group([flagProperty("some-flag-key")])] },
    filtersError("Flag dependencies must reference flag IDs (integers), not flag keys. Invalid reference: 'some-flag-key'")
  ],
  [
    "a flag dependency on an unknown id",
    { groups: [group([flagProperty("999999")])] },
    filtersError("Flag dependency references non-existent flag with ID 999999")
  ],
  [
    "variants summing to 90",
    { groups: [group([])], multivariate: variants(50, 40) },
    filtersError("Invalid variant definitions: Variant rollout percentages must sum to 100.")
  ],
  [
    "variants summing to 110",
    { groups: [group([])], multivariate: variants(60, 50) },
    filtersError("Invalid variant definitions: Variant rollout percentages must sum to 100.")
  ],
  [
    "a variant override that names no variant",
    { groups: [group([], { variant: "ghost" })], multivariate: variants(50, 50) },
    filtersError("Filters are not valid (variant override does not exist)")
  ],
  [
    "a variant override on a flag without variants",
    { groups: [group([], { variant: "v0" })] },
    filtersError("Filters are not valid (variant override does not exist)")
  ],
  [
    "a property with 1001 values",
    { groups: [group([personProperty("email", Array.from({ length: 1001 }, (_, i) => `u${i}@example.com`))])] },
    filtersError("Property group expressions of type email cannot contain more than 1000 values.")
  ],
  [
    "a cohort that does not exist",
    { groups: [group([{ key: "id", value: 999999, operator: "in", type: "cohort" }])] },
    filtersError("Cohort with id 999999 does not exist", "cohort_does_not_exist")
  ],
  [
    "is_date_before with no date",
    { groups: [group([personProperty("signed_up", "not a date", "is_date_before")])] },
    filtersError("Invalid date value: not a date", "invalid_date")
  ],
  [
    "is_date_after with no date",
    { groups: [group([personProperty("signed_up", "soon", "is_date_after")])] },
    filtersError("Invalid date value: soon", "invalid_date")
  ],
  ...["regex", "icontains", "not_regex", "not_icontains", "gt", "gte", "lt", "lte"].map((operator): readonly [string, unknown, Invalid] => [
    `a number for operator ${operator}`,
    { groups: [group([personProperty("age", 5, operator)])] },
    filtersError(`Invalid value for operator ${operator}: 5`, "invalid_value")
  ]),
  ["payloads that are a list", { groups: [group([])], payloads: ["x"] }, filtersError("Payloads must be passed as a dictionary")],
  ["a payload that is not JSON", { groups: [group([])], payloads: { true: "{not json" } }, filtersError("Payload value is not valid JSON")],
  [
    "a payload for no variant",
    { groups: [group([])], multivariate: variants(50, 50), payloads: { v0: "1", ghost: "2" } },
    filtersError("Payload keys must match a variant key for multivariate flags")
  ],
  ["a boolean flag payload under another key than true", { groups: [group([])], payloads: { false: "1" } }, filtersError("Payload keys must be 'true' for boolean flags")],
  ["a boolean flag with two payloads", { groups: [group([])], payloads: { true: "1", other: "2" } }, filtersError("Payload keys must be 'true' for boolean flags")]
]

export const featureFlagValidationScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag create refuses each bad field with 400 and DRF's or PostHog's exact message",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const taken = (await createFlag(target, at, { key: uniqueKey("taken") })).key
      for (const [label, body, error] of fieldCases(taken)) {
        const reply = await target.call(FLAGS.create, { key: at.key, params: { project_id: at.project }, body })
        assert.deepEqual({ status: reply.status, body: reply.body }, { status: 400, body: error }, label)
      }
    }
  },
  {
    name: "a flag key of exactly 400 allowed characters is accepted",
    run: async (context) => {
      const { target, primary } = context
      const key = `${uniqueKey("long")}_`.padEnd(400, "x")
      const flag = await createFlag(target, { key: primary.key, project: projectOf(context) }, { key })
      assert.equal(flag.key.length, 400)
    }
  },
  {
    name: "flag create refuses each filters rule with 400, attr filters and PostHog's message",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      for (const [label, filters, error] of filterCases) {
        const reply = await target.call(FLAGS.create, { key: at.key, params: { project_id: at.project }, body: { key: uniqueKey("filters"), filters } })
        assert.deepEqual({ status: reply.status, body: reply.body }, { status: 400, body: error }, label)
      }
    }
  },
  {
    name: "a flag rollout percentage outside 0-100 or not a number is refused on filters",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      // The issue asks for the range; PostHog has no message for it, so only the envelope is fixed here.
      for (const percentage of [101, -1, "half"]) {
        const reply = await target.call(FLAGS.create, { key: at.key, params: { project_id: at.project }, body: { key: uniqueKey("range"), filters: rolledOut(percentage as number) } })
        expectReply(reply, 400)
        assert.deepEqual([reply.body.type, reply.body.attr], ["validation_error", "filters"], `rollout ${percentage}`)
        assert.equal(typeof reply.body.detail, "string")
      }
      for (const percentage of [0, 100, 33.5]) {
        const flag = await createFlag(target, at, { key: uniqueKey("range-ok"), filters: rolledOut(percentage) })
        assert.equal(flag.rollout_percentage, percentage)
      }
    }
  },
  {
    name: "PATCH applies the same key and filters rules and leaves the flag unchanged when refused",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const other = await createFlag(target, at, { key: uniqueKey("other") })
      const flag = await createFlag(target, at, { key: uniqueKey("guarded"), filters: rolledOut(10) })
      const cases: ReadonlyArray<readonly [unknown, Invalid]> = [
        [{ key: other.key }, invalid("key", "There is already a feature flag with this key.", "unique")],
        [{ key: "no spaces please" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
        [{ key: "" }, invalid("key", "This field may not be blank.", "blank")],
        [{ filters: { groups: [group([])], multivariate: variants(10, 10) } }, filtersError("Invalid variant definitions: Variant rollout percentages must sum to 100.")],
        [{ name: "renamed", filters: { groups: [group([], { variant: "ghost" })] } }, filtersError("Filters are not valid (variant override does not exist)")],
        [{ version: "x" }, invalid("version", "A valid integer is required.")]
      ]
      for (const [body, error] of cases) {
        expectReply(await patchFlag(target, at, flag.id, body), 400, error)
      }
      expectReply(await getFlag(target, at, flag.id), 200, flag)
    }
  },
  {
    name: "flag dependencies: no self-reference, no cycle, only live and enabled flags of the project",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const b = await createFlag(target, at, { key: uniqueKey("dep-b") })
      const a = await createFlag(target, at, { key: uniqueKey("dep-a"), filters: { groups: [group([flagProperty(String(b.id))])] } })
      expectReply(
        await patchFlag(target, at, a.id, { filters: { groups: [group([flagProperty(String(a.id))])] } }),
        400,
        filtersError(`Feature flag '${a.key}' cannot depend on itself`)
      )
      expectReply(
        await patchFlag(target, at, b.id, { filters: { groups: [group([flagProperty(String(a.id))])] } }),
        400,
        filtersError(`Circular dependency detected: ${b.key} → ${a.key} → ${b.key}`)
      )

      const disabled = await createFlag(target, at, { key: uniqueKey("dep-off"), active: false })
      expectReply(
        await target.call(FLAGS.create, { key: at.key, params: { project_id: at.project }, body: { key: uniqueKey("dep-on-off"), filters: { groups: [group([flagProperty(String(disabled.id))])] } } }),
        400,
        filtersError(`Cannot create dependency on disabled flag '${disabled.key}' (ID: ${disabled.id}). Flag dependencies must reference active flags only.`)
      )
      const gone = await createFlag(target, at, { key: uniqueKey("dep-gone") })
      expectReply(await patchFlag(target, at, gone.id, { deleted: true }), 200)
      expectReply(
        await target.call(FLAGS.create, { key: at.key, params: { project_id: at.project }, body: { key: uniqueKey("dep-on-gone"), filters: { groups: [group([flagProperty(String(gone.id))])] } } }),
        400,
        filtersError(`Flag dependency references non-existent flag with ID ${gone.id}`)
      )
    }
  },
  {
    name: "a flag other active flags depend on can be neither soft-deleted nor disabled",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const base = await createFlag(target, at, { key: uniqueKey("base") })
      const dependent = await createFlag(target, at, { key: uniqueKey("dependent"), filters: { groups: [group([flagProperty(String(base.id))])] } })
      expectReply(
        await patchFlag(target, at, base.id, { deleted: true }),
        400,
        invalid(null, `Cannot delete this feature flag because other flags depend on it: ${dependent.key} (ID: ${dependent.id}). Please update or delete the dependent flags first.`)
      )
      expectReply(
        await patchFlag(target, at, base.id, { active: false }),
        400,
        invalid(null, `Cannot disable this feature flag because other flags depend on it: ${dependent.key} (ID: ${dependent.id}). Please update or disable the dependent flags first.`)
      )
      expectReply(await getFlag(target, at, base.id), 200, base)
      // Once the dependent flag is disabled, nothing active depends on the base any more.
      expectReply(await patchFlag(target, at, dependent.id, { active: false }), 200)
      expectReply(await patchFlag(target, at, base.id, { deleted: true }), 200)
    }
  },
  {
    name: "a flag dependency on another organization's flag is a non-existent flag",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const foreign = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("foreign-dep") })
      expectReply(
        await target.call(FLAGS.create, {
          key: world.keys.ownerA,
          params: { project_id: world.projectA },
          body: { key: uniqueKey("on-foreign"), filters: { groups: [group([flagProperty(String(foreign.id))])] } }
        }),
        400,
        filtersError(`Flag dependency references non-existent flag with ID ${foreign.id}`)
      )
    }
  }
]
