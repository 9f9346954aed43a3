import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import { BAD_KEY, denied, envelope, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

const pause = { group: "batchExports", endpoint: "pause" } as const
const unpause = { group: "batchExports", endpoint: "unpause" } as const
const SWITCHES = [pause, unpause] as const

/** The export's own 404, naming the id, as PostHog's pause and unpause answer. */
const exportNotFound = (id: string) => envelope("invalid_request", "not_found", `BatchExport ID '${id}' not found.`)

const rawPost = (target: Target, path: string, key: string, body: string, contentType = "application/json") => {
  assert.ok(target.raw, "this scenario needs raw HTTP")
  return target.raw({ method: "POST", path, headers: { authorization: `Bearer ${key}`, "content-type": contentType }, body })
}

export const batchExportScenarios: ReadonlyArray<Scenario> = [
  {
    name: "pause and unpause answer 200 with an empty body, and both are idempotent",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { organization_id: world.orgA, id: world.batchExports.a }
      for (const endpoint of [pause, pause, unpause, unpause, pause, unpause]) {
        expectReply(await target.call(endpoint, { key: world.keys.ownerA, params }), 200, null)
      }
    }
  },
  {
    name: "pause and unpause ignore whatever JSON body they are sent",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { organization_id: world.orgB, id: world.batchExports.b }
      for (const body of [{ paused: false, name: "renamed", last_paused_at: "2020-01-01T00:00:00Z" }, [1, 2], "text", null, {}]) {
        for (const endpoint of SWITCHES) expectReply(await target.call(endpoint, { key: world.keys.ownerB, params, body }), 200, null)
      }
    }
  },
  {
    name: "any member may pause and unpause (no administrator level), through @current too",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const organization_id of [world.orgA, "@current"]) {
        for (const endpoint of SWITCHES) {
          expectReply(await target.call(endpoint, { key: world.keys.memberA, params: { organization_id, id: world.batchExports.a } }), 200, null)
        }
      }
    }
  },
  {
    name: "pause and unpause are 401 without a key or with an unknown one",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { organization_id: world.orgA, id: world.batchExports.a }
      for (const endpoint of SWITCHES) {
        expectReply(await target.call(endpoint, { params }), 401, NOT_AUTHENTICATED)
        expectReply(await target.call(endpoint, { key: "phx_unknown", params }), 401, BAD_KEY)
      }
    }
  },
  {
    name: "pause and unpause need batch_export:write, checked before the id",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const key of [world.keys.projectReadA, world.keys.flagReadA]) {
        for (const id of [world.batchExports.a, "00000000-0000-4000-8000-000000000000", "nope"]) {
          for (const endpoint of SWITCHES) {
            expectReply(await target.call(endpoint, { key, params: { organization_id: world.orgA, id } }), 403, missingScope("batch_export:write"))
          }
        }
      }
    }
  },
  {
    name: "keys restricted to projects or to another organization are refused on batch export switches",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const endpoint of SWITCHES) {
        expectReply(
          await target.call(endpoint, { key: world.keys.bothScopedToProjectB, params: { organization_id: world.orgB, id: world.batchExports.b } }),
          403,
          denied("API keys with scoped projects are only supported on project-based endpoints.")
        )
        expectReply(
          await target.call(endpoint, { key: world.keys.bothScopedToB, params: { organization_id: world.orgA, id: world.batchExports.a } }),
          403,
          denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
        )
      }
    }
  },
  {
    name: "unknown, malformed and other organizations' batch exports are 404 naming the id",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const theirs = world.batchExports.b
      const unknown = "00000000-0000-4000-8000-000000000000"
      const cases: ReadonlyArray<readonly [string, string]> = [
        [theirs, theirs],
        [theirs.toUpperCase(), theirs],
        [unknown, unknown],
        ["abc", "abc"],
        ["1", "1"]
      ]
      for (const endpoint of SWITCHES) {
        for (const [id, named] of cases) {
          expectReply(await target.call(endpoint, { key: world.keys.ownerA, params: { organization_id: world.orgA, id } }), 404, exportNotFound(named))
        }
        // Another organization itself is unknown to the caller: the plain 404 of every endpoint.
        for (const organization_id of [world.orgB, unknown, "not-an-org"]) {
          expectReply(await target.call(endpoint, { key: world.keys.ownerA, params: { organization_id, id: theirs } }), 404, NOT_FOUND)
        }
      }
    }
  },
  {
    name: "a batch export switch refuses a malformed or non-JSON body, after the id is found",
    needs: ["world", "transport"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const action of ["pause", "unpause"]) {
        const path = (id: string) => `/api/organizations/${world.orgA}/batch_exports/${id}/${action}/`
        const malformed = await rawPost(target, path(world.batchExports.a), world.keys.ownerA, "{\"paused\": ")
        expectReply(malformed, 400)
        assert.equal(malformed.body.code, "parse_error")
        expectReply(
          await rawPost(target, path(world.batchExports.a), world.keys.ownerA, "paused", "text/plain"),
          415,
          envelope("invalid_request", "unsupported_media_type", "Unsupported media type \"text/plain\" in request.")
        )
        expectReply(await rawPost(target, path(world.batchExports.b), world.keys.ownerA, "{bad"), 404, exportNotFound(world.batchExports.b))
        expectReply(await rawPost(target, path(world.batchExports.a), world.keys.ownerA, ""), 200, null)
      }
    }
  }
]
