import assert from "node:assert/strict"
import { expectReply, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"

export const discoveryScenarios: ReadonlyArray<Scenario> = [
  {
    name: "GET /api/organizations/ lists the caller's organizations with its level",
    run: async ({ target, primary }) => {
      const reply = await target.call({ group: "organizations", endpoint: "list" }, { key: primary.key })
      expectReply(reply, 200)
      const mine = reply.body.results.find((o: { id: string }) => o.id === primary.organization)
      assert.ok(mine, "the key's organization is listed")
      assert.deepEqual(Object.keys(mine).sort(), ["created_at", "enforce_2fa", "id", "membership_level", "name", "slug"])
      assert.ok([1, 8, 15].includes(mine.membership_level))
      assert.equal(reply.body.count, reply.body.results.length)
    }
  },
  {
    name: "organizations of other tenants are 404 and never listed",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const listed = await target.call({ group: "organizations", endpoint: "list" }, { key: world.keys.ownerA })
      assert.deepEqual(listed.body.results.map((o: { id: string }) => o.id), [world.orgA])
      expectReply(
        await target.call({ group: "organizations", endpoint: "retrieve" }, { key: world.keys.ownerA, params: { organization_id: world.orgB } }),
        404,
        NOT_FOUND
      )
      const own = await target.call({ group: "organizations", endpoint: "retrieve" }, { key: world.keys.ownerA, params: { organization_id: world.orgA } })
      expectReply(own, 200)
      assert.equal(own.body.name, "Alpha")
      assert.equal(own.body.membership_level, 15)
    }
  },
  {
    name: "@current resolves to the caller's current organization and project",
    run: async ({ target, primary }) => {
      const org = await target.call({ group: "organizations", endpoint: "retrieve" }, { key: primary.key, params: { organization_id: "@current" } })
      expectReply(org, 200)
      assert.equal(org.body.id, primary.organization)
      if (primary.project !== null) {
        const project = await target.call({ group: "projects", endpoint: "retrieve" }, { key: primary.key, params: { project_id: "@current" } })
        expectReply(project, 200)
        assert.equal(project.body.id, primary.project)
      }
    }
  },
  {
    name: "GET /api/users/@me/ describes the caller, its organizations and current project",
    run: async ({ target, primary }) => {
      const reply = await target.call({ group: "identity", endpoint: "me" }, { key: primary.key })
      expectReply(reply, 200)
      for (const field of ["id", "uuid", "distinct_id", "first_name", "last_name", "email", "is_email_verified", "hedgehog_config", "role_at_organization"]) {
        assert.ok(field in reply.body, `@me has ${field}`)
      }
      assert.equal(reply.body.organization.id, primary.organization)
      assert.ok(reply.body.organizations.some((o: { id: string }) => o.id === primary.organization))
      if (primary.project !== null) assert.equal(reply.body.team.id, primary.project)
    }
  },
  {
    name: "a member with no current project gets the first project of its organization as @current",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const me = await target.call({ group: "identity", endpoint: "me" }, { key: world.keys.memberA })
      expectReply(me, 200)
      assert.equal(me.body.organization.id, world.orgA)
      assert.equal(me.body.team.id, world.projectA)
      const current = await target.call({ group: "projects", endpoint: "retrieve" }, { key: world.keys.memberA, params: { project_id: "@current" } })
      expectReply(current, 200)
      assert.equal(current.body.id, world.projectA)
    }
  }
]
