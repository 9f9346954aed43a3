import assert from "node:assert/strict"
import type { Call, Reply, Target } from "../targets/target.ts"
import { createDomain, domainEndpoints, freshDomain } from "./domains.ts"
import { BAD_KEY, denied, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

type Endpoint = keyof typeof domainEndpoints
const WRITES: ReadonlyArray<Endpoint> = ["create", "update", "destroy", "verify"]
const BY_ID: ReadonlyArray<Endpoint> = ["retrieve", "update", "destroy", "verify"]
const INSUFFICIENT = denied("Your organization access level is insufficient.")

/** Calls one domain endpoint with a plausible body; `id` is used by the endpoints that take one. */
const callDomain = (target: Target, endpoint: Endpoint, call: { key?: string; organization: string; id?: string }): Promise<Reply> => {
  const request: Call = {
    key: call.key,
    params: { organization_id: call.organization, ...(BY_ID.includes(endpoint) && call.id !== undefined ? { id: call.id } : {}) },
    ...(endpoint === "create" ? { body: { domain: freshDomain("access") } } : endpoint === "update" ? { body: { saml_entity_id: "x" } } : {})
  }
  return target.call(domainEndpoints[endpoint], request)
}

const every = (target: Target, call: { key?: string; organization: string; id: string }) =>
  (Object.keys(domainEndpoints) as ReadonlyArray<Endpoint>).map((endpoint) =>
    [endpoint, callDomain(target, endpoint, call)] as const)

export const domainAccessScenarios: ReadonlyArray<Scenario> = [
  {
    name: "every domain endpoint is 401 without a key or with an unknown one",
    run: async ({ target, primary }) => {
      const d = await createDomain(target, primary.key, primary.organization)
      for (const [, reply] of every(target, { organization: primary.organization, id: d.id })) expectReply(await reply, 401, NOT_AUTHENTICATED)
      for (const [, reply] of every(target, { key: "phx_unknown", organization: primary.organization, id: d.id })) expectReply(await reply, 401, BAD_KEY)
    }
  },
  {
    name: "domain reads need organization:read and writes organization:write, checked before the id",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const d = await createDomain(target, world.keys.ownerA, world.orgA)
      for (const id of [d.id, "00000000-0000-4000-8000-000000000000"]) {
        for (const [endpoint, reply] of every(target, { key: world.keys.projectReadA, organization: world.orgA, id })) {
          const scope = WRITES.includes(endpoint) ? "organization:write" : "organization:read"
          expectReply(await reply, 403, missingScope(scope))
        }
      }
    }
  },
  {
    name: "a plain member reads domains but cannot change them, whatever the id or body",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const d = await createDomain(target, world.keys.ownerA, world.orgA)
      const key = world.keys.memberA
      expectReply(await callDomain(target, "list", { key, organization: world.orgA }), 200)
      expectReply(await callDomain(target, "retrieve", { key, organization: world.orgA, id: d.id }), 200, d)
      for (const id of [d.id, "00000000-0000-4000-8000-000000000000", "not-an-id"]) {
        for (const endpoint of WRITES) {
          expectReply(await callDomain(target, endpoint, { key, organization: world.orgA, id }), 403, INSUFFICIENT)
        }
      }
      const invalidBody = await target.call(domainEndpoints.create, { key, params: { organization_id: world.orgA }, body: { domain: "NOT A DOMAIN" } })
      expectReply(invalidBody, 403, INSUFFICIENT)
      expectReply(await callDomain(target, "retrieve", { key: world.keys.ownerA, organization: world.orgA, id: d.id }), 200, d)
    }
  },
  {
    name: "unknown, malformed and other organizations' domain ids are 404 on every endpoint, and nothing changes",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const theirs = await createDomain(target, world.keys.ownerB, world.orgB)
      const key = world.keys.ownerA
      for (const id of [theirs.id, theirs.id.toUpperCase(), "00000000-0000-4000-8000-000000000000", "abc", "1", "%20"]) {
        for (const endpoint of BY_ID) expectReply(await callDomain(target, endpoint, { key, organization: world.orgA, id }), 404, NOT_FOUND)
      }
      for (const [, reply] of every(target, { key, organization: world.orgB, id: theirs.id })) expectReply(await reply, 404, NOT_FOUND)
      for (const organization of ["00000000-0000-4000-8000-000000000000", "not-an-org"]) {
        for (const [, reply] of every(target, { key, organization, id: theirs.id })) expectReply(await reply, 404, NOT_FOUND)
      }
      expectReply(await callDomain(target, "retrieve", { key: world.keys.ownerB, organization: world.orgB, id: theirs.id }), 200, theirs)
    }
  },
  {
    name: "keys restricted to projects or to another organization are refused on domain endpoints",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const d = await createDomain(target, world.keys.ownerB, world.orgB)
      for (const [, reply] of every(target, { key: world.keys.bothScopedToProjectB, organization: world.orgB, id: d.id })) {
        expectReply(await reply, 403, denied("API keys with scoped projects are only supported on project-based endpoints."))
      }
      for (const [, reply] of every(target, { key: world.keys.bothScopedToB, organization: world.orgA, id: d.id })) {
        expectReply(await reply, 403, denied(`API key does not have access to the requested organization: ID ${world.orgA}.`))
      }
      expectReply(await callDomain(target, "retrieve", { key: world.keys.bothScopedToB, organization: world.orgB, id: d.id }), 200, d)
    }
  },
  {
    name: "domain writes read the body after scope, tenancy and level, and refuse a malformed one",
    needs: ["world", "transport"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      assert.ok(target.raw, "this scenario needs raw HTTP")
      const mine = await createDomain(target, world.keys.ownerA, world.orgA)
      const theirs = await createDomain(target, world.keys.ownerB, world.orgB)
      const send = (method: string, path: string, key: string) =>
        target.raw!({ method, path, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: "{\"bad" })
      const base = `/api/organizations/${world.orgA}/domains/`
      for (const [method, path] of [["POST", `${base}${mine.id}/verify/`], ["PATCH", `${base}${mine.id}/`], ["POST", base]] as const) {
        const malformed = await send(method, path, world.keys.ownerA)
        expectReply(malformed, 400)
        assert.deepEqual([malformed.body.type, malformed.body.code], ["invalid_request", "parse_error"])
        expectReply(await send(method, path, world.keys.memberA), 403, INSUFFICIENT)
        expectReply(await send(method, path, world.keys.projectReadA), 403, missingScope("organization:write"))
      }
      for (const [method, path] of [["POST", `${base}${theirs.id}/verify/`], ["PATCH", `${base}${theirs.id}/`]] as const) {
        expectReply(await send(method, path, world.keys.ownerA), 404, NOT_FOUND)
      }
      expectReply(await callDomain(target, "retrieve", { key: world.keys.ownerA, organization: world.orgA, id: mine.id }), 200, mine)
    }
  }
]
