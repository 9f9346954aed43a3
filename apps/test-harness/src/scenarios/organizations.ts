import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Call, Reply, Target } from "../targets/target.ts"
import { freshDomain } from "./domains.ts"
import { createFlag, FLAGS, uniqueKey } from "./feature-flags-support.ts"
import { BAD_KEY, denied, expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

export const ORGANIZATIONS = {
  list: { group: "organizations", endpoint: "list" },
  create: { group: "organizations", endpoint: "create" },
  retrieve: { group: "organizations", endpoint: "retrieve" },
  update: { group: "organizations", endpoint: "update" },
  destroy: { group: "organizations", endpoint: "destroy" }
} as const
const ME = { group: "identity", endpoint: "me" } as const

const ORGANIZATION_FIELDS = ["created_at", "enforce_2fa", "id", "membership_level", "name", "slug"]
const INSUFFICIENT = denied("Your organization access level is insufficient.")
const UNKNOWN_ORGANIZATION = "00000000-0000-4000-8000-000000000000"

/** Founds an organization with the founder's key and answers it, failing the scenario unless it answers 201. */
export const foundOrganization = async (target: Target, key: string, name = `Founded ${randomUUID().slice(0, 8)}`) => {
  const reply = await target.call(ORGANIZATIONS.create, { key, body: { name } })
  expectReply(reply, 201)
  return reply.body as {
    id: string
    name: string
    slug: string
    membership_level: number
    created_at: string
    enforce_2fa: boolean | null
  }
}

/** The caller's current organization and project, as `GET /api/users/@me/` tells them. */
export const currentOf = async (target: Target, key: string) => {
  const me = await target.call(ME, { key })
  expectReply(me, 200)
  return { organization: me.body.organization?.id ?? null, project: me.body.team?.id ?? null, team: me.body.team }
}

/** Deletes what a scenario founded, whatever happened before. */
const removing = async (target: Target, key: string, ids: ReadonlyArray<string>, run: () => Promise<void>) => {
  try {
    await run()
  } finally {
    for (const id of ids) await target.call(ORGANIZATIONS.destroy, { key, params: { organization_id: id } })
  }
}

const nameCases: ReadonlyArray<readonly [string, unknown, ReturnType<typeof invalid>]> = [
  ["a null name", { name: null }, invalid("name", "This field may not be null.", "null")],
  ["a blank name", { name: "" }, invalid("name", "This field may not be blank.", "blank")],
  ["a name of spaces only", { name: "   " }, invalid("name", "This field may not be blank.", "blank")],
  ["a name of 65 characters", { name: "n".repeat(65) }, invalid("name", "Ensure this field has no more than 64 characters.", "max_length")],
  ["a name that is not text", { name: ["Acme"] }, invalid("name", "Not a valid string.")],
  ["a NUL character in the name", { name: "Ac\u0000me" }, invalid("name", "Null characters are not allowed.", "null_characters_not_allowed")],
  ["a list instead of an object", [{ name: "Acme" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
]

/** Every organization endpoint, with a plausible body; `id` for the ones that take one. */
const everyEndpoint = (target: Target, call: { key?: string; id: string }) => {
  const params = { organization_id: call.id }
  const calls: ReadonlyArray<readonly [keyof typeof ORGANIZATIONS, Call]> = [
    ["list", { key: call.key }],
    ["create", { key: call.key, body: { name: "Never made" } }],
    ["retrieve", { key: call.key, params }],
    ["update", { key: call.key, params, body: { name: "Never renamed" } }],
    ["destroy", { key: call.key, params }]
  ]
  return calls.map(([endpoint, request]) => [endpoint, target.call(ORGANIZATIONS[endpoint], request)] as const)
}

const rename = (target: Target, key: string, id: string, body: unknown): Promise<Reply> =>
  target.call(ORGANIZATIONS.update, { key, params: { organization_id: id }, body })

export const organizationScenarios: ReadonlyArray<Scenario> = [
  {
    name: "organization create answers 201 with the caller as owner, who works in its first project from then on",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      const reply = await target.call(ORGANIZATIONS.create, {
        key: founder.key,
        body: { name: "  Founders & Co  ", slug: "chosen", id: UNKNOWN_ORGANIZATION, membership_level: 1, is_member_join_email_enabled: false }
      })
      expectReply(reply, 201)
      const org = reply.body
      await removing(target, founder.key, [org.id], async () => {
        assert.deepEqual(Object.keys(org).sort(), ORGANIZATION_FIELDS)
        assert.deepEqual([org.name, org.membership_level, org.enforce_2fa], ["Founders & Co", 15, null])
        assert.match(org.slug, /^founders-co(-[a-z0-9]{6})?$/)
        assert.notEqual(org.id, UNKNOWN_ORGANIZATION)
        expectReply(await target.call(ORGANIZATIONS.retrieve, { key: founder.key, params: { organization_id: org.id } }), 200, org)
        const current = await currentOf(target, founder.key)
        assert.equal(current.organization, org.id)
        assert.deepEqual([current.team.name, current.team.organization], ["Default project", org.id])
        const projects = await target.call({ group: "organizationProjects", endpoint: "list" }, {
          key: founder.key,
          params: { organization_id: "@current" }
        })
        expectReply(projects, 200)
        assert.deepEqual(projects.body.results.map((project: { id: number; name: string }) => [project.id, project.name]), [
          [current.project, "Default project"]
        ])
        const listed = await target.call(ORGANIZATIONS.list, { key: founder.key })
        assert.ok(listed.body.results.some((found: { id: string }) => found.id === org.id))
      })
    }
  },
  ...[["no name", {}, invalid("name", "This field is required.", "required")] as const, ...nameCases].map(([label, body, error]): Scenario => ({
    name: `organization create refuses ${label} with 400 and the exact message, and makes nothing`,
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      const before = await target.call(ORGANIZATIONS.list, { key: founder.key })
      expectReply(await target.call(ORGANIZATIONS.create, { key: founder.key, body }), 400, error)
      expectReply(await target.call(ORGANIZATIONS.list, { key: founder.key }), 200, before.body)
    }
  })),
  {
    name: "every organization endpoint is 401 without a key or with an unknown one",
    run: async ({ target, primary }) => {
      for (const [, reply] of everyEndpoint(target, { id: primary.organization })) expectReply(await reply, 401, NOT_AUTHENTICATED)
      for (const [, reply] of everyEndpoint(target, { key: "phx_unknown", id: primary.organization })) {
        expectReply(await reply, 401, BAD_KEY)
      }
    }
  },
  {
    name: "organization writes need organization:write, checked before the id; a project-scoped key founds nothing",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const id of [world.orgA, UNKNOWN_ORGANIZATION]) {
        for (const [endpoint, reply] of everyEndpoint(target, { key: world.keys.projectReadA, id })) {
          const scope = endpoint === "list" || endpoint === "retrieve" ? "organization:read" : "organization:write"
          expectReply(await reply, 403, missingScope(scope))
        }
      }
      const scoped = denied("API keys with scoped projects are only supported on project-based endpoints.")
      for (const [, reply] of everyEndpoint(target, { key: world.keys.bothScopedToProjectB, id: world.orgB })) {
        expectReply(await reply, 403, scoped)
      }
      const elsewhere = denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      expectReply(await rename(target, world.keys.bothScopedToB, world.orgA, { name: "Elsewhere" }), 403, elsewhere)
      expectReply(await target.call(ORGANIZATIONS.destroy, { key: world.keys.bothScopedToB, params: { organization_id: world.orgA } }), 403, elsewhere)
    }
  },
  {
    name: "renaming needs administrator level and deleting an owner, checked after tenancy and before the body",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const { member, admin } = world.members
      for (const body of [{ name: "Taken over" }, { name: "" }]) expectReply(await rename(target, member.key, world.orgA, body), 403, INSUFFICIENT)
      for (const key of [member.key, admin.key]) {
        expectReply(await target.call(ORGANIZATIONS.destroy, { key, params: { organization_id: world.orgA } }), 403, INSUFFICIENT)
      }
      const renamed = await rename(target, admin.key, world.orgA, { name: "Alpha" })
      expectReply(renamed, 200)
      assert.deepEqual([renamed.body.id, renamed.body.name, renamed.body.membership_level], [world.orgA, "Alpha", 8])
      expectReply(await target.call(ORGANIZATIONS.retrieve, { key: admin.key, params: { organization_id: world.orgA } }), 200, renamed.body)
      // Another organization's id, an unknown one and a malformed one are alike: 404, whatever the level or body.
      for (const id of [world.orgB, UNKNOWN_ORGANIZATION, "not-an-id"]) {
        expectReply(await rename(target, world.keys.ownerA, id, { name: "" }), 404, NOT_FOUND)
        expectReply(await target.call(ORGANIZATIONS.destroy, { key: world.keys.ownerA, params: { organization_id: id } }), 404, NOT_FOUND)
      }
    }
  },
  {
    name: "organization rename trims the name, keeps the slug and refuses each broken rule with PostHog's message",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      const org = await foundOrganization(target, founder.key)
      await removing(target, founder.key, [org.id], async () => {
        const renamed = await rename(target, founder.key, org.id, { name: "  Renamed  ", slug: "chosen" })
        expectReply(renamed, 200, { ...org, name: "Renamed" })
        expectReply(await rename(target, founder.key, org.id, {}), 200, { ...org, name: "Renamed" })
        expectReply(await rename(target, founder.key, "@current", { name: "Current" }), 200, { ...org, name: "Current" })
        for (const [, body, error] of nameCases) expectReply(await rename(target, founder.key, org.id, body), 400, error)
        expectReply(await target.call(ORGANIZATIONS.retrieve, { key: founder.key, params: { organization_id: org.id } }), 200, {
          ...org,
          name: "Current"
        })
      })
    }
  },
  {
    name: "organization delete removes everything in it: its projects, flags, roles, domains and invites answer 404",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const { founder } = world
      const org = await foundOrganization(target, founder.key)
      const params = { organization_id: org.id }
      const { project } = await currentOf(target, founder.key)
      const made = await (async () => {
        try {
          const flag = await createFlag(target, { key: founder.key, project }, { key: uniqueKey("doomed") })
          const role = await target.call({ group: "roles", endpoint: "create" }, { key: founder.key, params, body: { name: "Doomed" } })
          expectReply(role, 201)
          const domain = { domain: freshDomain("doomed") }
          expectReply(await target.call({ group: "domains", endpoint: "create" }, { key: founder.key, params, body: domain }), 201)
          const invite = { target_email: `doomed-${randomUUID().slice(0, 8)}@example.com`, send_email: false }
          expectReply(await target.call({ group: "invites", endpoint: "create" }, { key: founder.key, params, body: invite }), 201)
          return { flag: flag.id as number, role: role.body.id as string }
        } catch (error) {
          await target.call(ORGANIZATIONS.destroy, { key: founder.key, params })
          throw error
        }
      })()
      expectReply(await target.call(ORGANIZATIONS.destroy, { key: founder.key, params }), 204, null)
      expectReply(await target.call(ORGANIZATIONS.retrieve, { key: founder.key, params }), 404, NOT_FOUND)
      expectReply(await target.call(ORGANIZATIONS.destroy, { key: founder.key, params }), 404, NOT_FOUND)
      expectReply(await target.call({ group: "projects", endpoint: "retrieve" }, { key: founder.key, params: { project_id: project } }), 404, NOT_FOUND)
      expectReply(await target.call(FLAGS.retrieve, { key: founder.key, params: { project_id: project, id: made.flag } }), 404, NOT_FOUND)
      for (const endpoint of ["list", "create"] as const) {
        expectReply(await target.call({ group: "roles", endpoint }, { key: founder.key, params, body: { name: "After" } }), 404, NOT_FOUND)
      }
      expectReply(await target.call({ group: "roles", endpoint: "retrieve" }, { key: founder.key, params: { ...params, id: made.role } }), 404)
      expectReply(await target.call({ group: "domains", endpoint: "list" }, { key: founder.key, params }), 404, NOT_FOUND)
      expectReply(await target.call({ group: "invites", endpoint: "list" }, { key: founder.key, params }), 404, NOT_FOUND)
      const listed = await target.call(ORGANIZATIONS.list, { key: founder.key })
      assert.ok(!listed.body.results.some((found: { id: string }) => found.id === org.id))
      assert.deepEqual(await currentOf(target, founder.key), { organization: null, project: null, team: null })
    }
  },
  {
    name: "the OpenAPI document describes the organization, role and role membership endpoints with their methods",
    needs: ["transport"],
    run: async ({ target }) => {
      const reply = await target.raw!({ method: "GET", path: "/api/schema/" })
      assert.equal(reply.status, 200)
      const paths = reply.body.paths as Record<string, Record<string, unknown>>
      const methods = (path: string) => Object.keys(paths[path] ?? {}).filter((key) => key !== "parameters").sort()
      assert.deepEqual(methods("/api/organizations/"), ["get", "post"])
      assert.deepEqual(methods("/api/organizations/{organization_id}/"), ["delete", "get", "patch"])
      assert.deepEqual(methods("/api/organizations/{organization_id}/roles/"), ["get", "post"])
      assert.deepEqual(methods("/api/organizations/{organization_id}/roles/{id}/"), ["delete", "get", "patch"])
      assert.deepEqual(methods("/api/organizations/{organization_id}/roles/{role_id}/role_memberships/"), ["get", "post"])
      assert.deepEqual(methods("/api/organizations/{organization_id}/roles/{role_id}/role_memberships/{id}/"), ["delete"])
    }
  },
  {
    name: "deleting the current organization moves its owner to the organization they joined first",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const { founder } = needWorld(context)
      const first = await foundOrganization(target, founder.key, "First founded")
      const second = await foundOrganization(target, founder.key, "Second founded")
      await removing(target, founder.key, [second.id, first.id], async () => {
        assert.equal((await currentOf(target, founder.key)).organization, second.id)
        expectReply(await target.call(ORGANIZATIONS.destroy, { key: founder.key, params: { organization_id: "@current" } }), 204)
        const current = await currentOf(target, founder.key)
        assert.equal(current.organization, first.id)
        // The project is the organization's first, as `@current` reads it when the user has none.
        const project = await target.call({ group: "projects", endpoint: "retrieve" }, { key: founder.key, params: { project_id: "@current" } })
        expectReply(project, 200)
        assert.equal(project.body.organization, first.id)
      })
    }
  }
]
