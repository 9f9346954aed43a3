import assert from "node:assert/strict"
import {
  assertFlagShape,
  createFlag,
  FLAGS,
  getFlag,
  patchFlag,
  personProperty,
  projectOf,
  rolledOut,
  TIMESTAMP,
  uniqueKey
} from "./feature-flags-support.ts"
import { expectReply, type Scenario } from "./scenario.ts"

/** Create, retrieve and PATCH: the flag resource itself, with PostHog's fields, defaults and rules. */
export const featureFlagScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag create with only a key answers 201 with the full FeatureFlag and PostHog's defaults",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      const key = uniqueKey("defaults")
      const flag = await createFlag(target, at, { key })
      assertFlagShape(flag)
      assert.equal(flag.key, key)
      assert.equal(flag.name, "")
      assert.deepEqual(
        [flag.active, flag.deleted, flag.ensure_experience_continuity, flag.has_enriched_analytics, flag.is_remote_configuration, flag.has_encrypted_payloads, flag.performed_rollback],
        [true, false, false, false, false, false, false]
      )
      assert.equal(flag.version, 1)
      assert.equal(flag.evaluation_runtime, "all")
      assert.equal(flag.creation_context, "feature_flags")
      assert.equal(flag.rollback_conditions, null)
      assert.deepEqual(flag.tags, [])
      assert.deepEqual(flag.experiment_set, [])
      // The API types both as "object with arbitrary keys"; nothing is linked to a flag here.
      assert.deepEqual([flag.surveys, flag.features], [{}, {}])
      assert.deepEqual(flag.analytics_dashboards, [])
      assert.equal(typeof flag.usage_dashboard, "number", "create makes the usage dashboard by default")
      assert.equal(flag.created_by.id, me.body.id)
      assert.equal(flag.created_by.email, me.body.email)
      assert.equal(flag.last_modified_by.email, me.body.email)
      assert.equal(flag.status, "ACTIVE")
      assert.equal(flag.can_edit, true)
      assert.equal(flag.user_access_level, "editor")
      const read = await getFlag(target, at, flag.id)
      expectReply(read, 200, flag)
    }
  },
  {
    name: "flag create keeps every writable field and ignores read-only and unknown ones",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const key = uniqueKey("kept")
      const filters = {
        groups: [{ properties: [personProperty("email", "@example.com", "icontains")], rollout_percentage: 40, variant: null }],
        multivariate: { variants: [{ key: "control", name: "Control", rollout_percentage: 50 }, { key: "test", name: "Test", rollout_percentage: 50 }] },
        payloads: { control: "{\"colour\": \"blue\"}" }
      }
      const flag = await createFlag(target, at, {
        key,
        name: "Checkout redesign",
        filters,
        active: false,
        ensure_experience_continuity: true,
        tags: ["checkout", "web"],
        evaluation_runtime: "server",
        has_enriched_analytics: true,
        creation_context: "experiments",
        id: 424242,
        version: 77,
        created_by: { id: 1 },
        deleted: false,
        usage_dashboard: 987654,
        is_simple_flag: true,
        no_such_field: "ignored"
      })
      assert.notEqual(flag.id, 424242)
      assert.equal(flag.version, 1, "a new flag starts at version 1 whatever the body says")
      assert.equal(flag.name, "Checkout redesign")
      assert.deepEqual(flag.filters.groups, filters.groups)
      assert.deepEqual(flag.filters.multivariate, filters.multivariate)
      assert.deepEqual(flag.filters.payloads, filters.payloads)
      assert.equal(flag.active, false)
      assert.equal(flag.ensure_experience_continuity, true)
      assert.deepEqual([...flag.tags].sort(), ["checkout", "web"])
      assert.equal(flag.evaluation_runtime, "server")
      assert.equal(flag.has_enriched_analytics, true)
      assert.equal(flag.creation_context, "experiments")
      assert.notEqual(flag.usage_dashboard, 987654)
      assert.equal(flag.is_simple_flag, false)
      assert.ok(!("no_such_field" in flag))
    }
  },
  {
    name: "_should_create_usage_dashboard false creates the flag without a usage dashboard",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("no-dashboard"), _should_create_usage_dashboard: false, _create_in_folder: "Unfiled" })
      assert.equal(flag.usage_dashboard, null)
      assert.ok(!("_should_create_usage_dashboard" in flag), "the switch is write-only")
      assert.ok(!("_create_in_folder" in flag), "the folder is write-only")
    }
  },
  {
    name: "is_simple_flag and rollout_percentage: one group, no properties, not group-aggregated",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const cases: ReadonlyArray<readonly [string, unknown, boolean, number | null]> = [
        ["one group at 30%", rolledOut(30), true, 30],
        ["one group at 100%", rolledOut(100), true, 100],
        ["one group without a percentage", rolledOut(null), true, null],
        ["one group with a property", { groups: [{ properties: [personProperty("plan", "pro")], rollout_percentage: 30 }] }, false, null],
        ["two groups", { groups: [{ properties: [], rollout_percentage: 30 }, { properties: [], rollout_percentage: 60 }] }, false, null],
        [
          "a group-aggregated flag",
          { aggregation_group_type_index: 0, groups: [{ properties: [], rollout_percentage: 30 }] },
          false,
          null
        ]
      ]
      for (const [label, filters, simple, percentage] of cases) {
        const flag = await createFlag(target, at, { key: uniqueKey("simple"), filters })
        assert.deepEqual([flag.is_simple_flag, flag.rollout_percentage], [simple, percentage], label)
      }
    }
  },
  {
    name: "flag PATCH changes only the fields it carries, bumps version and records who changed it",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      const flag = await createFlag(target, at, { key: uniqueKey("patch"), name: "Before", filters: rolledOut(20), tags: ["one"] })
      const renamed = await patchFlag(target, at, flag.id, { name: "After" })
      expectReply(renamed, 200)
      assert.equal(renamed.body.name, "After")
      assert.equal(renamed.body.key, flag.key)
      assert.deepEqual(renamed.body.filters, flag.filters)
      assert.deepEqual(renamed.body.tags, ["one"])
      assert.equal(renamed.body.version, 2)
      assert.equal(renamed.body.created_at, flag.created_at)
      assert.match(renamed.body.updated_at, TIMESTAMP)
      assert.ok(renamed.body.updated_at >= flag.updated_at)
      assert.equal(renamed.body.last_modified_by.email, me.body.email)

      const newKey = uniqueKey("patched")
      const rekeyed = await patchFlag(target, at, flag.id, { key: newKey, filters: rolledOut(75), active: false })
      expectReply(rekeyed, 200)
      assert.deepEqual(
        [rekeyed.body.key, rekeyed.body.rollout_percentage, rekeyed.body.active, rekeyed.body.version],
        [newKey, 75, false, 3]
      )
      const sameKey = await patchFlag(target, at, flag.id, { key: newKey })
      expectReply(sameKey, 200)
      const read = await getFlag(target, at, flag.id)
      expectReply(read, 200)
      assert.equal(read.body.key, newKey)
      assert.equal(read.body.rollout_percentage, 75)
    }
  },
  {
    name: "a flag PATCH whose filters have no groups is ignored, as in PostHog: the current filters stay",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("no-groups"), filters: rolledOut(35) })
      const reply = await patchFlag(target, at, flag.id, { filters: { payloads: { true: "1" } } })
      expectReply(reply, 200)
      assert.deepEqual(reply.body.filters, flag.filters)
    }
  },
  {
    name: "a flag PATCH ignores read-only and unknown fields",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("read-only") })
      const reply = await patchFlag(target, at, flag.id, {
        id: 424242,
        created_by: null,
        created_at: "2001-01-01T00:00:00Z",
        usage_dashboard: 987654,
        is_simple_flag: false,
        status: "STALE",
        can_edit: false,
        no_such_field: 1
      })
      expectReply(reply, 200)
      assert.deepEqual(
        [reply.body.id, reply.body.created_by, reply.body.created_at, reply.body.usage_dashboard, reply.body.is_simple_flag, reply.body.status, reply.body.can_edit],
        [flag.id, flag.created_by, flag.created_at, flag.usage_dashboard, flag.is_simple_flag, "ACTIVE", true]
      )
      assert.ok(!("no_such_field" in reply.body))
    }
  },
  {
    name: "flag endpoints take @current for the caller's current project",
    run: async (context) => {
      const { target, primary } = context
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      const current = { key: primary.key, project: "@current" }
      const flag = await createFlag(target, current, { key: uniqueKey("current") })
      expectReply(await getFlag(target, { key: primary.key, project: me.body.team.id }, flag.id), 200, flag)
      expectReply(await getFlag(target, current, flag.id), 200, flag)
      const listed = await target.call(FLAGS.list, { key: primary.key, params: { project_id: "@current" }, query: { search: flag.key } })
      assert.equal(listed.body.count, 1)
    }
  },
  {
    name: "flag list answers a DRF page of full FeatureFlags (same body as retrieve)",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("listed"), name: "Listed", filters: rolledOut(10) })
      const reply = await target.call(FLAGS.list, { key: at.key, params: { project_id: at.project }, query: { search: flag.key } })
      expectReply(reply, 200)
      assert.deepEqual(Object.keys(reply.body).sort(), ["count", "next", "previous", "results"])
      assert.equal(reply.body.count, 1)
      assert.deepEqual(reply.body.results[0], flag)
    }
  }
]
