import assert from "node:assert/strict"
import { conditionGroup, createFlag, FLAGS, personProperty, projectOf, rolledOut, uniqueKey, variants } from "./feature-flags-support.ts"
import { NO_PROJECT_ACCESS, tokenOf } from "./flag-definitions.ts"
import { groupTypeIndex } from "./group-types-support.ts"
import { expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

/** `evaluation_reasons`: why each flag evaluates as it does for a distinct id. */
export const flagEvaluationReasonScenarios: ReadonlyArray<Scenario> = [
  {
    name: "evaluation reasons: each flag's value and why for a distinct id and groups, inactive flags disabled",
    run: async (context) => {
      const { target, primary } = context
      const project = projectOf(context)
      const at = { key: primary.key, project }
      const on = await createFlag(target, at, { key: uniqueKey("why-on"), filters: rolledOut(100) })
      const none = await createFlag(target, at, { key: uniqueKey("why-none"), filters: rolledOut(0) })
      const off = await createFlag(target, at, { key: uniqueKey("why-off"), active: false })
      const variant = await createFlag(target, at, { key: uniqueKey("why-variant"), filters: { ...rolledOut(100), multivariate: variants(0, 100) } })
      // No persons are kept: the person has their distinct id only.
      const pro = await createFlag(target, at, { key: uniqueKey("why-pro"), filters: { groups: [conditionGroup([personProperty("plan", "pro")])] } })
      const companies = await groupTypeIndex(target, primary.key, project, "company")
      const company = await createFlag(target, at, { key: uniqueKey("why-company"), filters: { ...rolledOut(100), aggregation_group_type_index: companies } })
      const ask = (query: Record<string, string>) => target.call(FLAGS.evaluationReasons, { key: primary.key, params: { project_id: project }, query })
      const reply = await ask({ distinct_id: "person-1" })
      expectReply(reply, 200)
      const reason = (key: string) => reply.body[key]
      assert.deepEqual(reason(on.key), { value: true, evaluation: { reason: "condition_match", condition_index: 0 } })
      assert.deepEqual(reason(none.key), { value: false, evaluation: { reason: "out_of_rollout_bound", condition_index: 0 } })
      assert.deepEqual(reason(off.key), { value: false, evaluation: { reason: "disabled", condition_index: null } })
      assert.deepEqual(reason(variant.key), { value: "v1", evaluation: { reason: "condition_match", condition_index: 0 } })
      assert.deepEqual(reason(pro.key), { value: false, evaluation: { reason: "no_condition_match", condition_index: 0 } })
      assert.deepEqual(reason(company.key), { value: false, evaluation: { reason: "no_group_type", condition_index: 0 } })
      // Inactive flags come after the evaluated ones.
      const keys = Object.keys(reply.body)
      assert.ok(keys.indexOf(off.key) > keys.indexOf(company.key))
      // Groups are named by their type's name.
      const grouped = await ask({ distinct_id: "person-1", groups: JSON.stringify({ company: "acme" }) })
      assert.deepEqual(grouped.body[company.key], { value: true, evaluation: { reason: "condition_match", condition_index: 0 } })
    }
  },
  {
    name: "evaluation reasons: 400 without a distinct id or for groups that are no JSON object, 401, 403 and 404 as the other flag endpoints",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const ask = (key: string | undefined, project: number | string, query: Record<string, string>) =>
        target.call(FLAGS.evaluationReasons, { key, params: { project_id: project }, query })
      const required = invalid(null, "distinct_id is required")
      expectReply(await ask(world.keys.ownerA, world.projectA, {}), 400, required)
      expectReply(await ask(world.keys.ownerA, world.projectA, { distinct_id: "" }), 400, required)
      for (const groups of ["{", "[]", "\"acme\"", "null"]) {
        expectReply(await ask(world.keys.ownerA, world.projectA, { distinct_id: "a", groups }), 400, invalid("groups", "groups must be a JSON object."))
      }
      expectReply(await ask(undefined, world.projectA, { distinct_id: "a" }), 401, NOT_AUTHENTICATED)
      expectReply(await ask(world.keys.projectReadA, world.projectA, {}), 403, missingScope("feature_flag:read"))
      expectReply(await ask(world.keys.ownerA, world.projectB, {}), 404, NOT_FOUND)
      expectReply(await ask(world.keys.ownerA, 999_999, { distinct_id: "a" }), 404, NOT_FOUND)
      const tokenB = await tokenOf(target, world.keys.ownerB, world.projectB)
      expectReply(await ask(world.keys.ownerA, world.projectA, { distinct_id: "a", token: tokenB }), 403, NO_PROJECT_ACCESS)
      expectReply(await ask(world.keys.flagReadA, world.projectA, { distinct_id: "a" }), 200)
    }
  }
]
