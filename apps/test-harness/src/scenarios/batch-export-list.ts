import assert from "node:assert/strict"
import { BAD_KEY, denied, envelope, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, pathOf, type Scenario } from "./scenario.ts"

const list = { group: "batchExports", endpoint: "list" } as const
const retrieve = { group: "batchExports", endpoint: "retrieve" } as const
const pause = { group: "batchExports", endpoint: "pause" } as const
const unpause = { group: "batchExports", endpoint: "unpause" } as const

/** The fields of PostHog's batch export that the store holds (no runs, schema, filters or last_updated_at). */
const FIELDS = [
  "created_at", "destination", "end_at", "hogql_query", "id", "interval", "last_paused_at", "model", "name", "paused", "start_at", "team_id"
]
const MICROSECONDS_Z = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const UNKNOWN = "00000000-0000-4000-8000-000000000000"

const exportNotFound = (id: string) => envelope("invalid_request", "not_found", `BatchExport ID '${id}' not found.`)

export const batchExportListScenarios: ReadonlyArray<Scenario> = [
  {
    name: "batch export list is newest first with the stored fields, and retrieve answers the same export",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const org = { organization_id: world.orgA }
      const all = await target.call(list, { key: world.keys.ownerA, params: org })
      expectReply(all, 200)
      assert.equal(all.body.count, 2)
      assert.deepEqual(all.body.results.map((e: { id: string }) => e.id), [world.batchExports.newerA, world.batchExports.a])
      const [newer, older] = all.body.results
      assert.deepEqual(Object.keys(newer).sort(), FIELDS)
      assert.deepEqual(
        [newer.team_id, newer.name, newer.model, newer.interval, newer.destination, newer.hogql_query, newer.start_at, newer.end_at],
        [world.projectA, "Alpha persons", "persons", "hour", {}, "", null, null]
      )
      assert.match(newer.created_at, MICROSECONDS_Z)
      assert.ok(Date.parse(newer.created_at) >= Date.parse(older.created_at))
      for (const item of all.body.results) {
        expectReply(await target.call(retrieve, { key: world.keys.ownerA, params: { ...org, id: item.id } }), 200, item)
      }
      // Another organization's list holds only its own.
      const theirs = await target.call(list, { key: world.keys.ownerB, params: { organization_id: world.orgB } })
      assert.deepEqual(theirs.body.results.map((e: { id: string }) => e.id), [world.batchExports.b])
    }
  },
  {
    name: "batch export list pages DRF-style, and bad pagination values fall back to the defaults",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { organization_id: world.orgA }
      const path = `/api/organizations/${world.orgA}/batch_exports/`
      const first = await target.call(list, { key: world.keys.ownerA, params, query: { limit: 1 } })
      expectReply(first, 200)
      assert.deepEqual([first.body.count, first.body.results[0].id], [2, world.batchExports.newerA])
      assert.deepEqual([pathOf(first.body.next), first.body.previous], [`${path}?limit=1&offset=1`, null])
      const second = await target.call(list, { key: world.keys.ownerA, params, query: { limit: 1, offset: 1 } })
      assert.deepEqual([second.body.results[0].id, pathOf(second.body.previous), second.body.next], [world.batchExports.a, `${path}?limit=1`, null])
      for (const query of [{ limit: "abc" }, { limit: 0 }, { limit: -5 }, { offset: "x" }, { offset: -3 }]) {
        const reply = await target.call(list, { key: world.keys.ownerA, params, query })
        expectReply(reply, 200)
        assert.deepEqual([reply.body.results.length, reply.body.previous, reply.body.next], [2, null, null])
      }
      const far = await target.call(list, { key: world.keys.ownerA, params, query: { offset: 5 } })
      expectReply(far, 200)
      assert.deepEqual([far.body.count, far.body.results], [2, []])
    }
  },
  {
    name: "a read batch export follows its pause switch: paused and last_paused_at",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { organization_id: world.orgA, id: world.batchExports.newerA }
      expectReply(await target.call(pause, { key: world.keys.ownerA, params }), 200, null)
      const paused = await target.call(retrieve, { key: world.keys.ownerA, params })
      assert.equal(paused.body.paused, true)
      assert.match(paused.body.last_paused_at, MICROSECONDS_Z)
      expectReply(await target.call(unpause, { key: world.keys.ownerA, params }), 200, null)
      const listed = await target.call(list, { key: world.keys.ownerA, params: { organization_id: world.orgA } })
      const resumed = listed.body.results.find((e: { id: string }) => e.id === world.batchExports.newerA)
      assert.deepEqual(resumed, { ...paused.body, paused: false })
    }
  },
  {
    name: "any member may read batch exports, through @current too, with batch_export:read or :write",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const organization_id of [world.orgA, "@current"]) {
        const listed = await target.call(list, { key: world.keys.memberA, params: { organization_id } })
        expectReply(listed, 200)
        assert.equal(listed.body.count, 2)
        expectReply(await target.call(retrieve, { key: world.keys.memberA, params: { organization_id, id: world.batchExports.a } }), 200)
      }
    }
  },
  {
    name: "batch export list and retrieve are 401 without a key or with an unknown one",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const [endpoint, params] of [[list, { organization_id: world.orgA }], [retrieve, { organization_id: world.orgA, id: world.batchExports.a }]] as const) {
        expectReply(await target.call(endpoint, { params }), 401, NOT_AUTHENTICATED)
        expectReply(await target.call(endpoint, { key: "phx_unknown", params }), 401, BAD_KEY)
      }
    }
  },
  {
    name: "batch export list and retrieve need batch_export:read, checked before the id; keys restricted elsewhere are refused",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const key of [world.keys.projectReadA, world.keys.flagReadA]) {
        expectReply(await target.call(list, { key, params: { organization_id: world.orgA } }), 403, missingScope("batch_export:read"))
        for (const id of [world.batchExports.a, UNKNOWN, "nope"]) {
          expectReply(await target.call(retrieve, { key, params: { organization_id: world.orgA, id } }), 403, missingScope("batch_export:read"))
        }
      }
      for (const [endpoint, params] of [[list, {}], [retrieve, { id: world.batchExports.b }]] as const) {
        expectReply(
          await target.call(endpoint, { key: world.keys.bothScopedToProjectB, params: { organization_id: world.orgB, ...params } }),
          403,
          denied("API keys with scoped projects are only supported on project-based endpoints.")
        )
        expectReply(
          await target.call(endpoint, { key: world.keys.bothScopedToB, params: { organization_id: world.orgA, ...params } }),
          403,
          denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
        )
      }
    }
  },
  {
    name: "retrieve of an unknown, malformed or other organization's batch export is the pause switch's 404 naming the id",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const theirs = world.batchExports.b
      const cases: ReadonlyArray<readonly [string, string]> = [[theirs, theirs], [theirs.toUpperCase(), theirs], [UNKNOWN, UNKNOWN], ["abc", "abc"]]
      for (const [id, named] of cases) {
        const reply = await target.call(retrieve, { key: world.keys.ownerA, params: { organization_id: world.orgA, id } })
        expectReply(reply, 404, exportNotFound(named))
        // The very body pause answers for the same id.
        expectReply(await target.call(pause, { key: world.keys.ownerA, params: { organization_id: world.orgA, id } }), 404, reply.body)
      }
      for (const organization_id of [world.orgB, UNKNOWN, "not-an-org"]) {
        expectReply(await target.call(list, { key: world.keys.ownerA, params: { organization_id } }), 404, NOT_FOUND)
        expectReply(await target.call(retrieve, { key: world.keys.ownerA, params: { organization_id, id: theirs } }), 404, NOT_FOUND)
      }
    }
  }
]
