import assert from "node:assert/strict"
import {
  COHORT_FIELDS,
  COHORTS,
  cohortCall,
  cohortName,
  createCohort,
  createStatic,
  group,
  patchCohort,
  person,
  properties
} from "./cohorts-support.ts"
import { HARD_DELETE, linkOf, projectOf, TIMESTAMP } from "./feature-flags-support.ts"
import { expectReply, NOT_FOUND, type Scenario } from "./scenario.ts"

const at = (context: Parameters<Scenario["run"]>[0]) => ({ key: context.primary.key, project: projectOf(context) })

/** A person filter as PostHog stores it: its operator and value, and `negation` false unless given. */
const dumped = (filter: object) => ({ negation: false, ...filter })

export const cohortScenarios: ReadonlyArray<Scenario> = [
  {
    name: "cohort create answers 201 with PostHog's fields, the filters as its model dumps them; retrieve, PATCH, PUT, soft delete and restore follow, each logged",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const name = cohortName("lifecycle")
      const created = await createCohort(target, where, {
        name: `  ${name} `,
        description: "Paying people",
        filters: properties([person("plan", ["pro"]), { ...person("email", "@example.com", "icontains"), negation: "yes", conditionHash: "x" }]),
        id: 99999,
        count: 12,
        is_calculating: true,
        cohort_type: "realtime"
      })
      assert.deepEqual(Object.keys(created), COHORT_FIELDS)
      assert.notEqual(created.id, 99999)
      assert.equal(created.name, name)
      assert.deepEqual(created.filters, properties([dumped(person("plan", ["pro"])), { ...person("email", "@example.com", "icontains"), negation: true }]))
      assert.deepEqual(
        [created.description, created.groups, created.deleted, created.query, created.version, created.pending_version, created.is_calculating],
        ["Paying people", [], false, null, null, null, false]
      )
      assert.deepEqual(
        [created.last_calculation, created.errors_calculating, created.last_error_message, created.count, created.is_static, created.cohort_type, created.experiment_set],
        [null, 0, null, null, false, null, []]
      )
      assert.match(created.created_at, TIMESTAMP)
      assert.equal(typeof created.created_by.email, "string")

      expectReply(await target.call(COHORTS.retrieve, cohortCall(where, created.id)), 200, created)
      const renamed = await patchCohort(target, where, created.id, { name: `${name} renamed`, description: "" })
      expectReply(renamed, 200, { ...created, name: `${name} renamed`, description: "" })
      const replaced = await target.call(COHORTS.replace, cohortCall(where, created.id, { body: { filters: properties([person("plan", "team")]) } }))
      expectReply(replaced, 200, { ...renamed.body, filters: properties([dumped(person("plan", "team"))]) })

      expectReply(await target.call(COHORTS.destroy, cohortCall(where, created.id)), 405, HARD_DELETE)
      const deleted = await patchCohort(target, where, created.id, { deleted: true })
      expectReply(deleted, 200, { ...replaced.body, deleted: true })
      const listed = await target.call(COHORTS.list, { key: where.key, params: { project_id: where.project }, query: { search: name } })
      expectReply(listed, 200)
      assert.deepEqual(listed.body.results, [])
      expectReply(await target.call(COHORTS.retrieve, cohortCall(where, created.id)), 200, deleted.body)
      expectReply(await patchCohort(target, where, created.id, { deleted: false }), 200, replaced.body)

      const activity = await target.call(COHORTS.activity, cohortCall(where, created.id))
      expectReply(activity, 200)
      const entries = activity.body.results
      assert.deepEqual(entries.map((entry: { activity: string }) => entry.activity), ["restored", "deleted", "updated", "updated", "created"])
      assert.deepEqual(entries.map((entry: any) => [entry.scope, entry.item_id]), entries.map(() => ["Cohort", String(created.id)]))
      assert.deepEqual(entries[4].detail.changes, null)
      assert.equal(entries[4].detail.name, name)
      assert.deepEqual(entries[3].detail.changes, [
        { type: "Cohort", action: "changed", field: "name", before: name, after: `${name} renamed` },
        { type: "Cohort", action: "deleted", field: "description", before: "Paying people", after: null }
      ])
      assert.deepEqual(entries[2].detail.changes.map((change: { field: string }) => change.field), ["filters"])
      assert.deepEqual(entries[1].detail.changes, [{ type: "Cohort", action: "changed", field: "deleted", before: false, after: true }])
      const everywhere = await target.call(COHORTS.projectActivity, { key: where.key, params: { project_id: where.project }, query: { limit: 5 } })
      expectReply(everywhere, 200)
      assert.deepEqual(everywhere.body.results.map((entry: { id: string }) => entry.id), entries.map((entry: { id: string }) => entry.id))
    }
  },
  {
    name: "a cohort may be nameless; its legacy groups answer as PostHog's filters, an OR of each group's properties",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const legacy = [{ properties: [{ key: "plan", value: "pro", type: "person" }] }, { properties: [{ key: "email", value: "x", operator: "icontains" }] }]
      const created = await createCohort(target, where, { name: null, groups: legacy })
      assert.equal(created.name, null)
      assert.deepEqual(created.groups, legacy)
      assert.deepEqual(created.filters, { properties: group("OR", group("AND", legacy[0]!.properties[0]), group("AND", legacy[1]!.properties[0])) })
      // A static cohort without filters has an empty property group, as PostHog answers it.
      const listed = await createStatic(target, where, [])
      assert.deepEqual(listed.filters, { properties: {} })
      assert.deepEqual([listed.count, listed.cohort_type], [0, "static"])
    }
  },
  {
    name: "the cohort list pages newest first, 100 by default, and filters by type, created_by_id, search, hide_behavioral_cohorts and basic",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      const stem = cohortName("listing")
      const made = []
      for (const [i, body] of [
        { filters: properties([person("plan", "pro")]) },
        { is_static: true },
        { filters: properties([{ type: "behavioral", key: "$pageview", value: "performed_event", event_type: "events" }]) },
        { filters: properties([person("plan", "team")]) }
      ].entries()) {
        made.push(await createCohort(target, where, { name: `${stem} ${i}`, ...body }))
      }
      // Naming the behavioral cohort hides this one too.
      const naming = await createCohort(target, where, { name: `${stem} 4`, filters: properties([{ type: "cohort", key: "id", value: made[2].id }]) })
      made.push(naming)
      const list = (query: Record<string, string | number>) =>
        target.call(COHORTS.list, { key: where.key, params: { project_id: where.project }, query: { search: stem, ...query } })
      const ids = (reply: { body: { results: ReadonlyArray<{ id: number }> } }) => reply.body.results.map((cohort) => cohort.id)
      const all = await list({})
      expectReply(all, 200)
      assert.equal(all.body.count, 5)
      assert.deepEqual(ids(all), made.map((cohort) => cohort.id).reverse())
      assert.deepEqual(all.body.results[0], naming)

      const paged = await list({ limit: 2, offset: 2 })
      assert.deepEqual(ids(paged), [made[2].id, made[1].id])
      assert.deepEqual(linkOf(paged.body.next), { path: `/api/projects/${where.project}/cohorts/`, query: { limit: "2", offset: "4", search: stem } })
      assert.deepEqual(linkOf(paged.body.previous), { path: `/api/projects/${where.project}/cohorts/`, query: { limit: "2", search: stem } })

      assert.deepEqual(ids(await list({ type: "static" })), [made[1].id])
      assert.deepEqual(ids(await list({ type: "dynamic" })), [made[4].id, made[3].id, made[2].id, made[0].id])
      assert.deepEqual(ids(await list({ type: "other" })).length, 5)
      assert.deepEqual(ids(await list({ hide_behavioral_cohorts: "true" })), [made[3].id, made[1].id, made[0].id])
      assert.deepEqual(ids(await list({ search: `${stem} 3`.toUpperCase() })), [made[3].id])
      assert.deepEqual(ids(await list({ created_by_id: created_by(made[0]) })).length, 5)
      assert.deepEqual(ids(await list({ created_by_id: "nobody" })), [])
      // Stored names never hold NUL: a search holding one matches nothing (PostgreSQL could not even compare it).
      expectReply(await list({ search: `${stem}\u0000` }), 200, { count: 0, next: null, previous: null, results: [] })
      const basic = await list({ basic: "true" })
      assert.deepEqual(Object.keys(basic.body.results[0]), COHORT_FIELDS.filter((field) => !["groups", "filters", "query"].includes(field)))
      expectReply(await list({ search: "s".repeat(201) }), 400, {
        type: "validation_error",
        code: "invalid",
        detail: "Search query must be 200 characters or fewer.",
        attr: "search"
      })
    }
  },
  {
    name: "cohort ids that do not name a cohort of the project are 404 on every cohort endpoint",
    run: async (context) => {
      const { target } = context
      const where = at(context)
      for (const id of ["999999999", "abc", "0", "-1", "99999999999"]) {
        for (const endpoint of [COHORTS.retrieve, COHORTS.persons, COHORTS.activity]) {
          expectReply(await target.call(endpoint, cohortCall(where, id)), 404, NOT_FOUND)
        }
        for (const endpoint of [COHORTS.update, COHORTS.replace]) {
          expectReply(await target.call(endpoint, cohortCall(where, id, { body: { name: "x" } })), 404, NOT_FOUND)
        }
        expectReply(await target.call(COHORTS.addPersons, cohortCall(where, id, { body: { person_ids: ["x"] } })), 404, NOT_FOUND)
        expectReply(await target.call(COHORTS.removePerson, cohortCall(where, id, { body: { person_id: "x" } })), 404, NOT_FOUND)
      }
    }
  }
]

const created_by = (cohort: { created_by: { id: number } | null }) => String(cohort.created_by?.id ?? "")
