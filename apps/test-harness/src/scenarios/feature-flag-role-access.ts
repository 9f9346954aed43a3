import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import {
  conflict,
  createFlag,
  getFlag,
  keysOf,
  linkOf,
  listFlags,
  MEMBER_A_EMAIL,
  NO_EDIT_RIGHTS,
  NO_ROLE_RIGHTS,
  patchFlag,
  ROLE_ACCESS,
  TIMESTAMP,
  uniqueKey
} from "./feature-flags-support.ts"
import { expectReply, invalid, needWorld, NOT_FOUND, type Scenario } from "./scenario.ts"

const grant = (target: Target, key: string, project: number, flag: number, role: string) =>
  target.call(ROLE_ACCESS.create, { key, params: { project_id: project, feature_flag_id: flag }, body: { role_id: role } })

/** A flag of the owner of A, and what the member's view of it needs. */
const ownerFlag = (target: Target, world: World, stem: string) =>
  createFlag(target, { key: world.keys.ownerA, project: world.projectA }, { key: uniqueKey(stem) })

/** PostHog's per-flag role grants, and the edit rights they give under its older access model. */
export const featureFlagRoleAccessScenarios: ReadonlyArray<Scenario> = [
  {
    name: "flag role access create answers 201 with the full flag and the role, whose members are role memberships",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const flag = await ownerFlag(target, world, "role-access")
      const created = await grant(target, world.keys.ownerA, world.projectA, flag.id, world.roles.viewA)
      expectReply(created, 201)
      const access = created.body
      assert.equal(typeof access.id, "number")
      assert.match(access.added_at, TIMESTAMP)
      assert.match(access.updated_at, TIMESTAMP)
      assert.deepEqual([access.feature_flag.id, access.feature_flag.key], [flag.id, flag.key])
      assert.equal(access.role.id, world.roles.viewA)
      assert.equal(access.role.feature_flags_access_level, 21)
      assert.equal(typeof access.role.name, "string")
      assert.match(access.role.created_at, TIMESTAMP)
      assert.deepEqual(access.role.members.map((m: { user: { email: string } }) => m.user.email), [MEMBER_A_EMAIL])
      assert.equal(access.role.members[0].organization_member.level, 1)
      assert.equal(access.role.members[0].role_id, world.roles.viewA)

      const params = { project_id: world.projectA, feature_flag_id: flag.id }
      expectReply(await target.call(ROLE_ACCESS.retrieve, { key: world.keys.ownerA, params: { ...params, id: access.id } }), 200, access)
      const listed = await target.call(ROLE_ACCESS.list, { key: world.keys.ownerA, params })
      expectReply(listed, 200, { count: 1, next: null, previous: null, results: [access] })
      // A read key reads role access too.
      expectReply(await target.call(ROLE_ACCESS.list, { key: world.keys.flagReadA, params }), 200)
    }
  },
  {
    name: "flag role access create refuses an unknown role, another organization's role, a missing role_id and a repeat",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const flag = await ownerFlag(target, world, "role-refusals")
      const unknown = "00000000-0000-4000-8000-000000000000"
      for (const role of [unknown, world.roles.roleB]) {
        expectReply(
          await grant(target, world.keys.ownerA, world.projectA, flag.id, role),
          400,
          invalid("role_id", `Invalid pk "${role}" - object does not exist.`, "does_not_exist")
        )
      }
      expectReply(
        await target.call(ROLE_ACCESS.create, { key: world.keys.ownerA, params: { project_id: world.projectA, feature_flag_id: flag.id }, body: {} }),
        400,
        invalid("role_id", "This field is required.", "required")
      )
      expectReply(await grant(target, world.keys.ownerA, world.projectA, flag.id, world.roles.viewA), 201)
      const repeat = await grant(target, world.keys.ownerA, world.projectA, flag.id, world.roles.viewA)
      expectReply(repeat, 400)
      // The code is Hedgerow's; PostHog has only a bare DB constraint here, with no message to copy.
      assert.deepEqual([repeat.body.type, repeat.body.code], ["validation_error", "unique"])
      const listed = await target.call(ROLE_ACCESS.list, { key: world.keys.ownerA, params: { project_id: world.projectA, feature_flag_id: flag.id } })
      assert.equal(listed.body.count, 1)
    }
  },
  {
    name: "a member whose role can only view (21) edits exactly the flags that grant the role access",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const member = { key: world.keys.memberA, project: world.projectA }
      const granted = await ownerFlag(target, world, "granted")
      const other = await ownerFlag(target, world, "not-granted")
      const access = await grant(target, world.keys.ownerA, world.projectA, granted.id, world.roles.viewA)
      expectReply(access, 201)

      const seen = await getFlag(target, member, granted.id)
      assert.deepEqual([seen.body.can_edit, seen.body.user_access_level], [true, "editor"])
      const unseen = await getFlag(target, member, other.id)
      assert.deepEqual([unseen.body.can_edit, unseen.body.user_access_level], [false, "viewer"])
      const asOwner = await getFlag(target, { key: world.keys.ownerA, project: world.projectA }, other.id)
      assert.deepEqual([asOwner.body.can_edit, asOwner.body.user_access_level], [true, "editor"])
      const listed = await listFlags(target, member, { search: granted.key })
      assert.deepEqual(listed.body.results.map((f: { can_edit: boolean }) => f.can_edit), [true])

      const edited = await patchFlag(target, member, granted.id, { name: "edited by the member" })
      expectReply(edited, 200)
      assert.equal(edited.body.last_modified_by.email, MEMBER_A_EMAIL)
      // The 409 names whoever changed the flag last.
      expectReply(
        await patchFlag(target, { key: world.keys.ownerA, project: world.projectA }, granted.id, { name: "stale", version: 1 }),
        409,
        conflict(MEMBER_A_EMAIL)
      )
      // Soft delete and restore are edits like any other.
      expectReply(await patchFlag(target, member, granted.id, { deleted: true }), 200)
      expectReply(await patchFlag(target, member, granted.id, { deleted: false }), 200)
      expectReply(await patchFlag(target, member, other.id, { name: "not allowed" }), 403, NO_EDIT_RIGHTS)
      expectReply(await patchFlag(target, member, other.id, { deleted: true }), 403, NO_EDIT_RIGHTS)
      expectReply(await getFlag(target, member, other.id), 200, unseen.body)

      // Taking the grant away takes the right away.
      const removed = await target.call(ROLE_ACCESS.destroy, {
        key: world.keys.ownerA,
        params: { project_id: world.projectA, feature_flag_id: granted.id, id: access.body.id }
      })
      expectReply(removed, 204)
      assert.equal((await getFlag(target, member, granted.id)).body.can_edit, false)
      expectReply(await patchFlag(target, member, granted.id, { name: "no longer" }), 403, NO_EDIT_RIGHTS)
    }
  },
  {
    name: "a can-only-view member may create a flag and, as its creator, edit it and manage its role access",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const member = { key: world.keys.memberA, project: world.projectA }
      const own = await createFlag(target, member, { key: uniqueKey("member-made") })
      assert.equal(own.created_by.email, MEMBER_A_EMAIL)
      assert.deepEqual([own.can_edit, own.user_access_level], [true, "editor"])
      const edited = await patchFlag(target, member, own.id, { name: "mine" })
      expectReply(edited, 200)
      expectReply(await grant(target, world.keys.memberA, world.projectA, own.id, world.roles.editA), 201)
      // The owner (an organization admin) edits it too.
      expectReply(await patchFlag(target, { key: world.keys.ownerA, project: world.projectA }, own.id, { name: "theirs too" }), 200)
    }
  },
  {
    name: "a member without an always-edit role may not change a flag's role access",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const flag = await ownerFlag(target, world, "role-rights")
      expectReply(await grant(target, world.keys.memberA, world.projectA, flag.id, world.roles.viewA), 403, NO_ROLE_RIGHTS)
      const access = await grant(target, world.keys.ownerA, world.projectA, flag.id, world.roles.viewA)
      expectReply(access, 201)
      // Even on a flag the member may edit, the role access itself stays the admins' and the creator's.
      expectReply(await grant(target, world.keys.memberA, world.projectA, flag.id, world.roles.editA), 403, NO_ROLE_RIGHTS)
      expectReply(
        await target.call(ROLE_ACCESS.destroy, {
          key: world.keys.memberA,
          params: { project_id: world.projectA, feature_flag_id: flag.id, id: access.body.id }
        }),
        403,
        NO_ROLE_RIGHTS
      )
      // Reading is always allowed.
      expectReply(
        await target.call(ROLE_ACCESS.retrieve, { key: world.keys.memberA, params: { project_id: world.projectA, feature_flag_id: flag.id, id: access.body.id } }),
        200,
        access.body
      )
    }
  },
  {
    name: "flag role access lists by id with DRF pages; retrieve and delete know only the flag's own entries",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const flag = await ownerFlag(target, world, "role-list")
      const elsewhere = await ownerFlag(target, world, "role-elsewhere")
      const params = { project_id: world.projectA, feature_flag_id: flag.id }
      const view = (await grant(target, world.keys.ownerA, world.projectA, flag.id, world.roles.viewA)).body
      const edit = (await grant(target, world.keys.ownerA, world.projectA, flag.id, world.roles.editA)).body
      assert.deepEqual(edit.role.members, [])
      assert.equal(edit.role.feature_flags_access_level, 37)

      const page = await target.call(ROLE_ACCESS.list, { key: world.keys.ownerA, params, query: { limit: 1 } })
      expectReply(page, 200)
      assert.equal(page.body.count, 2)
      assert.deepEqual(page.body.results.map((a: { id: number }) => a.id), [Math.min(view.id, edit.id)])
      assert.deepEqual(linkOf(page.body.next), {
        path: `/api/projects/${world.projectA}/feature_flags/${flag.id}/role_access/`,
        query: { limit: "1", offset: "1" }
      })

      const other = { project_id: world.projectA, feature_flag_id: elsewhere.id }
      for (const id of [view.id, 999999, "abc", "2147483648"]) {
        expectReply(await target.call(ROLE_ACCESS.retrieve, { key: world.keys.ownerA, params: { ...other, id } }), 404, NOT_FOUND)
        expectReply(await target.call(ROLE_ACCESS.destroy, { key: world.keys.ownerA, params: { ...other, id } }), 404, NOT_FOUND)
      }
      expectReply(await target.call(ROLE_ACCESS.destroy, { key: world.keys.ownerA, params: { ...params, id: view.id } }), 204)
      expectReply(await target.call(ROLE_ACCESS.retrieve, { key: world.keys.ownerA, params: { ...params, id: view.id } }), 404, NOT_FOUND)
      expectReply(await target.call(ROLE_ACCESS.destroy, { key: world.keys.ownerA, params: { ...params, id: view.id } }), 404, NOT_FOUND)
      assert.deepEqual(keysOf(await listFlags(target, { key: world.keys.ownerA, project: world.projectA }, { search: flag.key })), [flag.key])
      const left = await target.call(ROLE_ACCESS.list, { key: world.keys.ownerA, params })
      assert.deepEqual(left.body.results.map((a: { id: number }) => a.id), [edit.id])
    }
  }
]
