import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import { COHORTS, cohortFilter, cohortName, createCohort, person, properties } from "./cohorts-support.ts"
import {
  conditionGroup,
  createFlag,
  FLAGS,
  flagProperty,
  getFlag,
  listFlags,
  rolledOut,
  uniqueKey
} from "./feature-flags-support.ts"
import { denied, expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario, type ScenarioContext } from "./scenario.ts"

const COPY = { group: "flagCopy", endpoint: "copyFlags" } as const

const copy = (target: Target, key: string | undefined, organization: string, body: unknown) =>
  target.call(COPY, { key, params: { organization_id: organization }, body })

/** A new project of the organization, made over the API by its owner's key. */
const newProject = async (target: Target, key: string, organization: string): Promise<number> => {
  const reply = await target.call({ group: "organizationProjects", endpoint: "create" }, {
    key,
    params: { organization_id: organization },
    body: { name: uniqueKey("copy target") }
  })
  expectReply(reply, 201)
  return reply.body.id
}

/** The live flag of the project with this key (the list searched for it). */
const flagByKey = async (target: Target, at: { readonly key: string; readonly project: number }, flagKey: string): Promise<any> => {
  const reply = await listFlags(target, at, { search: flagKey })
  expectReply(reply, 200)
  return reply.body.results.find((flag: { key: string }) => flag.key === flagKey)
}

/** The live cohorts of the project named `name`. */
const cohortsNamed = async (target: Target, at: { readonly key: string; readonly project: number }, name: string): Promise<Array<any>> => {
  const reply = await target.call(COHORTS.list, { key: at.key, params: { project_id: at.project }, query: { search: name, limit: 1000 } })
  expectReply(reply, 200)
  return reply.body.results.filter((cohort: { name: string }) => cohort.name === name)
}

const SOURCE_MISSING = invalid(null, "Feature flag to copy does not exist.")

/**
 * Most scenarios copy as the owner of organization A, from a new project of A (so that the cohorts they make
 * stay out of the project other scenarios read), to `count` other new projects of A.
 */
const asOwnerOfA = async (context: ScenarioContext, count = 0) => {
  const world = needWorld(context)
  const owner = world.keys.ownerA
  const projects: Array<number> = []
  for (let i = 0; i <= count; i++) projects.push(await newProject(context.target, owner, world.orgA))
  const [home, ...targets] = projects
  return { target: context.target, world, owner, source: { key: owner, project: home! }, targets }
}

export const flagCopyScenarios: ReadonlyArray<Scenario> = [
  {
    name: "copy_flags creates the flag in a target and changes it in place where its key exists, as PostHog answers",
    needs: ["world"],
    run: async (context) => {
      const { target, world, owner, source, targets: [fresh, holding] } = await asOwnerOfA(context, 2)
      const key = uniqueKey("copied")
      const flag = await createFlag(target, source, {
        key,
        name: "Copied flag",
        filters: { ...rolledOut(65), payloads: { true: "{\"colour\": \"green\"}" } },
        ensure_experience_continuity: true,
        evaluation_runtime: "server"
      })
      const existing = await createFlag(target, { key: owner, project: holding }, { key, name: "Existing flag", filters: rolledOut(99) })

      const reply = await copy(target, owner, world.orgA, { feature_flag_key: key, from_project: source.project, target_project_ids: [fresh, holding] })
      expectReply(reply, 200)
      assert.deepEqual(reply.body.failed, [])
      const [created, changed] = reply.body.success
      for (const written of [created, changed]) {
        assert.equal(written.key, key)
        assert.equal(written.name, "Copied flag")
        assert.deepEqual(written.filters, flag.filters)
        assert.equal(written.active, true)
        assert.equal(written.ensure_experience_continuity, true)
        assert.equal(written.evaluation_runtime, "server")
        assert.equal(written.deleted, false)
      }
      assert.notEqual(created.id, flag.id)
      assert.equal(created.version, 1)
      // The target's flag keeps its id and counts one more version.
      assert.equal(changed.id, existing.id)
      assert.equal(changed.version, existing.version + 1)
      expectReply(await getFlag(target, { key: owner, project: fresh }, created.id), 200, created)
      expectReply(await getFlag(target, { key: owner, project: holding }, existing.id), 200, changed)
      // The source is untouched.
      expectReply(await getFlag(target, source, flag.id), 200, flag)

      // Copying again changes nothing but the version; `disable_copied_flag` writes it inactive.
      const again = await copy(target, owner, world.orgA, {
        feature_flag_key: key,
        from_project: source.project,
        target_project_ids: [fresh],
        disable_copied_flag: true,
        copy_schedule: true
      })
      expectReply(again, 200)
      assert.equal(again.body.success[0].id, created.id)
      assert.equal(again.body.success[0].active, false)
    }
  },
  {
    name: "copy_flags brings the cohorts the flag names, matched by name, and never changes the target's",
    needs: ["world"],
    run: async (context) => {
      const { target, world, owner, source, targets: [project] } = await asOwnerOfA(context, 1)
      const there = { key: owner, project: project! }
      const leafName = cohortName("leaf")
      const leaf = await createCohort(target, source, { name: leafName, filters: properties([person("plan", "pro")]) })
      const headName = cohortName("head")
      const head = await createCohort(target, source, { name: headName, description: "The head", filters: properties([cohortFilter(leaf.id)]) })
      const listName = cohortName("list")
      const list = await createCohort(target, source, { name: listName, is_static: true })
      // The target already has a cohort of the leaf's name, with another definition.
      const theirs = await createCohort(target, there, { name: leafName, filters: properties([person("plan", "free")]) })
      const key = uniqueKey("copied-cohorts")
      await createFlag(target, source, {
        key,
        filters: { groups: [conditionGroup([cohortFilter(head.id)]), conditionGroup([cohortFilter(list.id)])] }
      })

      const reply = await copy(target, owner, world.orgA, { feature_flag_key: key, from_project: source.project, target_project_ids: [there.project] })
      expectReply(reply, 200)
      assert.deepEqual(reply.body.failed, [])

      const [newHead] = await cohortsNamed(target, there, headName)
      const [newList] = await cohortsNamed(target, there, listName)
      assert.equal((await cohortsNamed(target, there, leafName)).length, 1)
      assert.ok(newHead !== undefined && newList !== undefined)
      assert.notEqual(newHead.id, head.id)
      assert.equal(newHead.description, "The head")
      // The head's definition, naming the target's own cohort of the leaf's name.
      const moved = structuredClone(head.filters)
      moved.properties.values[0].values[0].value = theirs.id
      assert.deepEqual(newHead.filters, moved)
      assert.equal(newList.is_static, true)
      // The target's own cohort is as it was.
      expectReply(await target.call(COHORTS.retrieve, { key: owner, params: { project_id: there.project, id: theirs.id } }), 200, theirs)
      const copied = reply.body.success[0]
      assert.deepEqual(copied.filters.groups.map((group: any) => group.properties[0].value), [newHead.id, newList.id])
      assert.deepEqual(await flagByKey(target, there, key), copied)
    }
  },
  {
    name: "copy_flags reports each target it cannot write in failed, with nothing of it written, and goes on",
    needs: ["world"],
    run: async (context) => {
      const { target, world, owner, source, targets: [good, bad] } = await asOwnerOfA(context, 2)
      // The flag depends on another flag: a target has it by key (the dependency is moved to its id there), the other not.
      const base = await createFlag(target, source, { key: uniqueKey("copy-base") })
      await createFlag(target, { key: owner, project: good }, { key: base.key })
      const baseThere = await flagByKey(target, { key: owner, project: good }, base.key)
      const name = cohortName("rolled back")
      const cohort = await createCohort(target, source, { name, filters: properties([person("plan", "pro")]) })
      const key = uniqueKey("copied-partly")
      await createFlag(target, source, {
        key,
        filters: { groups: [conditionGroup([flagProperty(String(base.id)), cohortFilter(cohort.id)])] }
      })
      const unknown = 2_000_000_000

      const reply = await copy(target, owner, world.orgA, {
        feature_flag_key: key,
        from_project: source.project,
        target_project_ids: [unknown, world.projectB, bad, good]
      })
      expectReply(reply, 200)
      assert.deepEqual(reply.body.failed, [
        { project_id: unknown, error_message: "Project not found." },
        { project_id: world.projectB, error_message: "Project not found." },
        { project_id: bad, error_message: `Flag dependency references non-existent flag with ID ${base.id}` }
      ])
      assert.equal(reply.body.success.length, 1)
      assert.equal(reply.body.success[0].filters.groups[0].properties[0].key, String(baseThere.id))
      // The failed target holds neither the flag nor the cohort made for it before the flag was refused.
      assert.equal(await flagByKey(target, { key: owner, project: bad }, key), undefined)
      assert.deepEqual(await cohortsNamed(target, { key: owner, project: bad }, name), [])
      assert.equal((await cohortsNamed(target, { key: owner, project: good }, name)).length, 1)
    }
  },
  {
    name: "copy_flags: 401 without a key, 403 without the scope, for a project-restricted key or without edit rights, 404 for other organizations",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = uniqueKey("copy-guarded")
      await createFlag(target, { key: world.keys.ownerA, project: world.projectA }, { key })
      const body = { feature_flag_key: key, from_project: world.projectA, target_project_ids: [world.projectA] }
      expectReply(await copy(target, undefined, world.orgA, body), 401, NOT_AUTHENTICATED)
      expectReply(await copy(target, world.keys.flagReadA, world.orgA, body), 403, missingScope("feature_flag:write"))
      expectReply(
        await copy(target, world.keys.bothScopedToProjectB, world.orgB, { ...body, from_project: world.projectB }),
        403,
        denied("API keys with scoped projects are only supported on project-based endpoints.")
      )
      expectReply(
        await copy(target, world.keys.bothScopedToB, world.orgA, body),
        403,
        denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      )
      // A member whose role can only view flags may not copy the owner's.
      expectReply(await copy(target, world.keys.memberA, world.orgA, body), 403, denied("You do not have permission to copy this flag."))
      expectReply(await copy(target, world.keys.ownerA, world.orgB, body), 404, NOT_FOUND)
      expectReply(await copy(target, world.keys.ownerA, "00000000-0000-4000-8000-000000000000", body), 404, NOT_FOUND)
      expectReply(await copy(target, world.keys.ownerA, "not-a-uuid", body), 404, NOT_FOUND)
      // Another organization's project, or a flag that is not there, is PostHog's 400.
      expectReply(await copy(target, world.keys.ownerA, world.orgA, { ...body, from_project: world.projectB }), 400, SOURCE_MISSING)
      expectReply(await copy(target, world.keys.ownerA, world.orgA, { ...body, feature_flag_key: uniqueKey("absent") }), 400, SOURCE_MISSING)
      const deleted = await createFlag(target, { key: world.keys.ownerA, project: world.projectA }, { key: uniqueKey("copy-deleted") })
      expectReply(await target.call(FLAGS.update, { key: world.keys.ownerA, params: { project_id: world.projectA, id: deleted.id }, body: { deleted: true } }), 200)
      expectReply(await copy(target, world.keys.ownerA, world.orgA, { ...body, feature_flag_key: deleted.key }), 400, SOURCE_MISSING)
    }
  },
  {
    name: "copy_flags fails a target whose flag of that key the caller may not edit, and writes the others",
    needs: ["world"],
    run: async (context) => {
      const { target, world, owner, targets: [theirs, open] } = await asOwnerOfA(context, 2)
      // A member whose role can only view flags may edit the flags they made, so may copy one of theirs...
      const member = world.keys.memberA
      const key = uniqueKey("member-copied")
      await createFlag(target, { key: member, project: world.projectA }, { key, filters: rolledOut(10) })
      // ...but not onto the owner's flag of that key in another project.
      const owners = await createFlag(target, { key: owner, project: theirs! }, { key, filters: rolledOut(90) })
      const reply = await copy(target, member, world.orgA, { feature_flag_key: key, from_project: world.projectA, target_project_ids: [theirs, open] })
      expectReply(reply, 200)
      assert.deepStrictEqual(reply.body.failed, [{ project_id: theirs, error_message: "You do not have permission to copy flags to this project." }])
      assert.equal(reply.body.success.length, 1)
      assert.deepEqual(reply.body.success[0].filters, rolledOut(10))
      expectReply(await getFlag(target, { key: owner, project: theirs! }, owners.id), 200, owners)
    }
  },
  {
    name: "copy_flags refuses each broken field with PostHog's message, before reading any flag",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const owner = world.keys.ownerA
      const body = { feature_flag_key: "any", from_project: world.projectA, target_project_ids: [world.projectA] }
      const cases: ReadonlyArray<readonly [unknown, unknown]> = [
        [{}, invalid("feature_flag_key", "This field is required.", "required")],
        [{ ...body, feature_flag_key: null }, invalid("feature_flag_key", "This field may not be null.", "null")],
        [{ ...body, feature_flag_key: "  " }, invalid("feature_flag_key", "This field may not be blank.", "blank")],
        [{ ...body, feature_flag_key: ["a"] }, invalid("feature_flag_key", "Not a valid string.")],
        [{ feature_flag_key: "any", target_project_ids: [1] }, invalid("from_project", "This field is required.", "required")],
        [{ ...body, from_project: "one" }, invalid("from_project", "A valid integer is required.")],
        [{ ...body, from_project: 1.5 }, invalid("from_project", "A valid integer is required.")],
        [{ feature_flag_key: "any", from_project: 1 }, invalid("target_project_ids", "This field is required.", "required")],
        [{ ...body, target_project_ids: 7 }, invalid("target_project_ids", "Expected a list of items but got type \"int\".", "not_a_list")],
        [{ ...body, target_project_ids: [] }, invalid("target_project_ids", "Ensure this field has at least 1 elements.", "min_length")],
        [
          { ...body, target_project_ids: Array.from({ length: 51 }, (_, i) => i + 1) },
          invalid("target_project_ids", "Ensure this field has no more than 50 elements.", "max_length")
        ],
        [{ ...body, target_project_ids: [1, "two"] }, invalid("target_project_ids__1", "A valid integer is required.")],
        [{ ...body, copy_schedule: "sometimes" }, invalid("copy_schedule", "Must be a valid boolean.")],
        [{ ...body, disable_copied_flag: [] }, invalid("disable_copied_flag", "Must be a valid boolean.")],
        [
          { ...body, copy_dependencies: true },
          invalid(
            "copy_dependencies",
            "Copying a flag's dependencies is not supported: create the flags it depends on in each target first (they are matched by key)."
          )
        ],
        [[body], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
      ]
      for (const [sent, refusal] of cases) expectReply(await copy(target, owner, world.orgA, sent), 400, refusal)
      // A target list far past its bound is refused without reading its items.
      expectReply(
        await copy(target, owner, world.orgA, { ...body, target_project_ids: Array.from({ length: 100_000 }, () => "x") }),
        400,
        invalid("target_project_ids", "Ensure this field has no more than 50 elements.", "max_length")
      )
    }
  }
]
