import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import { BAD_KEY, denied, envelope, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

const rawOf = (target: Target) => {
  assert.ok(target.raw, "this scenario needs raw HTTP")
  return target.raw
}

/** A raw POST to an organization's projects: the one write endpoint transport rules are checked on. */
const postProject = (
  target: Target,
  request: { key: string; organization: string; contentType?: string; body: string | Uint8Array }
) =>
  rawOf(target)({
    method: "POST",
    path: `/api/organizations/${request.organization}/projects/`,
    headers: { authorization: `Bearer ${request.key}`, "content-type": request.contentType ?? "application/json" },
    body: request.body
  })

export const transportScenarios: ReadonlyArray<Scenario> = [
  {
    name: "GET /_ready answers 200 {\"status\": \"ready\"} on a serving process, uncached, and the metrics are not on the API's port",
    needs: ["transport"],
    run: async ({ target }) => {
      const raw = rawOf(target)
      const ready = await raw({ method: "GET", path: "/_ready", headers: {} })
      expectReply(ready, 200)
      assert.deepEqual(ready.body, { status: "ready" })
      assert.equal(ready.headers.get("cache-control"), "no-store")
      const metrics = await raw({ method: "GET", path: "/metrics", headers: {} })
      expectReply(metrics, 404)
    }
  },
  {
    name: "every path answers with and without its trailing slash, without redirecting",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const raw = rawOf(target)
      const headers = { authorization: `Bearer ${primary.key}` }
      for (const path of [`/api/organizations/${primary.organization}/projects`, "/api/personal_api_keys/@current", "/api/users/@me"]) {
        const bare = await raw({ method: "GET", path, headers })
        const slashed = await raw({ method: "GET", path: `${path}/`, headers })
        expectReply(bare, 200)
        expectReply(slashed, 200)
      }
    }
  },
  {
    name: "malformed JSON is 400 parse_error",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await postProject(target, { ...primary, body: "{\"name\": " })
      expectReply(reply, 400)
      assert.equal(reply.body.type, "invalid_request")
      assert.equal(reply.body.code, "parse_error")
      assert.equal(reply.body.attr, null)
      assert.match(reply.body.detail, /^JSON parse error - /)
    }
  },
  {
    name: "a write body that is not JSON is 415",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await postProject(target, { ...primary, contentType: "text/plain", body: "name=x" })
      expectReply(reply, 415, envelope("invalid_request", "unsupported_media_type", "Unsupported media type \"text/plain\" in request."))
    }
  },
  {
    name: "a body over 1 MiB is 413 and nothing is written",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const raw = rawOf(target)
      const headers = { authorization: `Bearer ${primary.key}` }
      const before = await raw({ method: "GET", path: `/api/organizations/${primary.organization}/projects/`, headers })
      const reply = await postProject(target, {
        ...primary,
        body: JSON.stringify({ name: "big", product_description: "x".repeat(1024 * 1024) })
      })
      expectReply(reply, 413, envelope("invalid_request", "payload_too_large", "Request body is larger than the 1 MiB limit."))
      const after = await raw({ method: "GET", path: `/api/organizations/${primary.organization}/projects/`, headers })
      assert.equal(after.body.count, before.body.count)
    }
  },
  {
    name: "the body is read only after scope and tenancy, as DRF reads request.data lazily",
    needs: ["transport", "world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const bad = "{bad"
      expectReply(await postProject(target, { key: world.keys.ownerA, organization: world.orgB, body: bad }), 404, NOT_FOUND)
      expectReply(await postProject(target, { key: world.keys.projectReadA, organization: world.orgA, body: bad }), 403, missingScope("project:write"))
      expectReply(
        await postProject(target, { key: world.keys.projectReadA, organization: world.orgA, contentType: "text/plain", body: "x" }),
        403,
        missingScope("project:write")
      )
      expectReply(
        await postProject(target, { key: world.keys.memberA, organization: world.orgA, body: bad }),
        403,
        denied("Your organization access level is insufficient.")
      )
    }
  },
  {
    name: "a body that is not UTF-8 is a parse error, not repaired text",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await postProject(target, {
        ...primary,
        body: new Uint8Array([0x7b, 0x22, 0x6e, 0x61, 0x6d, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])
      })
      expectReply(reply, 400, envelope("invalid_request", "parse_error", "JSON parse error - the body is not valid UTF-8"))
    }
  },
  {
    name: "a body nested deeper than 512 levels is refused before it is parsed, whatever route it is sent to",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const deep = `{"name":${"[".repeat(500_000)}${"]".repeat(500_000)}}`
      const refused = envelope("invalid_request", "parse_error", "JSON parse error - the body nests deeper than 512 levels")
      expectReply(await postProject(target, { ...primary, body: deep }), 400, refused)
      const link = await rawOf(target)({ method: "POST", path: "/api/login/link/", headers: { "content-type": "application/json" }, body: `{"token":${"[".repeat(500_000)}}` })
      expectReply(link, 400, refused)
      // 512 levels are read as JSON (and then judged by the resource's rules).
      const allowed = await postProject(target, { ...primary, body: `{"name":${"[".repeat(511)}${"]".repeat(511)}}` })
      assert.notEqual(allowed.body.code, "parse_error")
    }
  },
  {
    name: "pagination links ignore X-Forwarded-* unless a trusted proxy is configured",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await rawOf(target)({
        method: "GET",
        path: `/api/organizations/${primary.organization}/projects/?limit=1`,
        headers: { authorization: `Bearer ${primary.key}`, "x-forwarded-host": "evil.example", "x-forwarded-proto": "javascript" }
      })
      expectReply(reply, 200)
      assert.ok(reply.body.next === null || !reply.body.next.includes("evil.example"))
      assert.ok(reply.body.next === null || reply.body.next.startsWith("http://"))
    }
  },
  {
    name: "authentication is checked before the body is read",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await postProject(target, { key: "phx_wrong", organization: primary.organization, body: "{not json" })
      expectReply(reply, 401, BAD_KEY)
    }
  },
  {
    name: "an unsupported method is 401 without a valid key, then 405 with an Allow header",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const raw = rawOf(target)
      const path = `/api/organizations/${primary.organization}/projects/`
      expectReply(await raw({ method: "DELETE", path }), 401, NOT_AUTHENTICATED)
      expectReply(await raw({ method: "DELETE", path, headers: { authorization: "Bearer phx_wrong" } }), 401, BAD_KEY)
      const refused = await raw({ method: "DELETE", path, headers: { authorization: `Bearer ${primary.key}` } })
      expectReply(refused, 405, envelope("invalid_request", "method_not_allowed", "Method \"DELETE\" not allowed."))
      assert.equal(refused.headers.get("allow"), "GET, POST")
      expectReply(await raw({ method: "POST", path: "/api/docs/", headers: { authorization: `Bearer ${primary.key}` } }), 405,
        envelope("invalid_request", "method_not_allowed", "Method \"POST\" not allowed."))
    }
  },
  {
    name: "unknown routes are 404 and unsupported methods 405, both with the envelope",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const raw = rawOf(target)
      const headers = { authorization: `Bearer ${primary.key}` }
      const unknown = await raw({ method: "GET", path: "/api/no_such_thing/", headers })
      expectReply(unknown, 404, NOT_FOUND)
      assert.match(unknown.headers.get("content-type") ?? "", /application\/json/)
      expectReply(
        await raw({ method: "DELETE", path: `/api/organizations/${primary.organization}/projects/`, headers }),
        405,
        envelope("invalid_request", "method_not_allowed", "Method \"DELETE\" not allowed.")
      )
    }
  },
  {
    name: "a repeated query parameter counts once, with its last value, as in Django",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await rawOf(target)({
        method: "GET",
        path: `/api/organizations/${primary.organization}/projects/?limit=5&limit=1`,
        headers: { authorization: `Bearer ${primary.key}` }
      })
      expectReply(reply, 200)
      assert.equal(reply.body.results.length, 1)
    }
  },
  {
    name: "a path that does not decode names nothing: 404",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const reply = await rawOf(target)({
        method: "GET",
        path: `/api/organizations/${primary.organization}/projects/%ZZ/`,
        headers: { authorization: `Bearer ${primary.key}` }
      })
      expectReply(reply, 404, NOT_FOUND)
    }
  },
  {
    name: "a percent-encoded path the router does not match is 404, never a self-contradicting 405",
    needs: ["transport"],
    run: async ({ target, primary }) => {
      const raw = rawOf(target)
      const headers = { authorization: `Bearer ${primary.key}` }
      for (const path of ["/api/users/%40me/", `/api/organizations/${primary.organization}/projects%2F`]) {
        expectReply(await raw({ method: "GET", path, headers }), 404, NOT_FOUND)
      }
      // A key's path takes any id, so this one is matched, and its id decodes to `@current`, as in PostHog.
      const current = await raw({ method: "GET", path: "/api/personal_api_keys/%40current", headers })
      expectReply(current, 200)
      assert.equal(current.body.mask_value, `${primary.key.slice(0, 4)}...${primary.key.slice(-4)}`)
    }
  },
  {
    name: "every answer carries a request id",
    needs: ["transport"],
    run: async ({ target }) => {
      const reply = await rawOf(target)({ method: "GET", path: "/api/organizations/" })
      assert.match(reply.headers.get("x-request-id") ?? "", /^[0-9a-f-]{36}$/)
    }
  }
]
