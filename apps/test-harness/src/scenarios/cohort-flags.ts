import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import {
  type At,
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
  properties,
  refusal
} from "./cohorts-support.ts"
import { conditionGroup, createFlag, FLAGS, patchFlag, uniqueKey } from "./feature-flags-support.ts"
import { askEach, tokenOf } from "./flag-definitions.ts"
import { askFlags } from "./flag-evaluation.ts"
import { expectReply, needWorld, type Scenario, type ScenarioContext } from "./scenario.ts"

/**
 * Flags on cohorts, each scenario in a project of its own: other scenarios read their project's
 * definitions whole, and these add cohorts to them.
 */
const freshProject = async (context: ScenarioContext): Promise<At & { readonly token: string }> => {
  const world = needWorld(context)
  const reply = await context.target.call(
    { group: "organizationProjects", endpoint: "create" },
    { key: world.keys.ownerA, params: { organization_id: world.orgA }, body: { name: uniqueKey("cohort flags") } }
  )
  expectReply(reply, 201)
  const project = reply.body.id as number
  return { key: world.keys.ownerA, project, token: await tokenOf(context.target, world.keys.ownerA, project) }
}

/** PostHog's refusal to delete a cohort that other live cohorts name. */
const namedByCohorts = (...names: ReadonlyArray<string>) =>
  refusal(
    `This cohort is used as criteria in ${names.length} other cohort(s): ${names.join(", ")}. Please remove this cohort from those cohort definitions before deleting it.`
  )

const onCohort = (id: number, operator?: string) => ({ ...cohortFilter(id), ...(operator === undefined ? {} : { operator }) })

/** A flag on for whoever the properties take in, in one condition. */
const flagOn = (target: Target, where: At, ...filters: ReadonlyArray<unknown>) =>
  createFlag(target, where, { key: uniqueKey("on-cohort"), filters: { groups: [conditionGroup(filters)] } })

/** Each flag's value for a person, as `/flags` answers a server. */
const valuesFor = async (target: Target, token: string, distinct_id: string, person_properties: object, flags: ReadonlyArray<{ key: string }>) => {
  const reply = await askFlags(
    target,
    { token, distinct_id, person_properties, flag_keys_to_evaluate: flags.map((flag) => flag.key), evaluation_runtime: "server" },
    { v: "2" }
  )
  expectReply(reply, 200)
  return flags.map((flag) => reply.body.flags[flag.key]?.enabled)
}

export const cohortFlagScenarios: ReadonlyArray<Scenario> = [
  {
    name: "/flags evaluates flags on cohorts: dynamic ones from their definitions (nested, negated, AND and OR), static ones by the request's distinct id",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const where = await freshProject(context)
      const listed = await createStatic(target, where, ["insider", "pro-insider"])
      const pros = await createCohort(target, where, { filters: properties([person("plan", "pro")], [person("email", "@example.com", "icontains")]) })
      const notListedPros = await createCohort(target, where, {
        filters: { properties: group("AND", group("AND", cohortFilter(pros.id), { ...cohortFilter(listed.id), negation: true }), group("OR", person("age", 18, "gte"))) }
      })
      const flags = [
        await flagOn(target, where, onCohort(listed.id)),
        await flagOn(target, where, onCohort(listed.id, "not_in")),
        await flagOn(target, where, onCohort(pros.id)),
        await flagOn(target, where, onCohort(notListedPros.id))
      ]
      assert.deepEqual(await valuesFor(target, where.token, "insider", {}, flags), [true, false, false, false])
      assert.deepEqual(await valuesFor(target, where.token, "outsider", { plan: "pro", age: 30 }, flags), [false, true, true, true])
      assert.deepEqual(await valuesFor(target, where.token, "pro-insider", { plan: "pro", age: 30 }, flags), [true, false, true, false])
      assert.deepEqual(await valuesFor(target, where.token, "young", { email: "y@example.com", age: 12 }, flags), [false, true, true, false])
      // The list is read per request: a member added is in at once.
      expectReply(await target.call(COHORTS.addPersons, cohortCall(where, listed.id, { body: { person_ids: ["outsider"] } })), 200)
      assert.deepEqual(await valuesFor(target, where.token, "outsider", { plan: "pro", age: 30 }, flags), [true, false, true, false])
      expectReply(await target.call(COHORTS.removePerson, cohortCall(where, listed.id, { body: { person_id: "insider" } })), 200)
      assert.deepEqual(await valuesFor(target, where.token, "insider", {}, flags), [false, true, false, false])
    }
  },
  {
    name: "a static cohort's member has at most 200 characters, as /flags reads a distinct id: a longer one is read cut and matches; NUL matches no list, never a 500",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const where = await freshProject(context)
      // 200 code points in 350 UTF-16 units: characters are counted alike on both sides.
      const long = `${"🙂".repeat(150)}${"x".repeat(50)}`
      const listed = await createStatic(target, where, [long, "a"])
      const flags = [await flagOn(target, where, onCohort(listed.id))]
      assert.deepEqual(await valuesFor(target, where.token, long, {}, flags), [true])
      assert.deepEqual(await valuesFor(target, where.token, `${long} and more`, {}, flags), [true])
      assert.deepEqual(await valuesFor(target, where.token, long.slice(0, -1), {}, flags), [false])
      assert.deepEqual(await valuesFor(target, where.token, "a\u0000", {}, flags), [false])
      const reasons = await target.call(FLAGS.evaluationReasons, { key: where.key, params: { project_id: where.project }, query: { distinct_id: "a\u0000" } })
      expectReply(reasons, 200)
      assert.deepEqual(reasons.body[flags[0]!.key], { value: false, evaluation: { reason: "no_condition_match", condition_index: 0 } })
    }
  },
  {
    name: "the definitions send the dynamic cohorts the flags reach, not static ones, and any cohort change moves their ETag",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const where = await freshProject(context)
      const listed = await createStatic(target, where, ["anna"])
      const inner = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      const outer = await createCohort(target, where, { filters: properties([cohortFilter(inner.id), cohortFilter(listed.id)]) })
      await createCohort(target, where, { filters: properties([person("plan", "unused")]) })
      await flagOn(target, where, onCohort(outer.id))
      const ask = () => askEach(target, { key: where.key, token: where.token, sendCohorts: true })
      const [first] = await ask()
      expectReply(first!, 200)
      assert.deepEqual(first!.body.cohorts, { [inner.id]: inner.filters.properties, [outer.id]: outer.filters.properties })
      const etag = first!.headers?.["etag"]
      assert.ok(etag !== undefined)
      // Members are not part of the definitions: adding one leaves the answer as it was.
      expectReply(await target.call(COHORTS.addPersons, cohortCall(where, listed.id, { body: { person_ids: ["bob"] } })), 200)
      const [same] = await ask()
      assert.deepEqual(same!.body, first!.body)
      expectReply(await patchCohort(target, where, inner.id, { filters: properties([person("plan", "team")]) }), 200)
      const [changed] = await ask()
      assert.notEqual(changed!.headers?.["etag"], etag)
      assert.deepEqual(changed!.body.cohorts[inner.id], properties([{ ...person("plan", "team"), negation: false }]).properties)
    }
  },
  {
    name: "a cohort an active flag uses, itself or through another cohort, cannot be deleted (PostHog's 400); nor one another cohort names",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const where = await freshProject(context)
      const inner = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      const outer = await createCohort(target, where, { filters: properties([cohortFilter(inner.id)]) })
      const named = await createFlag(target, where, { key: uniqueKey("uses-outer"), name: "Outer users", filters: { groups: [conditionGroup([onCohort(outer.id)])] } })
      const keyed = await flagOn(target, where, onCohort(outer.id))
      const used = (id: number) => patchCohort(target, where, id, { deleted: true })
      const message = `This cohort is used in 2 active feature flag(s): Outer users, ${keyed.key}. Please remove the cohort from these feature flags before deleting it.`
      expectReply(await used(outer.id), 400, refusal(message))
      expectReply(await used(inner.id), 400, refusal(message))
      // Inactive and deleted flags do not hold a cohort.
      expectReply(await patchFlag(target, where, named.id, { active: false }), 200)
      expectReply(await patchFlag(target, where, keyed.id, { deleted: true }), 200)
      expectReply(await used(inner.id), 400, namedByCohorts(outer.name))
      expectReply(await used(outer.id), 200)
      expectReply(await used(inner.id), 200)
      expectReply(await target.call(FLAGS.retrieve, { key: where.key, params: { project_id: where.project, id: named.id } }), 200)
    }
  },
  {
    name: "a cohort named through another's legacy groups, or by its id as text, cannot be deleted either (PostHog's 400)",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const where = await freshProject(context)
      const inner = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      // Legacy groups are kept as given: the reference is read as the reference rule reads it, text holding an id included.
      const byText = await createCohort(target, where, { groups: [{ properties: [{ type: "cohort", key: "id", value: String(inner.id) }] }] })
      const byNumber = await createCohort(target, where, { groups: [{ properties: [cohortFilter(inner.id)] }] })
      const used = (id: number) => patchCohort(target, where, id, { deleted: true })
      expectReply(await used(inner.id), 400, namedByCohorts(byText.name, byNumber.name))
      expectReply(await used(byNumber.id), 200)
      expectReply(await used(inner.id), 400, namedByCohorts(byText.name))
      expectReply(await used(byText.id), 200)
      expectReply(await used(inner.id), 200)
    }
  },
  {
    name: "a cohort active flags use cannot take filters on events, itself or through a cohort it names, nor when a static one turns dynamic",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const where = await freshProject(context)
      const event = { type: "behavioral", key: "$pageview", value: "performed_event", event_type: "events" }
      const used = await createCohort(target, where, { filters: properties([person("plan", "pro")]) })
      const behavioral = await createCohort(target, where, { name: cohortName("events"), filters: properties([event]) })
      const turned = await createStatic(target, where, ["anna"])
      await flagOn(target, where, onCohort(used.id))
      await flagOn(target, where, onCohort(turned.id))
      expectReply(
        await patchCohort(target, where, used.id, { filters: properties([event]) }),
        400,
        filtersRefusal("Behavioral filters cannot be added to cohorts used in feature flags.", "behavioral_cohort_found")
      )
      expectReply(
        await patchCohort(target, where, used.id, { filters: properties([cohortFilter(behavioral.id)]) }),
        400,
        filtersRefusal(`A cohort dependency (${behavioral.name}) has filters based on events. These cohorts can't be used in feature flags.`, "behavioral_cohort_found")
      )
      // A static cohort turning dynamic: what it keeps (here its legacy groups) is checked, as PostHog checks it.
      expectReply(
        await patchCohort(target, where, turned.id, { is_static: false, groups: [{ properties: [event] }] }),
        400,
        { type: "validation_error", code: "behavioral_cohort_found", detail: "Behavioral filters cannot be added to cohorts used in feature flags.", attr: null }
      )
      // An unused cohort may filter on events; the flags refuse it instead.
      expectReply(await patchCohort(target, where, behavioral.id, { description: "events are fine here" }), 200)
      expectReply(await patchCohort(target, where, turned.id, { is_static: false, filters: properties([person("plan", "pro")]) }), 200)
      expectReply(await target.call(COHORTS.retrieve, cohortCall(where, used.id)), 200, used)
    }
  }
]
