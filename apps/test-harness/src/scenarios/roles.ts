import assert from "node:assert/strict"
import { randomUUID } from "node:crypto"
import type { Call, Reply, Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import { createFlag, NO_EDIT_RIGHTS, patchFlag, ROLE_ACCESS, TIMESTAMP, uniqueKey } from "./feature-flags-support.ts"
import { BAD_KEY, denied, expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

export const ROLES = {
  list: { group: "roles", endpoint: "list" },
  create: { group: "roles", endpoint: "create" },
  retrieve: { group: "roles", endpoint: "retrieve" },
  update: { group: "roles", endpoint: "update" },
  destroy: { group: "roles", endpoint: "destroy" },
  memberships: { group: "roles", endpoint: "memberships" },
  addMembership: { group: "roles", endpoint: "addMembership" },
  removeMembership: { group: "roles", endpoint: "removeMembership" }
} as const

const ROLE_FIELDS = ["created_at", "created_by", "feature_flags_access_level", "id", "is_default", "members", "name"]
const MEMBERSHIP_FIELDS = ["id", "joined_at", "organization_member", "role_id", "updated_at", "user"]
const NOT_ADMIN = denied("You need to have admin level or higher.")
const UNKNOWN = "00000000-0000-4000-8000-000000000000"
const USER_MISSING = invalid(null, "User does not exist.", "invalid")

/** A role name no other scenario or run has taken: names are unique per organization, whatever their case. */
const freshName = (stem: string) => `${stem} ${randomUUID().slice(0, 8)}`

/** Makes a role in `organization` and answers it, failing the scenario unless it answers 201. */
const createRole = async (target: Target, key: string, organization: string, body: object = {}) => {
  const reply = await target.call(ROLES.create, { key, params: { organization_id: organization }, body: { name: freshName("Role"), ...body } })
  expectReply(reply, 201)
  return reply.body
}

const removeRole = (target: Target, key: string, organization: string, id: string) =>
  target.call(ROLES.destroy, { key, params: { organization_id: organization, id } })

/** Runs `run`, then deletes the role whatever happened. */
const withRole = async (target: Target, key: string, organization: string, body: object, run: (role: any) => Promise<void>) => {
  const role = await createRole(target, key, organization, body)
  try {
    await run(role)
  } finally {
    await removeRole(target, key, organization, role.id)
  }
}

const addMember = (target: Target, key: string, organization: string, role: string, body: unknown) =>
  target.call(ROLES.addMembership, { key, params: { organization_id: organization, role_id: role }, body })

/** Every role endpoint with a plausible body, on `organization` and the role and membership ids given. */
const everyEndpoint = (
  target: Target,
  call: { key?: string; organization: string; role: string; membership: string },
  only: ReadonlyArray<keyof typeof ROLES> = Object.keys(ROLES) as ReadonlyArray<keyof typeof ROLES>
) => {
  const org = { organization_id: call.organization }
  const calls: ReadonlyArray<readonly [keyof typeof ROLES, Call]> = [
    ["list", { key: call.key, params: org }],
    ["create", { key: call.key, params: org, body: { name: freshName("Never") } }],
    ["retrieve", { key: call.key, params: { ...org, id: call.role } }],
    ["update", { key: call.key, params: { ...org, id: call.role }, body: { name: freshName("Never") } }],
    ["destroy", { key: call.key, params: { ...org, id: call.role } }],
    ["memberships", { key: call.key, params: { ...org, role_id: call.role } }],
    ["addMembership", { key: call.key, params: { ...org, role_id: call.role }, body: { user_uuid: UNKNOWN } }],
    ["removeMembership", { key: call.key, params: { ...org, role_id: call.role, id: call.membership } }]
  ]
  return calls.filter(([endpoint]) => only.includes(endpoint)).map(([endpoint, request]) => [endpoint, target.call(ROLES[endpoint], request)] as const)
}
const READS: ReadonlyArray<keyof typeof ROLES> = ["list", "retrieve", "memberships"]

const nameCases: ReadonlyArray<readonly [string, unknown | (() => unknown), ReturnType<typeof invalid>]> = [
  ["a null name", { name: null }, invalid("name", "This field may not be null.", "null")],
  ["a blank name", { name: "" }, invalid("name", "This field may not be blank.", "blank")],
  ["a name of spaces only", { name: "  " }, invalid("name", "This field may not be blank.", "blank")],
  ["a name of 201 characters", { name: "r".repeat(201) }, invalid("name", "Ensure this field has no more than 200 characters.", "max_length")],
  ["a name that is not text", { name: { text: "Role" } }, invalid("name", "Not a valid string.")],
  ["a NUL character in the name", { name: "Ro\u0000le" }, invalid("name", "Null characters are not allowed.", "null_characters_not_allowed")],
  ["an unknown flag access level", () => ({ name: freshName("Level"), feature_flags_access_level: 5 }), invalid("feature_flags_access_level", "\"5\" is not a valid choice.", "invalid_choice")],
  ["a list instead of an object", [{ name: "Role" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")]
]

const membershipCases: ReadonlyArray<readonly [string, unknown, ReturnType<typeof invalid>]> = [
  ["no user_uuid", {}, invalid("user_uuid", "This field is required.", "required")],
  ["a null user_uuid", { user_uuid: null }, invalid("user_uuid", "This field may not be null.", "null")],
  ["a user_uuid that is no uuid", { user_uuid: "not-a-uuid" }, invalid("user_uuid", "Must be a valid UUID.", "invalid")],
  ["a user_uuid that is a list", { user_uuid: [UNKNOWN] }, invalid("user_uuid", "Must be a valid UUID.", "invalid")],
  ["an unknown user", { user_uuid: UNKNOWN }, USER_MISSING]
]

/** The member of A whose roles these scenarios change (and put back). */
const memberOf = (world: World) => world.members.member

export const roleScenarios: ReadonlyArray<Scenario> = [
  {
    name: "role create answers 201 with PostHog's fields and the caller as creator; retrieve, list, update and delete follow",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const { admin } = world.members
      const org = { organization_id: world.orgA }
      const name = freshName("Reviewers")
      const created = await target.call(ROLES.create, {
        key: admin.key,
        params: org,
        body: { name: `  ${name} `, id: UNKNOWN, created_by: null, members: [{ user_uuid: admin.uuid }], is_default: true }
      })
      expectReply(created, 201)
      const role = created.body
      assert.deepEqual(Object.keys(role).sort(), ROLE_FIELDS)
      assert.deepEqual([role.name, role.feature_flags_access_level, role.members, role.is_default], [name, 37, [], false])
      assert.notEqual(role.id, UNKNOWN)
      assert.match(role.created_at, TIMESTAMP)
      assert.deepEqual([role.created_by.uuid, role.created_by.email], [admin.uuid, admin.email])
      const params = { ...org, id: role.id }
      expectReply(await target.call(ROLES.retrieve, { key: world.keys.memberA, params }), 200, role)
      const listed = await target.call(ROLES.list, { key: world.keys.memberA, params: org, query: { limit: 1000 } })
      expectReply(listed, 200)
      assert.deepEqual(listed.body.results.find((found: { id: string }) => found.id === role.id), role)
      assert.ok(listed.body.results.some((found: { id: string }) => found.id === world.roles.viewA))
      assert.ok(!listed.body.results.some((found: { id: string }) => found.id === world.roles.roleB))

      const renamed = await target.call(ROLES.update, { key: admin.key, params, body: { name: `${name} again`, feature_flags_access_level: "21" } })
      expectReply(renamed, 200, { ...role, name: `${name} again`, feature_flags_access_level: 21 })
      expectReply(await target.call(ROLES.update, { key: admin.key, params, body: {} }), 200, renamed.body)
      // Its own name in another case is no clash.
      const recased = await target.call(ROLES.update, { key: admin.key, params, body: { name: `${name} AGAIN` } })
      expectReply(recased, 200, { ...renamed.body, name: `${name} AGAIN` })

      expectReply(await target.call(ROLES.destroy, { key: admin.key, params }), 204, null)
      expectReply(await target.call(ROLES.retrieve, { key: admin.key, params }), 404, NOT_FOUND)
      expectReply(await target.call(ROLES.destroy, { key: admin.key, params }), 404, NOT_FOUND)
    }
  },
  ...[["no name", {}, invalid("name", "This field is required.", "required")] as const, ...nameCases].map(([label, body, error]): Scenario => ({
    name: `role create refuses ${label} with 400 and the exact message`,
    needs: ["world"],
    run: async (context) => {
      const world = needWorld(context)
      const payload = typeof body === "function" ? body() : body
      expectReply(await context.target.call(ROLES.create, { key: world.keys.ownerA, params: { organization_id: world.orgA }, body: payload }), 400, error)
    }
  })),
  {
    name: "role names are unique in an organization whatever their case, on create and on rename; other organizations may repeat them",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const taken = invalid("name", "There is already a role with this name.", "unique")
      await withRole(target, world.keys.ownerA, world.orgA, {}, async (first) => {
        await withRole(target, world.keys.ownerA, world.orgA, {}, async (second) => {
          const org = { organization_id: world.orgA }
          expectReply(await target.call(ROLES.create, { key: world.keys.ownerA, params: org, body: { name: first.name.toUpperCase() } }), 400, taken)
          const clash = await target.call(ROLES.update, { key: world.keys.ownerA, params: { ...org, id: second.id }, body: { name: first.name.toLowerCase() } })
          expectReply(clash, 400, taken)
          for (const [, body, error] of nameCases.filter(([label]) => label !== "a list instead of an object")) {
            const payload = typeof body === "function" ? body() : body
            expectReply(await target.call(ROLES.update, { key: world.keys.ownerA, params: { ...org, id: second.id }, body: payload }), 400, error)
          }
          expectReply(await target.call(ROLES.retrieve, { key: world.keys.ownerA, params: { ...org, id: second.id } }), 200, second)
          await withRole(target, world.keys.ownerB, world.orgB, { name: first.name }, async (elsewhere) => {
            assert.equal(elsewhere.name, first.name)
          })
        })
      })
    }
  },
  {
    name: "every role endpoint is 401 without a key or with an unknown one",
    needs: ["world"],
    run: async (context) => {
      const world = needWorld(context)
      const ids = { organization: world.orgA, role: world.roles.editA, membership: UNKNOWN }
      for (const [, reply] of everyEndpoint(context.target, ids)) expectReply(await reply, 401, NOT_AUTHENTICATED)
      for (const [, reply] of everyEndpoint(context.target, { ...ids, key: "phx_unknown" })) expectReply(await reply, 401, BAD_KEY)
    }
  },
  {
    name: "role reads need organization:read and writes organization:write; a plain member reads but changes nothing, whatever the id",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const role of [world.roles.editA, UNKNOWN]) {
        const ids = { organization: world.orgA, role, membership: UNKNOWN }
        for (const [endpoint, reply] of everyEndpoint(target, { ...ids, key: world.keys.projectReadA })) {
          expectReply(await reply, 403, missingScope(READS.includes(endpoint) ? "organization:read" : "organization:write"))
        }
        for (const [endpoint, reply] of everyEndpoint(target, { ...ids, key: memberOf(world).key })) {
          if (READS.includes(endpoint)) expectReply(await reply, role === UNKNOWN && endpoint !== "list" ? 404 : 200)
          else expectReply(await reply, 403, NOT_ADMIN)
        }
      }
      const scoped = denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
      for (const [, reply] of everyEndpoint(target, { organization: world.orgA, role: world.roles.editA, membership: UNKNOWN, key: world.keys.bothScopedToB })) {
        expectReply(await reply, 403, scoped)
      }
    }
  },
  {
    name: "another organization's roles, unknown and malformed ids answer 404 on every role endpoint",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      // A role of B named under A, unknown and malformed role ids, and anything under B, whose member the owner of A is not.
      const byRole: ReadonlyArray<keyof typeof ROLES> = ["retrieve", "update", "destroy", "memberships", "addMembership", "removeMembership"]
      for (const role of [world.roles.roleB, UNKNOWN, "not-an-id"]) {
        for (const [, reply] of everyEndpoint(target, { organization: world.orgA, role, membership: UNKNOWN, key: world.keys.ownerA }, byRole)) {
          expectReply(await reply, 404, NOT_FOUND)
        }
      }
      for (const [, reply] of everyEndpoint(target, { organization: world.orgB, role: world.roles.roleB, membership: UNKNOWN, key: world.keys.ownerA })) {
        expectReply(await reply, 404, NOT_FOUND)
      }
      // A membership of another role, even of the same organization, is unknown to this one.
      await withRole(target, world.keys.ownerA, world.orgA, {}, async (role) => {
        const joined = await addMember(target, world.keys.ownerA, world.orgA, role.id, { user_uuid: memberOf(world).uuid })
        expectReply(joined, 201)
        const params = { organization_id: world.orgA, role_id: world.roles.editA, id: joined.body.id }
        expectReply(await target.call(ROLES.removeMembership, { key: world.keys.ownerA, params }), 404, NOT_FOUND)
        expectReply(await target.call(ROLES.removeMembership, { key: world.keys.ownerB, params: { ...params, organization_id: world.orgB, role_id: world.roles.roleB } }), 404, NOT_FOUND)
        const listed = await target.call(ROLES.memberships, { key: world.keys.ownerA, params: { organization_id: world.orgA, role_id: role.id } })
        expectReply(listed, 200, { count: 1, next: null, previous: null, results: [joined.body] })
      })
    }
  },
  {
    name: "role memberships: an administrator adds a member by uuid (201 with PostHog's fields), lists and removes them",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const { admin } = world.members
      const member = memberOf(world)
      await withRole(target, admin.key, world.orgA, {}, async (role) => {
        const joined = await addMember(target, admin.key, world.orgA, role.id, { user_uuid: member.uuid.toUpperCase(), id: UNKNOWN })
        expectReply(joined, 201)
        const membership = joined.body
        assert.deepEqual(Object.keys(membership).sort(), MEMBERSHIP_FIELDS)
        assert.notEqual(membership.id, UNKNOWN)
        assert.deepEqual([membership.role_id, membership.user.uuid, membership.user.email], [role.id, member.uuid, member.email])
        assert.deepEqual([membership.organization_member.level, membership.organization_member.user.uuid], [1, member.uuid])
        assert.match(membership.joined_at, TIMESTAMP)
        assert.equal(membership.updated_at, membership.joined_at)
        const params = { organization_id: world.orgA, role_id: role.id }
        expectReply(await target.call(ROLES.memberships, { key: member.key, params }), 200, { count: 1, next: null, previous: null, results: [membership] })
        const read = await target.call(ROLES.retrieve, { key: member.key, params: { organization_id: world.orgA, id: role.id } })
        expectReply(read, 200, { ...role, members: [membership] })
        expectReply(await addMember(target, admin.key, world.orgA, role.id, { user_uuid: member.uuid }), 400, invalid(null, "User is already part of the role.", "invalid"))
        // The founder belongs to no organization here: for a role of A they are no user at all.
        expectReply(await addMember(target, admin.key, world.orgA, role.id, { user_uuid: world.founder.uuid }), 400, USER_MISSING)
        for (const [, body, error] of membershipCases) expectReply(await addMember(target, admin.key, world.orgA, role.id, body), 400, error)

        expectReply(await target.call(ROLES.removeMembership, { key: admin.key, params: { ...params, id: membership.id } }), 204, null)
        for (const id of [membership.id, "not-an-id"]) {
          expectReply(await target.call(ROLES.removeMembership, { key: admin.key, params: { ...params, id } }), 404, NOT_FOUND)
        }
        expectReply(await target.call(ROLES.memberships, { key: admin.key, params }), 200, { count: 0, next: null, previous: null, results: [] })
      })
    }
  },
  {
    name: "role memberships page like DRF, in the order members joined",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const joiners = [world.members.member, world.members.admin, world.members.owner]
      await withRole(target, world.keys.ownerA, world.orgA, {}, async (role) => {
        for (const joiner of joiners) expectReply(await addMember(target, world.keys.ownerA, world.orgA, role.id, { user_uuid: joiner.uuid }), 201)
        const params = { organization_id: world.orgA, role_id: role.id }
        const page = await target.call(ROLES.memberships, { key: world.keys.ownerA, params, query: { limit: 2, offset: 1 } })
        expectReply(page, 200)
        assert.equal(page.body.count, 3)
        assert.deepEqual(page.body.results.map((m: { user: { uuid: string } }) => m.user.uuid), joiners.slice(1).map((joiner) => joiner.uuid))
        assert.equal(page.body.next, null)
        assert.match(page.body.previous, /role_memberships\/\?limit=2$/)
      })
    }
  },
  {
    name: "a role made over the API gives flag role access: its can-only-view members edit exactly the flags granted to it, until it is deleted",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const member = memberOf(world)
      const owner = { key: world.keys.ownerA, project: world.projectA }
      const granted = await createFlag(target, owner, { key: uniqueKey("role-granted") })
      const other = await createFlag(target, owner, { key: uniqueKey("role-other") })
      const role = await createRole(target, world.keys.ownerA, world.orgA, { feature_flags_access_level: 21 })
      const flagParams = { project_id: world.projectA, feature_flag_id: granted.id }
      let grant: Reply | undefined
      try {
        expectReply(await addMember(target, world.keys.ownerA, world.orgA, role.id, { user_uuid: member.uuid }), 201)
        grant = await target.call(ROLE_ACCESS.create, { key: world.keys.ownerA, params: flagParams, body: { role_id: role.id } })
        expectReply(grant, 201)
        assert.deepEqual([grant.body.role.id, grant.body.role.members.map((m: { user: { uuid: string } }) => m.user.uuid)], [role.id, [member.uuid]])
        const as = { key: member.key, project: world.projectA }
        expectReply(await patchFlag(target, as, granted.id, { name: "edited through the role" }), 200)
        expectReply(await patchFlag(target, as, other.id, { name: "not granted" }), 403, NO_EDIT_RIGHTS)
      } finally {
        expectReply(await target.call(ROLES.destroy, { key: world.keys.ownerA, params: { organization_id: world.orgA, id: role.id } }), 204)
      }
      // The grant went with the role, and the member, in no role now, may edit as the organization's default allows.
      expectReply(await target.call(ROLE_ACCESS.list, { key: world.keys.ownerA, params: flagParams }), 200, { count: 0, next: null, previous: null, results: [] })
      expectReply(await target.call(ROLE_ACCESS.retrieve, { key: world.keys.ownerA, params: { ...flagParams, id: grant!.body.id } }), 404, NOT_FOUND)
      expectReply(await patchFlag(target, { key: member.key, project: world.projectA }, other.id, { name: "default rights" }), 200)
    }
  }
]
