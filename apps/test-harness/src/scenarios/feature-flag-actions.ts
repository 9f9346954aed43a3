import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import { assertFlagShape, createFlag, FLAGS, getFlag, patchFlag, projectOf, rolledOut, uniqueKey } from "./feature-flags-support.ts"
import { expectReply, invalid, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"

type At = { readonly key: string; readonly project: number }

const action = (target: Target, at: At, ref: (typeof FLAGS)[keyof typeof FLAGS], id: number | string) =>
  target.call(ref, { key: at.key, params: { project_id: at.project, id }, body: {} })

const ACTIVE = { status: "active", reason: "Flag has no usage data yet" }
/** PostHog answers `{"success": false, "error"}`; here every error is the envelope, with PostHog's message. */
const enrichRefusal = (error: string) => invalid(null, error)

/** The flag helper operations: status, usage dashboards, static cohorts, access controls. */
export const featureFlagActionScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag status: active, inactive when disabled, deleted when soft-deleted; never stale before 30 days",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const partial = await createFlag(target, at, { key: uniqueKey("status"), filters: rolledOut(50) })
      expectReply(await action(target, at, FLAGS.status, partial.id), 200, ACTIVE)
      // Fully rolled out, but younger than 30 days: PostHog's stale rule cannot hold yet.
      const full = await createFlag(target, at, { key: uniqueKey("status-full"), filters: rolledOut(100) })
      expectReply(await action(target, at, FLAGS.status, full.id), 200, ACTIVE)
      const off = await createFlag(target, at, { key: uniqueKey("status-off"), active: false })
      expectReply(await action(target, at, FLAGS.status, off.id), 200, { status: "inactive", reason: "Flag is disabled" })
      assert.equal(off.status, "INACTIVE")
      const gone = await patchFlag(target, at, off.id, { deleted: true })
      assert.equal(gone.body.status, "DELETED")
      expectReply(await action(target, at, FLAGS.status, off.id), 200, { status: "deleted", reason: "Flag has been deleted" })
      for (const id of [999999, "abc"]) expectReply(await action(target, at, FLAGS.status, id), 404, NOT_FOUND)
    }
  },
  {
    name: "flag dashboard makes a new usage dashboard and points the flag at it",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("dashboard"), _should_create_usage_dashboard: false })
      assert.equal(flag.usage_dashboard, null)
      expectReply(await action(target, at, FLAGS.dashboard, flag.id), 200, { success: true })
      const first = (await getFlag(target, at, flag.id)).body.usage_dashboard
      assert.equal(typeof first, "number")
      expectReply(await action(target, at, FLAGS.dashboard, flag.id), 200, { success: true })
      const second = (await getFlag(target, at, flag.id)).body.usage_dashboard
      assert.equal(typeof second, "number")
      assert.notEqual(second, first, "each call makes a new dashboard, as in PostHog of late 2025")
    }
  },
  {
    name: "flag enrich_usage_dashboard checks, in PostHog's order: a dashboard, not yet enriched, enriched analytics",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const bare = await createFlag(target, at, { key: uniqueKey("enrich-bare"), has_enriched_analytics: true, _should_create_usage_dashboard: false })
      expectReply(await action(target, at, FLAGS.enrichUsageDashboard, bare.id), 400, enrichRefusal("Usage dashboard not found"))

      const plain = await createFlag(target, at, { key: uniqueKey("enrich-plain") })
      expectReply(
        await action(target, at, FLAGS.enrichUsageDashboard, plain.id),
        400,
        enrichRefusal("No enriched analytics available for this feature flag")
      )
      expectReply(await patchFlag(target, at, plain.id, { has_enriched_analytics: true }), 200)
      expectReply(await action(target, at, FLAGS.enrichUsageDashboard, plain.id), 200, { success: true })
      expectReply(
        await action(target, at, FLAGS.enrichUsageDashboard, plain.id),
        400,
        enrichRefusal("Usage dashboard already has enriched data")
      )
      // A dashboard made for a flag with enriched analytics comes enriched already.
      expectReply(await action(target, at, FLAGS.dashboard, bare.id), 200, { success: true })
      expectReply(
        await action(target, at, FLAGS.enrichUsageDashboard, bare.id),
        400,
        enrichRefusal("Usage dashboard already has enriched data")
      )
    }
  },
  {
    name: "create_static_cohort_for_flag answers 201 with an empty static cohort named as PostHog names it",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("cohort") })
      const reply = await action(target, at, FLAGS.createStaticCohort, flag.id)
      expectReply(reply, 201)
      assert.deepEqual(Object.keys(reply.body), ["cohort"])
      const cohort = reply.body.cohort
      assert.equal(typeof cohort.id, "number")
      assert.match(cohort.name, new RegExp(`^Users with feature flag ${flag.key} enabled at \\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$`))
      assert.deepEqual([cohort.is_static, cohort.is_calculating, cohort.count], [true, false, 0])

      // The cohort is a real record of the project: a flag may target it, and names it back.
      const targeted = await createFlag(target, at, {
        key: uniqueKey("cohort-targeted"),
        filters: { groups: [{ properties: [{ key: "id", value: cohort.id, operator: "in", type: "cohort" }], rollout_percentage: 100 }] }
      })
      assert.equal(targeted.filters.groups[0].properties[0].cohort_name, cohort.name)
    }
  },
  {
    name: "access_controls and global_access_controls answer the flag plus PostHog's access-control fields",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("access-controls") })
      for (const ref of [FLAGS.accessControls, FLAGS.globalAccessControls]) {
        const reply = await target.call(ref, { key: at.key, params: { project_id: at.project, id: flag.id } })
        expectReply(reply, 200)
        assertFlagShape(reply.body)
        assert.deepEqual([reply.body.id, reply.body.key], [flag.id, flag.key])
        assert.ok(Array.isArray(reply.body.access_controls))
        assert.deepEqual(reply.body.available_access_levels.slice(0, 3), ["none", "viewer", "editor"])
        assert.equal(reply.body.default_access_level, "editor")
        assert.equal(typeof reply.body.user_can_edit_access_levels, "boolean")
      }
    }
  },
  {
    name: "flag actions on another organization's flag or project are 404",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const foreign = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("foreign-actions") })
      const refs = [FLAGS.status, FLAGS.dashboard, FLAGS.enrichUsageDashboard, FLAGS.createStaticCohort, FLAGS.accessControls, FLAGS.globalAccessControls]
      for (const ref of refs) {
        for (const project of [world.projectA, world.projectB]) {
          expectReply(await action(target, { key: world.keys.ownerA, project }, ref, foreign.id), 404, NOT_FOUND)
        }
      }
      // Nothing was done to it on the way.
      const read = await getFlag(target, { key: world.keys.ownerB, project: world.projectB }, foreign.id)
      expectReply(read, 200, foreign)
    }
  }
]
