import assert from "node:assert/strict"
import type { Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import {
  denied,
  expectReply,
  invalid,
  missingScope,
  needWorld,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  pathOf,
  type Scenario,
  type ScenarioContext
} from "./scenario.ts"

const list = { group: "members", endpoint: "list" } as const
const update = { group: "members", endpoint: "update" } as const
const destroy = { group: "members", endpoint: "destroy" } as const
const me = { group: "identity", endpoint: "me" } as const

const MEMBER_FIELDS = ["has_social_auth", "id", "is_2fa_enabled", "joined_at", "last_login", "level", "updated_at", "user"]
const USER_FIELDS = [
  "distinct_id", "email", "first_name", "hedgehog_config", "id", "is_email_verified", "last_name", "role_at_organization", "uuid"
]
const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000"

const OWN_LEVEL = denied("You can't change your own access level.")
const OWNER_ONLY = denied("You can only make another member owner if you're this organization's owner.")
const ADMINS_ONLY = denied("You can only edit others if you are an admin.")
const NOT_ABOVE = denied("You can only edit others with level lower or equal to you.")
const LAST_OWNER = invalid(null, "Cannot leave the organization as its owner!")

interface Member {
  readonly id: string
  readonly level: number
  readonly joined_at: string
  readonly user: { readonly uuid: string; readonly email: string }
}

/** Every member of A, as its first owner sees them. */
const everyone = async (target: Target, world: World, query: Record<string, string> = {}): Promise<ReadonlyArray<Member>> => {
  const reply = await target.call(list, { key: world.keys.ownerA, params: { organization_id: world.orgA }, query: { limit: 1000, ...query } })
  expectReply(reply, 200)
  return reply.body.results
}

const levelOf = async (target: Target, world: World, email: string) =>
  (await everyone(target, world)).find((member) => member.user.email === email)?.level

const uuidOf = async (target: Target, key: string): Promise<string> => (await target.call(me, { key })).body.uuid

/** A scenario on organization A's fixtures. */
const withWorld = (name: string, run: (target: Target, world: World) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context: ScenarioContext) => run(context.target, needWorld(context))
})

export const memberScenarios: ReadonlyArray<Scenario> = [
  withWorld("members list: the organization's members with exactly the Member fields, newest first", async (target, world) => {
    const members = await everyone(target, world)
    const fixture = members.find((member) => member.user.uuid === world.members.member.uuid)
    assert.ok(fixture, "the level-1 fixture is listed")
    assert.deepEqual(Object.keys(fixture).sort(), MEMBER_FIELDS)
    assert.deepEqual(Object.keys(fixture.user).sort(), USER_FIELDS)
    assert.deepEqual(
      { level: fixture.level, email: fixture.user.email, is_2fa_enabled: (fixture as any).is_2fa_enabled, has_social_auth: (fixture as any).has_social_auth },
      { level: 1, email: world.members.member.email, is_2fa_enabled: false, has_social_auth: false }
    )
    assert.match(fixture.joined_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    assert.ok(members.every((member) => member.user.email !== "owner@b.example"), "organization B's owner is not listed")
    const joined = members.map((member) => member.joined_at)
    assert.deepEqual(joined, [...joined].sort().reverse())
  }),
  withWorld("members list: `email` picks one address in any letter case, exactly", async (target, world) => {
    const found = await everyone(target, world, { email: world.members.member.email.toUpperCase() })
    assert.deepEqual(found.map((member) => member.user.uuid), [world.members.member.uuid])
    assert.deepEqual(await everyone(target, world, { email: "fixture.member" }), [])
    assert.deepEqual(await everyone(target, world, { email: "owner@b.example" }), [])
  }),
  withWorld("members list: order=joined_at is oldest first; any other order is newest first", async (target, world) => {
    const newest = (await everyone(target, world)).map((member) => member.id)
    const oldest = (await everyone(target, world, { order: "joined_at" })).map((member) => member.id)
    assert.deepEqual(oldest, [...newest].reverse())
    assert.deepEqual((await everyone(target, world, { order: "-joined_at" })).map((member) => member.id), newest)
    assert.deepEqual((await everyone(target, world, { order: "level" })).map((member) => member.id), newest)
  }),
  withWorld("members list pages DRF-style, keeping the other query parameters", async (target, world) => {
    const params = { organization_id: world.orgA }
    const first = await target.call(list, { key: world.keys.ownerA, params, query: { limit: 1, order: "joined_at" } })
    expectReply(first, 200)
    assert.equal(first.body.results.length, 1)
    assert.equal(pathOf(first.body.next), `/api/organizations/${world.orgA}/members/?limit=1&order=joined_at&offset=1`)
    assert.equal(first.body.previous, null)
    const second = await target.call(list, { key: world.keys.ownerA, params, query: { limit: 1, offset: 1, order: "joined_at" } })
    assert.equal(pathOf(second.body.previous), `/api/organizations/${world.orgA}/members/?limit=1&order=joined_at`)
  }),
  withWorld("members list: 401 without a key, 403 without organization_member:read, 404 for other organizations", async (target, world) => {
    expectReply(await target.call(list, { params: { organization_id: world.orgA } }), 401, NOT_AUTHENTICATED)
    expectReply(
      await target.call(list, { key: world.keys.projectReadA, params: { organization_id: world.orgA } }),
      403,
      missingScope("organization_member:read")
    )
    for (const organization_id of [world.orgB, UNKNOWN_UUID, "not-a-uuid"]) {
      expectReply(await target.call(list, { key: world.keys.ownerA, params: { organization_id } }), 404, NOT_FOUND)
    }
    expectReply(await target.call(list, { key: world.keys.ownerB, params: { organization_id: world.orgA } }), 404, NOT_FOUND)
  }),
  withWorld("an admin changes a member's level (choice as text too) and puts it back", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.member.uuid }
    const raised = await target.call(update, { key: world.members.admin.key, params, body: { level: "8" } })
    expectReply(raised, 200)
    assert.deepEqual(Object.keys(raised.body).sort(), MEMBER_FIELDS)
    assert.deepEqual([raised.body.level, raised.body.user.uuid], [8, world.members.member.uuid])
    assert.ok(raised.body.updated_at >= raised.body.joined_at)
    const back = await target.call(update, { key: world.members.admin.key, params, body: { level: 1 } })
    expectReply(back, 200)
    assert.equal(back.body.level, 1)
    assert.equal(back.body.id, raised.body.id)
  }),
  withWorld("an owner makes another member owner and stays owner; several owners are allowed", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.member.uuid }
    const promoted = await target.call(update, { key: world.members.owner.key, params, body: { level: 15 } })
    expectReply(promoted, 200)
    assert.equal(promoted.body.level, 15)
    assert.equal(await levelOf(target, world, world.members.owner.email), 15)
    // Another owner may demote them again: the organization keeps its other owners.
    expectReply(await target.call(update, { key: world.members.owner.key, params, body: { level: 1 } }), 200)
    assert.equal(await levelOf(target, world, world.members.member.email), 1)
  }),
  withWorld("PATCH refuses each of PostHog's level rules with 403 and its message, changing nothing", async (target, world) => {
    const { member, admin, owner } = world.members
    const patch = (key: string, user__uuid: string, level: unknown) =>
      target.call(update, { key, params: { organization_id: world.orgA, user__uuid }, body: { level } })
    expectReply(await patch(admin.key, "@me", 1), 403, OWN_LEVEL)
    expectReply(await patch(admin.key, admin.uuid, 8), 403, OWN_LEVEL)
    expectReply(await patch(owner.key, "@me", 8), 403, OWN_LEVEL)
    expectReply(await patch(admin.key, member.uuid, 15), 403, OWNER_ONLY)
    expectReply(await patch(member.key, admin.uuid, 1), 403, ADMINS_ONLY)
    expectReply(await patch(admin.key, owner.uuid, 8), 403, NOT_ABOVE)
    // Who may touch whom is decided before the body is read, as in PostHog.
    expectReply(await patch(member.key, admin.uuid, 99), 403, ADMINS_ONLY)
    const levels = await Promise.all([member, admin, owner].map((fixture) => levelOf(target, world, fixture.email)))
    assert.deepEqual(levels, [1, 8, 15])
  }),
  withWorld("PATCH refuses a level outside 1/8/15 with 400 invalid_choice on `level`", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.member.uuid }
    const cases: ReadonlyArray<readonly [unknown, ReturnType<typeof invalid>]> = [
      [5, invalid("level", "\"5\" is not a valid choice.", "invalid_choice")],
      ["owner", invalid("level", "\"owner\" is not a valid choice.", "invalid_choice")],
      [8.5, invalid("level", "\"8.5\" is not a valid choice.", "invalid_choice")],
      [null, invalid("level", "This field may not be null.", "null")]
    ]
    for (const [level, error] of cases) {
      expectReply(await target.call(update, { key: world.keys.ownerA, params, body: { level } }), 400, error)
    }
    expectReply(await target.call(update, { key: world.keys.ownerA, params, body: ["level"] }), 400, invalid(null, "Invalid data. Expected a dictionary, but got list."))
  }),
  withWorld("PATCH without a level changes nothing; other fields are ignored", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.member.uuid }
    const reply = await target.call(update, { key: world.keys.ownerA, params, body: { id: UNKNOWN_UUID, joined_at: "2000-01-01T00:00:00Z" } })
    expectReply(reply, 200)
    assert.equal(reply.body.level, 1)
    assert.notEqual(reply.body.id, UNKNOWN_UUID)
    assert.notEqual(reply.body.joined_at, "2000-01-01T00:00:00Z")
  }),
  withWorld("PATCH: 401, 403 without organization_member:write, 404 for unknown, malformed and other organizations' users", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.member.uuid }
    const body = { level: 1 }
    expectReply(await target.call(update, { params, body }), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(update, { key: world.keys.projectReadA, params, body }), 403, missingScope("organization_member:write"))
    const ownerB = await uuidOf(target, world.keys.ownerB)
    for (const user__uuid of [UNKNOWN_UUID, "not-a-uuid", "1", ownerB]) {
      expectReply(await target.call(update, { key: world.keys.ownerA, params: { organization_id: world.orgA, user__uuid }, body }), 404, NOT_FOUND)
    }
    // Unknown first, whatever the body says.
    expectReply(await target.call(update, { key: world.keys.ownerA, params: { organization_id: world.orgA, user__uuid: UNKNOWN_UUID }, body: { level: 3 } }), 404, NOT_FOUND)
    expectReply(await target.call(update, { key: world.keys.ownerA, params: { organization_id: world.orgB, user__uuid: ownerB }, body }), 404, NOT_FOUND)
  }),
  withWorld("a member leaves with @me: gone from the list, and their current organization moves on", async (target, world) => {
    const { leaver } = world.members
    const before = await target.call(me, { key: leaver.key })
    assert.equal(before.body.organization.id, world.orgA)
    expectReply(await target.call(destroy, { key: leaver.key, params: { organization_id: world.orgA, user__uuid: "@me" } }), 204)
    assert.ok((await everyone(target, world)).every((member) => member.user.uuid !== leaver.uuid))
    const after = await target.call(me, { key: leaver.key })
    expectReply(after, 200)
    assert.equal(after.body.organization, null)
    assert.equal(after.body.team, null)
    expectReply(await target.call(list, { key: leaver.key, params: { organization_id: world.orgA } }), 404, NOT_FOUND)
  }),
  withWorld("an admin removes a member; removing them again is 404", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.removable.uuid }
    expectReply(await target.call(destroy, { key: world.members.admin.key, params }), 204)
    assert.ok((await everyone(target, world)).every((member) => member.user.uuid !== world.members.removable.uuid))
    expectReply(await target.call(destroy, { key: world.members.admin.key, params }), 404, NOT_FOUND)
  }),
  withWorld("members cannot remove others and admins cannot remove owners", async (target, world) => {
    const remove = (key: string, user__uuid: string) => target.call(destroy, { key, params: { organization_id: world.orgA, user__uuid } })
    expectReply(await remove(world.members.member.key, world.members.admin.uuid), 403, ADMINS_ONLY)
    expectReply(await remove(world.members.admin.key, world.members.owner.uuid), 403, NOT_ABOVE)
    expectReply(await remove(world.members.admin.key, await uuidOf(target, world.keys.ownerA)), 403, NOT_ABOVE)
    assert.equal(await levelOf(target, world, world.members.admin.email), 8)
  }),
  withWorld("an organization's last owner can neither leave nor be removed", async (target, world) => {
    const ownerB = await uuidOf(target, world.keys.ownerB)
    for (const user__uuid of ["@me", ownerB]) {
      expectReply(await target.call(destroy, { key: world.keys.ownerB, params: { organization_id: world.orgB, user__uuid } }), 400, LAST_OWNER)
    }
    const still = await target.call(list, { key: world.keys.ownerB, params: { organization_id: world.orgB }, query: { email: "owner@b.example" } })
    assert.equal(still.body.results[0].level, 15)
  }),
  withWorld("an owner may leave while another owner remains", async (target, world) => {
    const { leavingOwner } = world.members
    expectReply(await target.call(destroy, { key: leavingOwner.key, params: { organization_id: world.orgA, user__uuid: leavingOwner.uuid } }), 204)
    assert.ok((await everyone(target, world)).some((member) => member.level === 15))
  }),
  withWorld("DELETE: 401, 403 without organization_member:write, 404 for unknown, malformed and other organizations' users", async (target, world) => {
    const params = { organization_id: world.orgA, user__uuid: world.members.member.uuid }
    expectReply(await target.call(destroy, { params }), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(destroy, { key: world.keys.projectReadA, params }), 403, missingScope("organization_member:write"))
    const ownerB = await uuidOf(target, world.keys.ownerB)
    for (const user__uuid of [UNKNOWN_UUID, "not-a-uuid", ownerB]) {
      expectReply(await target.call(destroy, { key: world.keys.ownerA, params: { organization_id: world.orgA, user__uuid } }), 404, NOT_FOUND)
    }
    for (const organization_id of [world.orgB, UNKNOWN_UUID]) {
      expectReply(await target.call(destroy, { key: world.keys.ownerA, params: { organization_id, user__uuid: world.members.member.uuid } }), 404, NOT_FOUND)
    }
    assert.equal(await levelOf(target, world, world.members.member.email), 1)
  })
]
