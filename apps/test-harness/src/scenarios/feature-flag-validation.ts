import assert from "node:assert/strict"
import {
  conditionGroup as group,
  createFlag,
  filtersError,
  flagProperty,
  getFlag,
  patchFlag,
  personProperty,
  postFlag,
  projectOf,
  rolledOut,
  uniqueKey,
  variants
} from "./feature-flags-support.ts"
import { expectReply, invalid, needWorld, type Scenario } from "./scenario.ts"

type Invalid = ReturnType<typeof invalid>

/** Body fields other than `filters`: PostHog's field messages, then the key rules in PostHog's order: length, uniqueness, characters. */
const fieldCases = (taken: string): ReadonlyArray<readonly [string, unknown, Invalid]> => [
  ["no key", { name: "x" }, invalid("key", "This field is required.", "required")],
  ["a null key", { key: null }, invalid("key", "This field may not be null.", "null")],
  ["a blank key", { key: "" }, invalid("key", "This field may not be blank.", "blank")],
  ["a key that is not text", { key: true }, invalid("key", "Not a valid string.")],
  ["a key of 401 characters", { key: "k".repeat(401) }, invalid("key", "Ensure this field has no more than 400 characters.", "max_length")],
  ["a key of 401 bad characters (length is checked first)", { key: "!".repeat(401) }, invalid("key", "Ensure this field has no more than 400 characters.", "max_length")],
  ["the key of a live flag", { key: taken }, invalid("key", "There is already a feature flag with this key.", "unique")],
  ["the key of a live flag with filters that are a list (uniqueness first)", { key: taken, filters: [] }, invalid("key", "There is already a feature flag with this key.", "unique")],
  // Whatever later field is wrong as well, and whichever store it is read from, the taken key is reported.
  ...([
    ["filters breaking a rule", { filters: { groups: [group([{ key: "$browser", value: "Chrome", operator: "exact", type: "event" }])] } }],
    ["a dependency on no flag", { filters: { groups: [group([flagProperty("999999")])] } }],
    ["a cohort that does not exist", { filters: { groups: [group([{ key: "id", value: 999999, operator: "in", type: "cohort" }])] } }],
    ["tags that are not a list", { tags: "beta" }],
    ["an analytics dashboard that does not exist", { analytics_dashboards: [999999] }],
    ["an unknown evaluation_runtime", { evaluation_runtime: "edge" }],
    ["no usage dashboard asked for", { _should_create_usage_dashboard: false }]
  ] as const).map(([label, rest]): readonly [string, unknown, Invalid] => [
    `the key of a live flag with ${label}`,
    { key: taken, ...rest },
    invalid("key", "There is already a feature flag with this key.", "unique")
  ]),
  ["a name that is not text with the key of a live flag (name is declared first)", { key: taken, name: ["x"] }, invalid("name", "Not a valid string.")],
  ["a key with a space", { key: "has space" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
  ["a key with dots", { key: "a.b" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
  ["a key with accents", { key: "été" }, invalid("key", "Only letters, numbers, hyphens (-) & underscores (_) are allowed.", "invalid_key")],
  ["a key with a NUL character", { key: "a\u0000b" }, invalid("key", "Null characters are not allowed.", "null_characters_not_allowed")],
  [
    "a regex that does not compile beside a dashboard that does not exist (whether it can be evaluated comes last)",
    { key: uniqueKey("rx"), filters: { groups: [group([personProperty("email", "(", "regex")])] }, analytics_dashboards: [999999] },
    invalid("analytics_dashboards", "Invalid pk \"999999\" - object does not exist.", "does_not_exist")
  ],
  ["a name that is not text", { key: uniqueKey("n"), name: ["x"] }, invalid("name", "Not a valid string.")],
  ["an unknown creation_context", { key: uniqueKey("c"), creation_context: "nope" }, invalid("creation_context", "\"nope\" is not a valid choice.", "invalid_choice")],
  ["an unknown evaluation_runtime", { key: uniqueKey("r"), evaluation_runtime: "edge" }, invalid("evaluation_runtime", "\"edge\" is not a valid choice.", "invalid_choice")],
  ["active that is no boolean", { key: uniqueKey("a"), active: "maybe" }, invalid("active", "Must be a valid boolean.")],
  ["tags that are not a list", { key: uniqueKey("t"), tags: "beta" }, invalid("tags", "Expected a list of items but got type \"str\".", "not_a_list")],
  ["filters that are a list", { key: uniqueKey("f"), filters: [] }, invalid("filters", "Expected a dictionary of items but got type \"list\".", "not_a_dict")],
  ["filters that are text", { key: uniqueKey("f"), filters: "all" }, invalid("filters", "Expected a dictionary of items but got type \"str\".", "not_a_dict")],
  ["a body that is a list", [{ key: "x" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
]


/** PostHog's rules for a flag's filters, one rule per row; all answer `attr: "filters"`. */
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
  // Hedgerow's own rule, last: a pattern its linear-time engine (RE2's) cannot run is refused.
  [
    "a regex that does not compile",
    { groups: [group([personProperty("email", "(unclosed", "regex")])] },
    filtersError("Invalid regex pattern: missing closing ): `(unclosed`", "invalid_value")
  ],
  [
    "a not_regex with a lookahead",
    { groups: [group([personProperty("email", "@example\\.com$", "regex")]), group([personProperty("email", "^(?!admin@)", "not_regex")])] },
    filtersError("Invalid regex pattern: invalid or unsupported Perl syntax: `(?!`", "invalid_value")
  ],
  [
    "a regex with a backreference",
    { groups: [group([personProperty("name", "(a)\\1", "regex")])] },
    filtersError("Invalid regex pattern: invalid escape sequence: `\\1`", "invalid_value")
  ],
  [
    "a regex naming more Unicode classes than compile quickly",
    { groups: [group([personProperty("name", `(?i)${"\\p{L}".repeat(17)}`, "regex")])] },
    filtersError("Invalid regex pattern: too many Unicode classes: more than 16 \\p or \\P", "invalid_value")
  ],
  [
    "a regex whose classes hold too many ranges",
    { groups: [group([personProperty("name", "\\p{L}{150}", "regex")])] },
    filtersError("Invalid regex pattern: too large: its character classes hold 102600 ranges, more than 100000", "invalid_value")
  ],
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
        const reply = await postFlag(target, at, body)
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
        const reply = await postFlag(target, at, { key: uniqueKey("filters"), filters })
        assert.deepEqual({ status: reply.status, body: reply.body }, { status: 400, body: error }, label)
      }
    }
  },
  {
    name: "a flag rollout percentage outside 0-100 or not a number is refused on filters",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      // A rollout is 0-100, but PostHog has no message for values outside it, so only the envelope is fixed here.
      for (const percentage of [101, -1, "half"]) {
        const reply = await postFlag(target, at, { key: uniqueKey("range"), filters: rolledOut(percentage as number) })
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
        [
          { name: "renamed", filters: { groups: [group([personProperty("email", "^([a-z]+)\\1@", "regex")])] } },
          filtersError("Invalid regex pattern: invalid escape sequence: `\\1`", "invalid_value")
        ],
        [{ version: "x" }, invalid("version", "A valid integer is required.")]
      ]
      for (const [body, error] of cases) {
        expectReply(await patchFlag(target, at, flag.id, body), 400, error)
      }
      expectReply(await getFlag(target, at, flag.id), 200, flag)
    }
  },
  {
    name: "flag analytics_dashboards takes ids of this project's dashboards only",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const at = { key: world.keys.ownerA, project: world.projectA }
      const own = (await createFlag(target, at, { key: uniqueKey("with-dashboard") })).usage_dashboard as number
      const theirs = (await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("their-dashboard") })).usage_dashboard as number
      const linked = await createFlag(target, at, { key: uniqueKey("analytics"), analytics_dashboards: [own] })
      assert.deepEqual(linked.analytics_dashboards, [own])
      const cases: ReadonlyArray<readonly [unknown, Invalid]> = [
        [[theirs], invalid("analytics_dashboards", `Invalid pk "${theirs}" - object does not exist.`, "does_not_exist")],
        [[999999], invalid("analytics_dashboards", "Invalid pk \"999999\" - object does not exist.", "does_not_exist")],
        [["abc"], invalid("analytics_dashboards", "Incorrect type. Expected pk value, received str.", "incorrect_type")],
        [own, invalid("analytics_dashboards", "Expected a list of items but got type \"int\".", "not_a_list")]
      ]
      for (const [dashboards, error] of cases) {
        expectReply(
          await postFlag(target, at, { key: uniqueKey("analytics"), analytics_dashboards: dashboards }),
          400,
          error
        )
      }
    }
  }
]
