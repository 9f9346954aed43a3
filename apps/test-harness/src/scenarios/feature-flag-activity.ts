import assert from "node:assert/strict"
import { createFlag, FLAGS, patchFlag, projectOf, rolledOut, TIMESTAMP, uniqueKey } from "./feature-flags-support.ts"
import { expectReply, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"

interface Change {
  readonly type: string
  readonly action: string
  readonly field: string | null
  readonly before: unknown
  readonly after: unknown
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** An activity page link: its path and its `page`/`limit` (activity pages by number, not offset). */
const pageLink = (url: string | null) => {
  if (url === null) return null
  const parsed = new URL(url)
  return { path: parsed.pathname.replace(/\/$/, ""), page: parsed.searchParams.get("page"), limit: parsed.searchParams.get("limit") }
}

const changeOf = (entry: { detail: { changes: ReadonlyArray<Change> | null } }, field: string) => {
  const change = entry.detail.changes?.find((c) => c.field === field)
  assert.ok(change, `the entry records a change of ${field}: ${JSON.stringify(entry.detail.changes)}`)
  return change
}

/** Activity entries, in PostHog's shape: one per create, change, soft delete and restore, newest first, page-paginated. */
export const featureFlagActivityScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag activity records create, field-level updates, soft delete and restore, newest first",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      const flag = await createFlag(target, at, { key: uniqueKey("history"), name: "first", filters: rolledOut(10) })
      expectReply(await patchFlag(target, at, flag.id, { name: "second" }), 200)
      expectReply(await patchFlag(target, at, flag.id, { filters: rolledOut(60) }), 200)
      expectReply(await patchFlag(target, at, flag.id, { deleted: true }), 200)
      expectReply(await patchFlag(target, at, flag.id, { deleted: false }), 200)

      const reply = await target.call(FLAGS.activity, { key: at.key, params: { project_id: at.project, id: flag.id } })
      expectReply(reply, 200)
      assert.deepEqual(Object.keys(reply.body).sort(), ["next", "previous", "results", "total_count"])
      assert.deepEqual([reply.body.total_count, reply.body.next, reply.body.previous], [5, null, null])
      const [restored, deleted, filters, renamed, created] = reply.body.results
      for (const entry of reply.body.results) {
        assert.match(entry.id, UUID)
        assert.equal(entry.scope, "FeatureFlag")
        assert.equal(entry.item_id, String(flag.id))
        assert.equal(entry.user.email, me.body.email)
        assert.equal(entry.user.first_name, me.body.first_name)
        assert.match(entry.created_at, TIMESTAMP)
        assert.equal(entry.detail.name, flag.key)
        for (const field of ["changes", "merge", "trigger", "name", "short_id", "type"]) assert.ok(field in entry.detail, `detail has ${field}`)
      }
      assert.equal(created.activity, "created")
      assert.ok(created.detail.changes === null || created.detail.changes.length === 0, "a created entry has no field changes")
      assert.equal(renamed.activity, "updated")
      assert.deepEqual(changeOf(renamed, "name"), { type: "FeatureFlag", action: "changed", field: "name", before: "first", after: "second" })
      assert.equal(filters.activity, "updated")
      const filtersChange = changeOf(filters, "filters") as { before: any; after: any }
      assert.deepEqual([filtersChange.before.groups[0].rollout_percentage, filtersChange.after.groups[0].rollout_percentage], [10, 60])
      assert.equal(deleted.activity, "deleted")
      assert.deepEqual([changeOf(deleted, "deleted").before, changeOf(deleted, "deleted").after], [false, true])
      // PostHog logs a restore as "updated" in some releases and "restored" in others; either way it says what changed.
      assert.ok(["restored", "updated"].includes(restored.activity), restored.activity)
      assert.deepEqual([changeOf(restored, "deleted").before, changeOf(restored, "deleted").after], [true, false])
      assert.ok(renamed.created_at <= filters.created_at && filters.created_at <= deleted.created_at)
    }
  },
  {
    name: "flag activity pages with page and limit (default 10) and absolute links",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const flag = await createFlag(target, at, { key: uniqueKey("pages"), name: "0" })
      for (let i = 1; i <= 11; i++) expectReply(await patchFlag(target, at, flag.id, { name: String(i) }), 200)
      const params = { project_id: at.project, id: flag.id }
      const path = `/api/projects/${at.project}/feature_flags/${flag.id}/activity`
      const first = await target.call(FLAGS.activity, { key: at.key, params })
      assert.deepEqual([first.body.total_count, first.body.results.length], [12, 10])
      assert.deepEqual(pageLink(first.body.next), { path, page: "2", limit: "10" })
      assert.equal(first.body.previous, null)
      assert.equal(changeOf(first.body.results[0], "name").after, "11")

      const second = await target.call(FLAGS.activity, { key: at.key, params, query: { page: 2, limit: 5 } })
      assert.deepEqual(second.body.results.map((e: { detail: { changes: Array<Change> } }) => changeOf(e, "name").after), ["6", "5", "4", "3", "2"])
      assert.deepEqual(pageLink(second.body.next), { path, page: "3", limit: "5" })
      assert.deepEqual(pageLink(second.body.previous), { path, page: "1", limit: "5" })
      const last = await target.call(FLAGS.activity, { key: at.key, params, query: { page: 3, limit: 5 } })
      assert.equal(last.body.results.length, 2)
      assert.equal(last.body.results[1].activity, "created")
      assert.equal(last.body.next, null)
    }
  },
  {
    name: "project flag activity lists every flag's entries of the project, newest first",
    run: async (context) => {
      const { target, primary } = context
      const at = { key: primary.key, project: projectOf(context) }
      const one = await createFlag(target, at, { key: uniqueKey("project-activity") })
      const two = await createFlag(target, at, { key: uniqueKey("project-activity") })
      expectReply(await patchFlag(target, at, one.id, { name: "changed" }), 200)
      const reply = await target.call(FLAGS.projectActivity, { key: at.key, params: { project_id: at.project }, query: { limit: 3 } })
      expectReply(reply, 200)
      assert.ok(reply.body.total_count >= 3)
      assert.deepEqual(
        reply.body.results.map((e: { activity: string; item_id: string }) => [e.activity, e.item_id]),
        [["updated", String(one.id)], ["created", String(two.id)], ["created", String(one.id)]]
      )
      assert.ok(reply.body.results.every((e: { scope: string }) => e.scope === "FeatureFlag"))
      const next = pageLink(reply.body.next)
      assert.deepEqual(next, { path: `/api/projects/${at.project}/feature_flags/activity`, page: "2", limit: "3" })
    }
  },
  {
    name: "flag activity of another project's flag is 404; project activity shows only its own project",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const foreign = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("foreign-activity") })
      expectReply(
        await target.call(FLAGS.activity, { key: world.keys.ownerA, params: { project_id: world.projectA, id: foreign.id } }),
        404,
        NOT_FOUND
      )
      const own = await target.call(FLAGS.projectActivity, { key: world.keys.ownerA, params: { project_id: world.projectA }, query: { limit: 100 } })
      assert.ok(own.body.results.every((e: { item_id: string }) => e.item_id !== String(foreign.id)))
      const theirs = await target.call(FLAGS.projectActivity, { key: world.keys.ownerB, params: { project_id: world.projectB }, query: { limit: 1 } })
      assert.equal(theirs.body.results[0].item_id, String(foreign.id))
    }
  }
]
