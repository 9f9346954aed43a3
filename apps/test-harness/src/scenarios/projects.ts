import assert from "node:assert/strict"
import { denied, expectReply, invalid, needWorld, NOT_FOUND, pathOf, type Scenario } from "./scenario.ts"

const create = { group: "organizationProjects", endpoint: "create" } as const
const list = { group: "organizationProjects", endpoint: "list" } as const
const retrieve = { group: "organizationProjects", endpoint: "retrieve" } as const

const LIST_ITEM_FIELDS = [
  "access_control", "api_token", "completed_snippet_onboarding", "has_completed_onboarding_for", "id",
  "ingested_event", "is_demo", "name", "organization", "timezone", "uuid"
]

/** One rule per row: the body sent and the exact error PostHog answers it with. */
const validationCases: ReadonlyArray<readonly [string, unknown, ReturnType<typeof invalid>]> = [
  ["blank name", { name: "" }, invalid("name", "Project must have a name!")],
  ["name of 201 characters", { name: "x".repeat(201) }, invalid("name", "Ensure this field has no more than 200 characters.", "max_length")],
  ["name that is not text", { name: 5 }, invalid("name", "Not a valid string.")],
  ["null name", { name: null }, invalid("name", "This field may not be null.", "null")],
  ["unknown time zone", { name: "p", timezone: "Mars/Olympus" }, invalid("timezone", "\"Mars/Olympus\" is not a valid choice.", "invalid_choice")],
  ["week start day 3", { name: "p", week_start_day: 3 }, invalid("week_start_day", "\"3\" is not a valid choice.", "invalid_choice")],
  ["app_urls not a list", { name: "p", app_urls: "https://x" }, invalid("app_urls", "Expected a list of items but got type \"str\".", "not_a_list")],
  ["app_urls item too long", { name: "p", app_urls: ["h".repeat(201)] }, invalid("app_urls__0", "Ensure this field has no more than 200 characters.", "max_length")],
  ["recording duration above 30000", { name: "p", session_recording_minimum_duration_milliseconds: 30001 }, invalid("session_recording_minimum_duration_milliseconds", "Ensure this value is less than or equal to 30000.", "max_value")],
  ["recording duration negative", { name: "p", session_recording_minimum_duration_milliseconds: -1 }, invalid("session_recording_minimum_duration_milliseconds", "Ensure this value is greater than or equal to 0.", "min_value")],
  ["recording duration not an integer", { name: "p", session_recording_minimum_duration_milliseconds: 1.5 }, invalid("session_recording_minimum_duration_milliseconds", "A valid integer is required.")],
  ["sample rate above 1", { name: "p", session_recording_sample_rate: "1.5" }, invalid("session_recording_sample_rate", "Ensure this value is less than or equal to 1.", "max_value")],
  ["sample rate not a number", { name: "p", session_recording_sample_rate: "half" }, invalid("session_recording_sample_rate", "A valid number is required.")],
  ["product description of 1001 characters", { name: "p", product_description: "d".repeat(1001) }, invalid("product_description", "Ensure this field has no more than 1000 characters.", "max_length")],
  ["slack webhook of 501 characters", { name: "p", slack_incoming_webhook: "s".repeat(501) }, invalid("slack_incoming_webhook", "Ensure this field has no more than 500 characters.", "max_length")],
  ["display-name property of 401 characters", { name: "p", person_display_name_properties: ["e".repeat(401)] }, invalid("person_display_name_properties__0", "Ensure this field has no more than 400 characters.", "max_length")],
  ["primary dashboard the project cannot have", { name: "p", primary_dashboard: 7 }, invalid("primary_dashboard", "Invalid pk \"7\" - object does not exist.", "does_not_exist")],
  ["a list instead of an object", ["p"], invalid(null, "Invalid data. Expected a dictionary, but got list.")],
  ["a number where nullable text belongs", { name: "p", product_description: 5 }, invalid("product_description", "Not a valid string.")],
  ["a list where nullable text belongs", { name: "p", slack_incoming_webhook: [] }, invalid("slack_incoming_webhook", "Not a valid string.")],
  ["text where a nullable boolean belongs", { name: "p", test_account_filters_default_checked: "x" }, invalid("test_account_filters_default_checked", "Must be a valid boolean.")],
  ["text where a nullable list belongs", { name: "p", live_events_columns: "x" }, invalid("live_events_columns", "Expected a list of items but got type \"str\".", "not_a_list")],
  ["a boolean sample rate", { name: "p", session_recording_sample_rate: true }, invalid("session_recording_sample_rate", "A valid number is required.")],
  ["a sample rate that is only a sign", { name: "p", session_recording_sample_rate: "-" }, invalid("session_recording_sample_rate", "A valid number is required.")],
  ["a sample rate too precise in exponent form", { name: "p", session_recording_sample_rate: 1e-7 }, invalid("session_recording_sample_rate", "Ensure that there are no more than 2 decimal places.", "max_decimal_places")],
  ["a boolean spelled as no known word", { name: "p", anonymize_ips: "maybe" }, invalid("anonymize_ips", "Must be a valid boolean.")],
  ["a sample rate with three decimals", { name: "p", session_recording_sample_rate: 0.555 }, invalid("session_recording_sample_rate", "Ensure that there are no more than 2 decimal places.", "max_decimal_places")],
  ["a primary dashboard id that is text", { name: "p", primary_dashboard: "x" }, invalid("primary_dashboard", "A valid integer is required.")],
  ["JSON nested 200 levels deep", { name: "p", test_account_filters: JSON.parse("[".repeat(200) + "]".repeat(200)) }, invalid("test_account_filters", "Nested too deeply: at most 100 levels.")],
  ["a NUL character in the name", { name: "a\u0000b" }, invalid("name", "Null characters are not allowed.", "null_characters_not_allowed")],
  ["a NUL character deep in a JSON setting", { name: "p", test_account_filters: [{ value: "\u0000" }] }, invalid("test_account_filters__0__value", "Null characters are not allowed.", "null_characters_not_allowed")]
]

export const projectScenarios: ReadonlyArray<Scenario> = [
  {
    name: "create answers 201 with the full project and PostHog's defaults",
    run: async ({ target, primary }) => {
      const reply = await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { name: "Conformance defaults" } })
      expectReply(reply, 201)
      const p = reply.body
      assert.equal(p.name, "Conformance defaults")
      assert.equal(p.organization, primary.organization)
      assert.match(p.api_token, /^phc_[0-9A-Za-z]{43}$/)
      assert.equal(p.timezone, "UTC")
      assert.equal(p.anonymize_ips, false)
      assert.equal(p.is_demo, false)
      assert.equal(p.completed_snippet_onboarding, false)
      assert.equal(p.ingested_event, false)
      assert.equal(p.session_recording_opt_in, false)
      assert.equal(p.capture_console_log_opt_in, true)
      assert.equal(p.capture_performance_opt_in, true)
      assert.equal(p.access_control, false)
      assert.deepEqual(p.app_urls, [])
      assert.match(p.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
      assert.ok([8, 15].includes(p.effective_membership_level))
      const read = await target.call(retrieve, { key: primary.key, params: { organization_id: primary.organization, id: p.id } })
      expectReply(read, 200, p)
    }
  },
  {
    name: "create keeps the settings it is given and ignores read-only and unknown fields",
    run: async ({ target, primary }) => {
      const reply = await target.call(create, {
        key: primary.key,
        params: { organization_id: primary.organization },
        body: {
          name: "Conformance settings",
          timezone: "Europe/Paris",
          week_start_day: 1,
          app_urls: ["https://example.com"],
          session_recording_sample_rate: 0.5,
          test_account_filters: [{ key: "email", value: "@example.com", operator: "not_icontains", type: "person" }],
          api_token: "phc_chosen_by_client",
          id: 424242,
          no_such_field: true
        }
      })
      expectReply(reply, 201)
      assert.equal(reply.body.timezone, "Europe/Paris")
      assert.equal(reply.body.week_start_day, 1)
      assert.deepEqual(reply.body.app_urls, ["https://example.com"])
      assert.equal(reply.body.session_recording_sample_rate, "0.50")
      assert.equal(reply.body.test_account_filters[0].operator, "not_icontains")
      assert.notEqual(reply.body.api_token, "phc_chosen_by_client")
      assert.notEqual(reply.body.id, 424242)
      assert.ok(!("no_such_field" in reply.body))
    }
  },
  {
    name: "an omitted name becomes PostHog's default name",
    run: async ({ target, primary }) => {
      const reply = await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: {} })
      expectReply(reply, 201)
      assert.equal(reply.body.name, "Default project")
    }
  },
  ...validationCases.map(([label, body, error]): Scenario => ({
    name: `create refuses ${label} with 400 and the exact message`,
    run: async ({ target, primary }) => {
      expectReply(await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body }), 400, error)
    }
  })),
  {
    name: "list items carry exactly the list fields, ordered by id, paginated DRF-style",
    run: async ({ target, primary }) => {
      for (const name of ["Page one", "Page two"]) {
        await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { name } })
      }
      const all = await target.call(list, { key: primary.key, params: { organization_id: primary.organization } })
      expectReply(all, 200)
      assert.ok(all.body.count >= 3)
      assert.deepEqual(Object.keys(all.body.results[0]).sort(), LIST_ITEM_FIELDS)
      const ids = all.body.results.map((p: { id: number }) => p.id)
      assert.deepEqual(ids, [...ids].sort((a: number, b: number) => a - b))

      const path = `/api/organizations/${primary.organization}/projects/`
      const first = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query: { limit: 1 } })
      assert.equal(first.body.results.length, 1)
      assert.equal(first.body.count, all.body.count)
      assert.equal(pathOf(first.body.next), `${path}?limit=1&offset=1`)
      assert.equal(first.body.previous, null)
      const second = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query: { limit: 1, offset: 1 } })
      assert.equal(second.body.results[0].id, ids[1])
      assert.equal(pathOf(second.body.previous), `${path}?limit=1`)
      const third = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query: { limit: 1, offset: 2 } })
      assert.equal(pathOf(third.body.previous), `${path}?limit=1&offset=1`)
      const last = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query: { limit: 1, offset: all.body.count - 1 } })
      assert.equal(last.body.next, null)
    }
  },
  {
    name: "a limit beyond 1000 is clamped to 1000 and an offset beyond the end gives an empty page",
    run: async ({ target, primary }) => {
      const params = { organization_id: primary.organization }
      const huge = await target.call(list, { key: primary.key, params, query: { limit: "99999999999999999999", offset: 1 } })
      expectReply(huge, 200)
      assert.equal(pathOf(huge.body.previous), `/api/organizations/${primary.organization}/projects/?limit=1000`)
      const far = await target.call(list, { key: primary.key, params, query: { offset: "99999999999999999999" } })
      expectReply(far, 200)
      assert.deepEqual(far.body.results, [])
      assert.ok(far.body.count > 0)
    }
  },
  {
    name: "a limit with a plus sign counts, as Python's int() reads it",
    run: async ({ target, primary }) => {
      const reply = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query: { limit: "+1" } })
      expectReply(reply, 200)
      assert.equal(reply.body.results.length, 1)
    }
  },
  {
    name: "bad pagination values fall back to DRF's defaults instead of failing",
    run: async ({ target, primary }) => {
      for (const query of [{ limit: "abc" }, { limit: 0 }, { limit: -5 }, { offset: "x" }, { offset: -3 }, { limit: 5000 }]) {
        const reply = await target.call(list, { key: primary.key, params: { organization_id: primary.organization }, query })
        expectReply(reply, 200)
        assert.equal(pathOf(reply.body.previous), null)
      }
    }
  },
  {
    name: "unknown and malformed project ids are 404",
    run: async ({ target, primary }) => {
      const org = { organization_id: primary.organization }
      for (const id of [999999, "abc", "-1", "1.5", "1e3", "0x10", "2147483648", "999999999999999", "99999999999999999999"]) {
        expectReply(await target.call(retrieve, { key: primary.key, params: { ...org, id } }), 404, NOT_FOUND)
      }
      for (const project_id of [999999, "2147483648", "999999999999999"]) {
        expectReply(await target.call({ group: "projects", endpoint: "retrieve" }, { key: primary.key, params: { project_id } }), 404, NOT_FOUND)
      }
    }
  },
  {
    name: "another tenant's project ids are 404, by either path",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.ownerA
      expectReply(await target.call(retrieve, { key, params: { organization_id: world.orgA, id: world.projectB } }), 404, NOT_FOUND)
      expectReply(await target.call(retrieve, { key, params: { organization_id: world.orgB, id: world.projectB } }), 404, NOT_FOUND)
      expectReply(await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: { project_id: world.projectB } }), 404, NOT_FOUND)
    }
  },
  {
    name: "another organization's project list and create are 404, never 403",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.ownerA
      for (const organization_id of [world.orgB, "00000000-0000-4000-8000-000000000000", "not-a-uuid"]) {
        expectReply(await target.call(list, { key, params: { organization_id } }), 404, NOT_FOUND)
        expectReply(await target.call(create, { key, params: { organization_id }, body: { name: "intruder" } }), 404, NOT_FOUND)
      }
    }
  },
  {
    name: "/api/projects/ lists only projects of the caller's organizations",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const reply = await target.call({ group: "projects", endpoint: "list" }, { key: world.keys.ownerB })
      expectReply(reply, 200)
      assert.ok(reply.body.results.length > 0)
      assert.ok(reply.body.results.every((p: { organization: string }) => p.organization === world.orgB))
      assert.equal(reply.body.count, reply.body.results.length)
    }
  },
  {
    name: "a plain member cannot create a project, demo or not, whatever the body: it needs admin level",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { organization_id: world.orgA }
      for (const body of [{ name: "Not allowed" }, { name: "Demo", is_demo: true }, { name: "" }]) {
        expectReply(
          await target.call(create, { key: world.keys.memberA, params, body }),
          403,
          denied("Your organization access level is insufficient.")
        )
      }
    }
  },
  {
    name: "booleans and decimals accept DRF's spellings; unknown fields are ignored whatever they hold",
    run: async ({ target, primary }) => {
      const reply = await target.call(create, {
        key: primary.key,
        params: { organization_id: primary.organization },
        body: { name: "Spellings", anonymize_ips: "true", is_demo: 0, session_recording_opt_in: "on", session_recording_sample_rate: "1e-1", unknown: "a\u0000b" }
      })
      expectReply(reply, 201)
      assert.deepEqual(
        [reply.body.anonymize_ips, reply.body.is_demo, reply.body.session_recording_opt_in, reply.body.session_recording_sample_rate],
        [true, false, true, "0.10"]
      )
    }
  },
  {
    name: "choices accept their text form and nullable settings accept null, as DRF does",
    run: async ({ target, primary }) => {
      const textual = await target.call(create, { key: primary.key, params: { organization_id: primary.organization }, body: { name: "Choices", week_start_day: "1" } })
      expectReply(textual, 201)
      assert.equal(textual.body.week_start_day, 1)
      const nulls = await target.call(create, {
        key: primary.key,
        params: { organization_id: primary.organization },
        body: { name: "Nulls", week_start_day: null, product_description: null, session_recording_sample_rate: null }
      })
      expectReply(nulls, 201)
      assert.equal(nulls.body.week_start_day, null)
    }
  },
  {
    name: "organization ids match whatever their letter case, and @current works under an organization",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const upper = await target.call(retrieve, { key: world.keys.ownerA, params: { organization_id: world.orgA.toUpperCase(), id: world.projectA } })
      expectReply(upper, 200)
      assert.equal(upper.body.id, world.projectA)
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: world.keys.ownerA })
      const current = await target.call(retrieve, { key: world.keys.ownerA, params: { organization_id: "@current", id: "@current" } })
      expectReply(current, 200)
      assert.equal(current.body.id, me.body.team.id)
    }
  },
  {
    name: "creating a project makes it the creator's current project",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const created = await target.call(create, { key: world.keys.ownerB, params: { organization_id: world.orgB }, body: { name: "Now current" } })
      expectReply(created, 201)
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: world.keys.ownerB })
      assert.equal(me.body.team.id, created.body.id)
    }
  }
]
