import assert from "node:assert/strict"
import {
  COHORTS,
  cohortCall,
  cohortFilter,
  cohortName,
  createCohort,
  createStatic,
  filtersRefusal,
  group,
  patchCohort,
  person,
  postCohort,
  properties,
  refusal
} from "./cohorts-support.ts"
import { projectOf } from "./feature-flags-support.ts"
import { expectReply, invalid, type Scenario } from "./scenario.ts"

const NO_PROPERTIES = invalid("filters__detail", "Must contain a 'properties' key with type and values", "invalid")
const NO_QUERY_ENGINE = invalid(
  "query",
  "This service has no query engine, so a cohort cannot be filled from a query. Upload a CSV of distinct IDs or list them instead.",
  "invalid"
)
const NO_PERSONS = filtersRefusal(
  "This service keeps no persons, so a static cohort cannot be filled from filters. Upload a CSV of distinct IDs or list them instead."
)
const TAGS = "'behavioral', 'cohort', 'person', 'person_metadata', 'AND', 'OR'"
const at = (where: string) => `Invalid cohort filters at properties.values.0.AND.values.0${where}`
const behavioral = { type: "behavioral", key: "$pageview", value: "performed_event", event_type: "events" }
const wrapped = (filter: unknown) => properties([filter])

/** Bodies PostHog refuses on create, each with its exact answer, in PostHog's field order. */
const CREATE_CASES: ReadonlyArray<readonly [string, unknown, object]> = [
  ["a list instead of an object", [{ name: "x" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")],
  ["a name of 401 characters", { name: "n".repeat(401) }, invalid("name", "Ensure this field has no more than 400 characters.", "max_length")],
  ["a name that is not text", { name: { text: "x" } }, invalid("name", "Not a valid string.")],
  ["a null description", { description: null }, invalid("description", "This field may not be null.", "null")],
  ["a description of 1001 characters", { description: "d".repeat(1001) }, invalid("description", "Ensure this field has no more than 1000 characters.", "max_length")],
  ["groups that are an object", { groups: { properties: [] } }, invalid("groups", "Expected a list of items but got type \"dict\".", "not_a_list")],
  ["null groups", { groups: null }, invalid("groups", "This field may not be null.", "null")],
  ["a group with no properties, action or event", { groups: [{ days: 3 }] }, invalid("groups", "Cohort group needs properties or action_id or event_id", "invalid")],
  ["deleted that is no boolean", { deleted: "perhaps" }, invalid("deleted", "Must be a valid boolean.")],
  ["filters without properties", { filters: {} }, NO_PROPERTIES],
  ["null filters on a dynamic cohort", { filters: null }, NO_PROPERTIES],
  ["filters that are a list", { filters: [] }, NO_PROPERTIES],
  ["filters with another key", { filters: { ...properties([person("a", 1)]), other: 1 } }, filtersRefusal("Invalid cohort filters at other: Extra inputs are not permitted")],
  ["properties that are a list", { filters: { properties: [] } }, filtersRefusal("Invalid cohort filters at properties: Input should be a valid dictionary or instance of CohortFilterGroup")],
  ["a group of another type", { filters: { properties: group("XOR" as "AND") } }, filtersRefusal("Invalid cohort filters at properties.type: Input should be 'AND' or 'OR'")],
  ["a group without values", { filters: { properties: { type: "AND" } } }, filtersRefusal("Invalid cohort filters at properties.values: Field required")],
  ["values that are no list", { filters: { properties: { type: "AND", values: {} } } }, filtersRefusal("Invalid cohort filters at properties.values: Input should be a valid list")],
  ["a person filter without a value", { filters: wrapped({ type: "person", key: "plan", operator: "exact" }) }, filtersRefusal("Missing required keys for person filter: value")],
  ["a person filter without value or operator", { filters: wrapped({ type: "person", key: "plan" }) }, filtersRefusal("Missing required keys for person filter: value, operator")],
  ["a person filter without an operator", { filters: wrapped({ type: "person", key: "plan", value: "pro" }) }, filtersRefusal("Missing required keys for person filter: operator")],
  ["a person filter without a key", { filters: wrapped({ type: "person", value: "pro", operator: "exact" }) }, filtersRefusal("Missing required keys for person filter: key")],
  ["a cohort filter without a value", { filters: wrapped({ type: "cohort", key: "id" }) }, filtersRefusal("Missing required keys for cohort filter: value")],
  ["a behavioral filter without an event type", { filters: wrapped({ ...behavioral, event_type: undefined }) }, filtersRefusal("Missing required keys for behavioral filter: event_type")],
  // A missing key is named before any other fault, wherever it is.
  ["a fault of type before a missing key", { filters: properties([{ type: "person", key: 5, value: 1, operator: "exact" }, { type: "person", value: 1, operator: "exact" }]) }, filtersRefusal("Missing required keys for person filter: key")],
  ["a filter of an unknown type", { filters: wrapped({ type: "event", key: "x", value: 1 }) }, filtersRefusal(`${at("")}: Input tag 'event' found using 'type' does not match any of the expected tags: ${TAGS}`)],
  ["a filter without a type", { filters: wrapped({ key: "x", value: 1, operator: "exact" }) }, filtersRefusal(`${at("")}: Unable to extract tag using discriminator 'type'`)],
  ["a filter that is no object", { filters: wrapped("plan") }, filtersRefusal(`${at("")}: Input should be a valid dictionary or object to extract fields from`)],
  ["a person filter with another key", { filters: wrapped({ ...person("plan", "pro"), label: "x" }) }, filtersRefusal(`${at(".person.label")}: Extra inputs are not permitted`)],
  ["a person key that is no text", { filters: wrapped(person(5 as unknown as string, "pro")) }, filtersRefusal(`${at(".person.key")}: Input should be a valid string`)],
  ["an operator that is no text", { filters: wrapped({ type: "person", key: "plan", value: 1, operator: 7 }) }, filtersRefusal(`${at(".person.operator")}: Input should be a valid string`)],
  ["a negation that is no boolean", { filters: wrapped({ ...person("plan", "pro"), negation: "perhaps" }) }, filtersRefusal(`${at(".person.negation")}: Input should be a valid boolean, unable to interpret input`)],
  ["a cohort filter keyed otherwise", { filters: wrapped({ type: "cohort", key: "name", value: 1 }) }, filtersRefusal(`${at(".cohort.key")}: Input should be 'id'`)],
  ["a cohort filter naming no integer", { filters: wrapped({ type: "cohort", key: "id", value: "first" }) }, filtersRefusal(`${at(".cohort.value")}: Input should be a valid integer, unable to parse string as an integer`)],
  ["a cohort filter with an operator", { filters: wrapped({ ...cohortFilter(1), operator: "in" }) }, filtersRefusal(`${at(".cohort.operator")}: Extra inputs are not permitted`)],
  ["a date operator on no date", { filters: wrapped(person("signup", "soon", "is_date_after")) }, filtersRefusal(`${at(".person")}: Value error, Invalid date value 'soon' for operator 'is_date_after'. Expected a relative date (e.g., '-7d', '30d') or an ISO 8601 date (e.g., '2024-01-15').`)],
  ["a pattern the regex engine cannot run", { filters: wrapped(person("email", "(?=@)", "regex")) }, filtersRefusal(`${at(".person")}: Value error, Invalid regex pattern: invalid or unsupported Perl syntax: \`(?=\``)],
  ["a filter on person metadata", { filters: wrapped({ type: "person_metadata", key: "created_at", value: "-7d", operator: "is_date_after" }) }, filtersRefusal(`${at(".person_metadata")}: Filters on person_metadata need stored persons, which this service does not keep`)],
  ["a filter naming no cohort", { filters: wrapped(cohortFilter(999_999_999)) }, refusal("Invalid Cohort ID in filter")],
  ["a query that is no object", { query: "select 1" }, invalid("query", "Query must be a dictionary.", "invalid")],
  ["a query of another kind", { query: { kind: "EventsQuery" } }, invalid("query", "Query must be an ActorsQuery or HogQLQuery. Got: EventsQuery", "invalid")],
  ["a query beside criteria", { query: { kind: "HogQLQuery", query: "select 1" }, filters: wrapped(person("plan", "pro")) }, refusal("Cannot set both query and filters at the same time.")],
  ["a dynamic cohort with a query", { query: { kind: "ActorsQuery" } }, refusal("Cannot create a dynamic cohort with a query. Set is_static to true.")],
  ["a static cohort filled from a query", { is_static: true, query: { kind: "ActorsQuery" } }, NO_QUERY_ENGINE],
  ["a static cohort filled from criteria", { is_static: true, filters: wrapped(person("plan", "pro")) }, NO_PERSONS],
  ["is_static that is no boolean", { is_static: "perhaps" }, invalid("is_static", "Must be a valid boolean.")],
  ["a folder that is no text", { _create_in_folder: 3 }, invalid("_create_in_folder", "Not a valid string.")],
  ["starting ids that are no list", { is_static: true, _create_static_person_ids: "anna" }, invalid("_create_static_person_ids", "Expected a list of items but got type \"str\".", "not_a_list")],
  ["a blank starting id", { is_static: true, _create_static_person_ids: ["anna", " "] }, invalid("_create_static_person_ids__1", "This field may not be blank.", "blank")],
  ["a starting id of 201 characters", { is_static: true, _create_static_person_ids: ["i".repeat(201)] }, invalid("_create_static_person_ids__0", "Ensure this field has no more than 200 characters.", "max_length")],
  ["a NUL character in the name", { name: "a\u0000b" }, invalid("name", "Null characters are not allowed.", "null_characters_not_allowed")],
  // The first field in PostHog's order wins.
  ["a bad description before bad filters", { description: null, filters: {} }, invalid("description", "This field may not be null.", "null")]
]

export const cohortValidationScenarios: ReadonlyArray<Scenario> = [
  ...CREATE_CASES.map(([label, body, error]): Scenario => ({
    name: `cohort create refuses ${label} with 400 and the exact body, and writes nothing`,
    run: async (context) => {
      const where = { key: context.primary.key, project: projectOf(context) }
      const name = cohortName("refused")
      const payload = Array.isArray(body) ? body : { name, ...(body as object) }
      expectReply(await postCohort(context.target, where, payload), 400, error)
      // Nothing was written: no cohort took the name (the cases that refuse the name itself keep theirs).
      const listed = await context.target.call(COHORTS.list, { key: where.key, params: { project_id: where.project }, query: { search: name } })
      expectReply(listed, 200)
      assert.deepEqual(listed.body.results, [])
    }
  })),
  {
    name: "cohort create keeps a static cohort's criteria-less filters as given, and takes operators it does not know as PostHog does",
    run: async (context) => {
      const where = { key: context.primary.key, project: projectOf(context) }
      const kept = await createStatic(context.target, where, ["anna"], { filters: { properties: { type: "OR", values: [{ type: "AND", values: [] }] } } })
      assert.deepEqual(kept.filters, { properties: { type: "OR", values: [{ type: "AND", values: [] }] } })
      const unknown = await createCohort(context.target, where, { filters: wrapped(person("plan", "pro", "sounds_like")) })
      assert.deepEqual(unknown.filters, wrapped({ ...person("plan", "pro", "sounds_like"), negation: false }))
      const setOnly = await createCohort(context.target, where, { filters: wrapped({ type: "person", key: "plan", operator: "is_set", value: null }) })
      assert.deepEqual(setOnly.filters, wrapped({ type: "person", key: "plan", operator: "is_set", negation: false }))
    }
  },
  {
    name: "cohort PATCH refuses a loop, an unknown cohort, a query and a static cohort's new criteria with PostHog's messages, and changes nothing",
    run: async (context) => {
      const { target } = context
      const where = { key: context.primary.key, project: projectOf(context) }
      const inner = await createCohort(target, where, { filters: wrapped(person("age", 18, "gt")) })
      const outer = await createCohort(target, where, { filters: wrapped(cohortFilter(inner.id)) })
      const listed = await createStatic(target, where, ["anna"])
      const cases: ReadonlyArray<readonly [number, unknown, object]> = [
        [inner.id, { filters: wrapped(cohortFilter(outer.id)) }, refusal("Cohorts cannot reference other cohorts in a loop.")],
        [inner.id, { filters: wrapped(cohortFilter(inner.id)) }, refusal("Cohorts cannot reference other cohorts in a loop.")],
        [inner.id, { filters: wrapped(cohortFilter(999_999_999)) }, refusal("Invalid Cohort ID in filter")],
        [inner.id, { query: { kind: "HogQLQuery" } }, NO_QUERY_ENGINE],
        [listed.id, { filters: wrapped(person("plan", "pro")) }, refusal("Editing the criteria of a static cohort is not supported yet. Create a new static cohort instead.")],
        [inner.id, { name: "n".repeat(401) }, invalid("name", "Ensure this field has no more than 400 characters.", "max_length")],
        [inner.id, { filters: { properties: {} } }, filtersRefusal("Invalid cohort filters at properties.type: Field required")]
      ]
      for (const [id, body, error] of cases) {
        expectReply(await patchCohort(target, where, id, body), 400, error)
        expectReply(await target.call(COHORTS.replace, cohortCall(where, id, { body })), 400, error)
      }
      for (const cohort of [inner, outer, listed]) expectReply(await target.call(COHORTS.retrieve, cohortCall(where, cohort.id)), 200, cohort)
      const activity = await target.call(COHORTS.activity, cohortCall(where, inner.id))
      assert.deepEqual(activity.body.results.map((entry: { activity: string }) => entry.activity), ["created"])
    }
  },
  {
    name: "cohorts cannot nest past 100 levels: a create, a PATCH or a PUT that would take a cohort or one naming it deeper is refused and changes nothing",
    run: async (context) => {
      const { target } = context
      const where = { key: context.primary.key, project: projectOf(context) }
      const deep = refusal("Cohorts cannot be nested more than 100 levels deep, counting groups within groups and cohorts naming cohorts.")
      // A person filter in an AND in the OR: one level below the top group; each cohort naming the one
      // below adds two (its AND group, then the cohort named). 49 of them reach 99 levels.
      const base = await createCohort(target, where, { filters: wrapped(person("plan", "pro")) })
      let top = base
      for (let i = 0; i < 49; i++) top = await createCohort(target, where, { filters: wrapped(cohortFilter(top.id)) })
      expectReply(await postCohort(target, where, { name: cohortName("too deep"), filters: wrapped(cohortFilter(top.id)) }), 400, deep)
      // Made deeper from below: the cohort at the bottom naming another keeps itself shallow, but not the top.
      const side = await createCohort(target, where, { filters: wrapped(person("plan", "pro")) })
      const sideways = { filters: properties([person("plan", "pro"), cohortFilter(side.id)]) }
      expectReply(await patchCohort(target, where, base.id, sideways), 400, deep)
      expectReply(await target.call(COHORTS.replace, cohortCall(where, base.id, { body: sideways })), 400, deep)
      expectReply(await target.call(COHORTS.retrieve, cohortCall(where, base.id)), 200, base)
      // A static cohort is a list whatever its filters: naming it reads no further.
      const listed = await createStatic(target, where, ["anna"])
      expectReply(await patchCohort(target, where, base.id, { filters: properties([person("plan", "pro"), cohortFilter(listed.id)]) }), 200)
      const reply = await target.call(COHORTS.list, { key: where.key, params: { project_id: where.project }, query: { search: "too deep" } })
      assert.deepEqual(reply.body.results, [])
    }
  },
  {
    name: "a form's JSON fields are JSON text: text that is not JSON is PostHog's 400 on the field",
    run: async (context) => {
      const { target } = context
      const where = { key: context.primary.key, project: projectOf(context) }
      const reply = await target.call(COHORTS.create, { key: where.key, params: { project_id: where.project }, form: { fields: [["name", cohortName("form")], ["filters", "{not json"]] } })
      expectReply(reply, 400, invalid("filters", "Value must be valid JSON.", "invalid"))
      const made = await target.call(COHORTS.create, {
        key: where.key,
        params: { project_id: where.project },
        form: { fields: [["name", cohortName("form")], ["filters", JSON.stringify(wrapped(person("plan", "pro")))], ["is_static", "false"]] }
      })
      expectReply(made, 201)
      assert.deepEqual(made.body.filters, wrapped({ ...person("plan", "pro"), negation: false }))
    }
  }
]
