import assert from "node:assert/strict"
import {
  conditionGroup,
  createFlag,
  filtersError,
  FLAGS,
  flagProperty,
  getFlag,
  listFlags,
  patchFlag,
  postFlag,
  projectOf,
  ROLE_ACCESS,
  uniqueKey
} from "./feature-flags-support.ts"
import { envelope, expectReply, invalid, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"

/**
 * Unusual or hostile requests to the flag endpoints, each held to its answer: none may answer 500 or
 * hold the server. Also the tenancy of a second project in the caller's own organization.
 */

const surrogate = (attr: string) =>
  envelope("validation_error", "surrogate_characters_not_allowed", "Surrogate characters are not allowed.", attr)

const dependingOn = (...ids: ReadonlyArray<number>) => ({ groups: [conditionGroup(ids.map((id) => flagProperty(String(id))))] })

export const featureFlagRegressionScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag list answers 200 for values no flag can hold: NUL in search or tags, creator ids beyond int4",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const token = uniqueKey("odd-query")
      const tagged = await createFlag(target, at, { key: token, tags: ["kept"], _should_create_usage_dashboard: false })
      const counts = async (query: Record<string, string>) => {
        const reply = await listFlags(target, at, query)
        expectReply(reply, 200)
        return reply.body.count
      }
      // None of these may reach PostgreSQL as it is, where each would fail and answer 500.
      assert.deepEqual(
        {
          nulSearch: await counts({ search: `${token}\u0000` }),
          nulTag: await counts({ search: token, tags: JSON.stringify(["\u0000"]) }),
          creatorPastInt4: await counts({ search: token, created_by_id: "9999999999" }),
          creatorJustPastInt4: await counts({ search: token, created_by_id: "2147483648" })
        },
        { nulSearch: 0, nulTag: 0, creatorPastInt4: 0, creatorJustPastInt4: 0 }
      )
      // A tag that cannot match does not hide the ones that can.
      const mixed = await listFlags(target, at, { search: token, tags: JSON.stringify(["x\u0000", "kept"]) })
      assert.deepEqual(mixed.body.results.map((flag: { id: number }) => flag.id), [tagged.id])
    }
  },
  {
    name: "a lone UTF-16 surrogate in any kept text of a flag body is 400, where jsonb refused it with a 500",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("surrogates"), name: "kept" })
      const cases: ReadonlyArray<readonly [Record<string, unknown>, string]> = [
        [{ name: "\ud800" }, "name"],
        [{ rollback_conditions: ["\udc00"] }, "rollback_conditions__0"],
        [{ filters: { groups: [{ properties: [{ key: "email\ud83d", type: "person", value: "x" }] }] } }, "filters__groups__0__properties__0__key"],
        [{ filters: { groups: [], payloads: { true: "\"\ud800\"" } } }, "filters__payloads__true"],
        [{ tags: ["ok", "\udfff"] }, "tags__1"]
      ]
      for (const [body, attr] of cases) {
        const created = await postFlag(target, at, { key: uniqueKey("s"), ...body })
        expectReply(created, 400, surrogate(attr))
        expectReply(await patchFlag(target, at, flag.id, body), 400, surrogate(attr))
      }
      // A well-formed pair is an ordinary character.
      const emoji = await patchFlag(target, at, flag.id, { name: "kept \ud83d\ude00" })
      expectReply(emoji, 200)
      assert.equal(emoji.body.name, "kept \u{1F600}")
      const activity = await target.call(FLAGS.activity, { key: at.key, params: { project_id: at.project, id: flag.id } })
      assert.deepEqual(activity.body.results.map((entry: { activity: string }) => entry.activity), ["updated", "created"])
    }
  },
  {
    name: "a flag tag longer than PostHog's 255 characters is 400 on its item, where the tags index refused it with a 500",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const longest = "t".repeat(255)
      const flag = await createFlag(target, at, { key: uniqueKey("tag-length"), tags: [longest] })
      assert.deepEqual(flag.tags, [longest])
      const tooLong = invalid("tags__1", "Ensure this field has no more than 255 characters.", "max_length")
      for (const tag of ["t".repeat(256), "x".repeat(3000)]) {
        const body = { tags: ["fine", tag] }
        expectReply(await postFlag(target, at, { key: uniqueKey("tag-length"), ...body }), 400, tooLong)
        expectReply(await patchFlag(target, at, flag.id, body), 400, tooLong)
      }
      expectReply(await getFlag(target, at, flag.id), 200, flag)
    }
  },
  {
    name: "flag dependencies shared by many flags are checked once each: 40 flags, each on its two predecessors",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      // Flag n has fib(n) paths to the first: a check that walked every path rather than every flag once
      // would make each create slow from a few dozen flags on.
      const flags: Array<{ id: number; key: string }> = []
      for (let i = 0; i < 40; i++) {
        const before = flags.slice(-2).map((flag) => flag.id)
        flags.push(await createFlag(target, at, { key: uniqueKey(`fib${i}`), filters: dependingOn(...before), _should_create_usage_dashboard: false }))
      }
      // The cycle PostHog's search meets first: through each flag's first dependency, back to the flag written.
      const through = flags.filter((_, i) => i % 2 === 1).reverse().map((flag) => flag.key)
      expectReply(
        await patchFlag(target, at, flags[0]!.id, { filters: dependingOn(flags[39]!.id) }),
        400,
        filtersError(`Circular dependency detected: ${[flags[0]!.key, ...through, flags[0]!.key].join(" → ")}`)
      )
    }
  },
  {
    name: "racing writes on one flag serialize: restore against create of its key, PATCH against soft delete, one role granted twice",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const at = { key: world.keys.ownerA, project: world.projectA }
      const key = uniqueKey("raced")
      const flag = await createFlag(target, at, { key, _should_create_usage_dashboard: false })

      const [patched, deleted] = await Promise.all([patchFlag(target, at, flag.id, { name: "renamed" }), patchFlag(target, at, flag.id, { deleted: true })])
      expectReply(patched, 200)
      expectReply(deleted, 200)
      const both = await getFlag(target, at, flag.id)
      assert.deepEqual([both.body.name, both.body.deleted, both.body.version], ["renamed", true, 3])

      // Whoever comes second finds the key taken; never two live flags with one key, never a 500.
      const [restored, created] = await Promise.all([
        patchFlag(target, at, flag.id, { deleted: false }),
        postFlag(target, at, { key })
      ])
      const outcome = `restore ${restored.status}, create ${created.status}`
      assert.ok(["restore 200, create 400", "restore 400, create 201"].includes(outcome), outcome)
      const holders = await listFlags(target, at, { search: key })
      assert.deepEqual(holders.body.results.map((live: { key: string }) => live.key), [key])

      const grants = await Promise.all([0, 1, 2].map(() =>
        target.call(ROLE_ACCESS.create, { key: at.key, params: { project_id: at.project, feature_flag_id: flag.id }, body: { role_id: world.roles.viewA } })))
      assert.deepEqual(grants.map((reply) => reply.status).sort(), [201, 400, 400])
      const listed = await target.call(ROLE_ACCESS.list, { key: at.key, params: { project_id: at.project, feature_flag_id: flag.id } })
      assert.equal(listed.body.count, 1)
    }
  },
  {
    name: "another project of the caller's own organization: its flags, grants, dashboards, cohorts and flags are foreign",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.ownerA
      const here = { key, project: world.projectA }
      const made = await target.call({ group: "organizationProjects", endpoint: "create" }, { key, params: { organization_id: world.orgA }, body: { name: "Second A project" } })
      expectReply(made, 201)
      const there = { key, project: made.body.id as number }
      const theirs = await createFlag(target, there, { key: uniqueKey("next-door") })
      const cohort = await target.call(FLAGS.createStaticCohort, { key, params: { project_id: there.project, id: theirs.id } })
      expectReply(cohort, 201)
      const grant = await target.call(ROLE_ACCESS.create, { key, params: { project_id: there.project, feature_flag_id: theirs.id }, body: { role_id: world.roles.editA } })
      expectReply(grant, 201)

      const onTheirs = { project_id: here.project, id: theirs.id }
      for (const ref of [FLAGS.retrieve, FLAGS.status, FLAGS.activity, FLAGS.accessControls, FLAGS.globalAccessControls]) {
        expectReply(await target.call(ref, { key, params: onTheirs }), 404, NOT_FOUND)
      }
      for (const ref of [FLAGS.dashboard, FLAGS.enrichUsageDashboard, FLAGS.createStaticCohort]) {
        expectReply(await target.call(ref, { key, params: onTheirs }), 404, NOT_FOUND)
      }
      expectReply(await patchFlag(target, here, theirs.id, { name: "reached" }), 404, NOT_FOUND)
      expectReply(await target.call(ROLE_ACCESS.list, { key, params: { project_id: here.project, feature_flag_id: theirs.id } }), 404, NOT_FOUND)
      const mine = await createFlag(target, here, { key: uniqueKey("this-side") })
      const onMine = { project_id: here.project, feature_flag_id: mine.id, id: grant.body.id }
      expectReply(await target.call(ROLE_ACCESS.retrieve, { key, params: onMine }), 404, NOT_FOUND)
      expectReply(await target.call(ROLE_ACCESS.destroy, { key, params: onMine }), 404, NOT_FOUND)

      const refused = async (body: Record<string, unknown>) =>
        target.call(FLAGS.create, { key, params: { project_id: here.project }, body: { key: uniqueKey("linking"), ...body } })
      expectReply(
        await refused({ analytics_dashboards: [theirs.usage_dashboard] }),
        400,
        invalid("analytics_dashboards", `Invalid pk "${theirs.usage_dashboard}" - object does not exist.`, "does_not_exist")
      )
      expectReply(
        await refused({ filters: { groups: [conditionGroup([{ key: "id", type: "cohort", value: cohort.body.cohort.id }])] } }),
        400,
        filtersError(`Cohort with id ${cohort.body.cohort.id} does not exist`, "cohort_does_not_exist")
      )
      expectReply(
        await refused({ filters: dependingOn(theirs.id) }),
        400,
        filtersError(`Flag dependency references non-existent flag with ID ${theirs.id}`)
      )
      // Untouched by all of it.
      const after = await getFlag(target, there, theirs.id)
      assert.deepEqual([after.body.name, after.body.version], [theirs.name, theirs.version])
    }
  }
]
