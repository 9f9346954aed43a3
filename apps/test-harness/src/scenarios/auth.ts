import type { EndpointRef } from "../targets/target.ts"
import { BAD_KEY, denied, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, type Scenario } from "./scenario.ts"

/** One request per authenticated endpoint; its parameters come from the primary key's own objects. */
const everyEndpoint = (organization: string, project: number | null): ReadonlyArray<[EndpointRef, Record<string, string | number>]> => [
  [{ group: "organizations", endpoint: "list" }, {}],
  [{ group: "organizations", endpoint: "retrieve" }, { organization_id: organization }],
  [{ group: "organizationProjects", endpoint: "list" }, { organization_id: organization }],
  [{ group: "organizationProjects", endpoint: "create" }, { organization_id: organization }],
  [{ group: "organizationProjects", endpoint: "retrieve" }, { organization_id: organization, id: project ?? 1 }],
  [{ group: "projects", endpoint: "list" }, {}],
  [{ group: "projects", endpoint: "retrieve" }, { project_id: project ?? 1 }],
  [{ group: "identity", endpoint: "me" }, {}],
  [{ group: "identity", endpoint: "currentKey" }, {}]
]

export const authScenarios: ReadonlyArray<Scenario> = [
  {
    name: "every endpoint answers 401 not_authenticated without a key",
    run: async ({ target, primary }) => {
      for (const [ref, params] of everyEndpoint(primary.organization, primary.project)) {
        expectReply(await target.call(ref, { params, body: {} }), 401, NOT_AUTHENTICATED)
      }
    }
  },
  {
    name: "every endpoint answers 401 authentication_failed for an unknown key",
    run: async ({ target, primary }) => {
      for (const [ref, params] of everyEndpoint(primary.organization, primary.project)) {
        const key = "phx_thisKeyDoesNotExistAnywhere0000000000000000"
        expectReply(await target.call(ref, { key, params, body: {} }), 401, BAD_KEY)
      }
    }
  },
  {
    name: "a key without the endpoint's scope gets 403 naming the scope",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.flagReadA
      const org = { organization_id: world.orgA }
      expectReply(await target.call({ group: "organizations", endpoint: "list" }, { key }), 403, missingScope("organization:read"))
      expectReply(await target.call({ group: "organizations", endpoint: "retrieve" }, { key, params: org }), 403, missingScope("organization:read"))
      expectReply(await target.call({ group: "organizationProjects", endpoint: "list" }, { key, params: org }), 403, missingScope("project:read"))
      expectReply(
        await target.call({ group: "organizationProjects", endpoint: "retrieve" }, { key, params: { ...org, id: world.projectA } }),
        403,
        missingScope("project:read")
      )
      expectReply(await target.call({ group: "projects", endpoint: "list" }, { key }), 403, missingScope("project:read"))
      expectReply(await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: { project_id: world.projectA } }), 403, missingScope("project:read"))
      expectReply(
        await target.call({ group: "organizationProjects", endpoint: "create" }, { key: world.keys.projectReadA, params: org, body: { name: "x" } }),
        403,
        missingScope("project:write")
      )
    }
  },
  {
    name: "scope checks come before tenancy and validation: a foreign id or a bad body still gets 403",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      expectReply(
        await target.call({ group: "organizationProjects", endpoint: "create" }, {
          key: world.keys.projectReadA,
          params: { organization_id: world.orgB },
          body: { name: "" }
        }),
        403,
        missingScope("project:write")
      )
    }
  },
  {
    name: "write implies read: a project:write key lists and reads projects",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const reply = await target.call({ group: "organizationProjects", endpoint: "list" }, {
        key: world.keys.projectWriteA,
        params: { organization_id: world.orgA }
      })
      expectReply(reply, 200)
    }
  },
  {
    name: "a key restricted to one organization is refused elsewhere, with PostHog's message",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.bothScopedToB
      expectReply(
        await target.call({ group: "organizationProjects", endpoint: "list" }, { key, params: { organization_id: world.orgA } }),
        403,
        denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      )
      expectReply(await target.call({ group: "organizationProjects", endpoint: "list" }, { key, params: { organization_id: world.orgB } }), 200)
      const orgs = await target.call({ group: "organizations", endpoint: "list" }, { key })
      expectReply(orgs, 200)
      if (orgs.body.results.map((o: { id: string }) => o.id).join() !== world.orgB) throw new Error("restricted key listed other organizations")
      expectReply(
        await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: { project_id: world.projectA } }),
        403,
        denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      )
    }
  },
  {
    name: "a key restricted to projects works only on project endpoints of those projects, and lists no organizations",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.bothScopedToProjectB
      expectReply(
        await target.call({ group: "organizationProjects", endpoint: "list" }, { key, params: { organization_id: world.orgB } }),
        403,
        denied("API keys with scoped projects are only supported on project-based endpoints.")
      )
      expectReply(
        await target.call({ group: "organizations", endpoint: "list" }, { key }),
        403,
        denied("API keys with scoped projects are only supported on project-based endpoints.")
      )
      expectReply(await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: { project_id: world.projectB } }), 200)
      expectReply(
        await target.call({ group: "projects", endpoint: "retrieve" }, { key, params: { project_id: world.projectA } }),
        403,
        denied(`API key does not have access to the requested project: ID ${world.projectA}.`)
      )
      const listed = await target.call({ group: "projects", endpoint: "list" }, { key })
      expectReply(listed, 200)
      if (listed.body.count !== 1 || listed.body.results[0].id !== world.projectB) throw new Error("project-restricted key listed other projects")
    }
  }
]
