import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import { createFlag, NO_EDIT_RIGHTS, uniqueKey } from "./feature-flags-support.ts"
import { envelope, expectReply, missingScope, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"

const rawOf = (target: Target) => {
  assert.ok(target.raw, "this scenario needs raw HTTP")
  return target.raw
}

/** A raw write to a flag path, with whatever body and media type. */
const send = (target: Target, request: { method: string; path: string; key: string; body: string; contentType?: string }) =>
  rawOf(target)({
    method: request.method,
    path: request.path,
    headers: { authorization: `Bearer ${request.key}`, "content-type": request.contentType ?? "application/json" },
    body: request.body
  })

const UNREADABLE = "{\"key\": "

/** Flag writes over raw HTTP: malformed bodies, media types, and when the body is read (PostHog reads it after the access checks). */
export const featureFlagTransportScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag writes refuse malformed JSON with 400 parse_error and non-JSON bodies with 415",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      assert.ok(primary.project !== null)
      const flags = `/api/projects/${primary.project}/feature_flags/`
      const flag = await createFlag(target, { key: primary.key, project: primary.project }, { key: uniqueKey("transport") })
      for (const [method, path] of [["POST", flags], ["PATCH", `${flags}${flag.id}/`], ["POST", `${flags}${flag.id}/role_access/`]] as const) {
        const malformed = await send(target, { method, path, key: primary.key, body: UNREADABLE })
        expectReply(malformed, 400)
        assert.deepEqual([malformed.body.type, malformed.body.code, malformed.body.attr], ["invalid_request", "parse_error", null], `${method} ${path}`)
        assert.match(malformed.body.detail, /^JSON parse error - /)
        expectReply(
          await send(target, { method, path, key: primary.key, body: "key=x", contentType: "text/plain" }),
          415,
          envelope("invalid_request", "unsupported_media_type", "Unsupported media type \"text/plain\" in request.")
        )
      }
    }
  },
  {
    name: "a flag write body is read only after scope, tenancy, the flag lookup and edit rights",
    needs: ["transport", "world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const flags = `/api/projects/${world.projectA}/feature_flags/`
      const flag = await createFlag(target, { key: world.keys.ownerA, project: world.projectA }, { key: uniqueKey("lazy-body") })
      const write = (method: string, path: string, key: string) => send(target, { method, path, key, body: UNREADABLE })
      expectReply(await write("POST", flags, world.keys.projectReadA), 403, missingScope("feature_flag:write"))
      expectReply(await write("POST", `/api/projects/${world.projectB}/feature_flags/`, world.keys.ownerA), 404, NOT_FOUND)
      expectReply(await write("PATCH", `${flags}999999/`, world.keys.ownerA), 404, NOT_FOUND)
      expectReply(await write("PATCH", `${flags}${flag.id}/`, world.keys.memberA), 403, NO_EDIT_RIGHTS)
      expectReply(await write("POST", `${flags}999999/role_access/`, world.keys.ownerA), 404, NOT_FOUND)
    }
  },
  {
    name: "flag paths answer with and without their trailing slash",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      assert.ok(primary.project !== null)
      const flag = await createFlag(target, { key: primary.key, project: primary.project }, { key: uniqueKey("slash") })
      const headers = { authorization: `Bearer ${primary.key}` }
      const base = `/api/projects/${primary.project}/feature_flags`
      for (const path of [base, `${base}/${flag.id}`, `${base}/${flag.id}/status`, `${base}/${flag.id}/role_access`, `${base}/activity`]) {
        expectReply(await rawOf(target)({ method: "GET", path, headers }), 200)
      }
    }
  }
]
