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

const list = { group: "invites", endpoint: "list" } as const
const create = { group: "invites", endpoint: "create" } as const
const bulk = { group: "invites", endpoint: "bulk" } as const
const destroy = { group: "invites", endpoint: "destroy" } as const
const createProject = { group: "organizationProjects", endpoint: "create" } as const

const INVITE_FIELDS = [
  "created_at", "created_by", "emailing_attempt_made", "first_name", "id", "is_expired", "level", "message",
  "private_project_access", "target_email", "updated_at"
]
const UNKNOWN_UUID = "00000000-0000-4000-8000-000000000000"
const TOO_HIGH = denied("You cannot invite a user with a higher permission level than your own.")
const ALREADY_MEMBER = "A user with this email address already belongs to the organization."
const PROJECT_UNAVAILABLE = "Project does not exist on this organization, or it is private and you do not have access to it."

interface Invite {
  readonly id: string
  readonly target_email: string
  readonly level: number
  readonly private_project_access: ReadonlyArray<{ readonly id: number; readonly level: string }>
}

/** Every invite of A whose address is `email`, in any case. */
const invitesFor = async (target: Target, world: World, email: string): Promise<ReadonlyArray<Invite>> => {
  const reply = await target.call(list, { key: world.keys.ownerA, params: { organization_id: world.orgA }, query: { limit: 1000 } })
  expectReply(reply, 200)
  return reply.body.results.filter((invite: Invite) => invite.target_email.toLowerCase() === email.toLowerCase())
}

const withWorld = (name: string, run: (target: Target, world: World) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context: ScenarioContext) => run(context.target, needWorld(context))
})

/** One rule per row: the body sent and the exact error PostHog answers it with. */
const validationCases: ReadonlyArray<readonly [string, unknown, ReturnType<typeof invalid>]> = [
  ["a missing e-mail", { first_name: "x" }, invalid("target_email", "This field is required.", "required")],
  ["a null e-mail", { target_email: null }, invalid("target_email", "This field may not be null.", "null")],
  ["a blank e-mail", { target_email: "  " }, invalid("target_email", "This field may not be blank.", "blank")],
  ["an e-mail without a domain", { target_email: "nobody" }, invalid("target_email", "Enter a valid email address.")],
  ["an e-mail that is not text", { target_email: 5 }, invalid("target_email", "Not a valid string.")],
  ["an e-mail of 255 characters", { target_email: `${"x".repeat(243)}@example.com` }, invalid("target_email", "Ensure this field has no more than 254 characters.", "max_length")],
  ["a first name of 31 characters", { target_email: "v@example.com", first_name: "f".repeat(31) }, invalid("first_name", "Ensure this field has no more than 30 characters.", "max_length")],
  ["a null first name", { target_email: "v@example.com", first_name: null }, invalid("first_name", "This field may not be null.", "null")],
  ["level 5", { target_email: "v@example.com", level: 5 }, invalid("level", "\"5\" is not a valid choice.", "invalid_choice")],
  ["a level that is a word", { target_email: "v@example.com", level: "admin" }, invalid("level", "\"admin\" is not a valid choice.", "invalid_choice")],
  ["a message that is not text", { target_email: "v@example.com", message: ["hi"] }, invalid("message", "Not a valid string.")],
  ["project access that is not a list", { target_email: "v@example.com", private_project_access: "all" }, invalid("private_project_access", "Expected a list of items but got type \"str\".", "not_a_list")],
  ["project access items that are not objects", { target_email: "v@example.com", private_project_access: [7] }, invalid("private_project_access__0", "Expected a dictionary of items but got type \"int\".", "not_a_dict")],
  ["project access without an id", { target_email: "v@example.com", private_project_access: [{ level: "member" }] }, invalid("private_project_access__0__id", "This field is required.", "required")],
  ["project access at level owner", { target_email: "v@example.com", private_project_access: [{ id: 1, level: "owner" }] }, invalid("private_project_access__0__level", "\"owner\" is not a valid choice.", "invalid_choice")],
  ["send_email as no known word", { target_email: "v@example.com", send_email: "maybe" }, invalid("send_email", "Must be a valid boolean.")],
  ["combine_pending_invites as a list", { target_email: "v@example.com", combine_pending_invites: [] }, invalid("combine_pending_invites", "Must be a valid boolean.")],
  ["a list instead of an object", [{ target_email: "v@example.com" }], invalid(null, "Invalid data. Expected a dictionary, but got list.")],
  ["a NUL character in the message", { target_email: "v@example.com", message: "a\u0000b" }, invalid("message", "Null characters are not allowed.", "null_characters_not_allowed")],
  ["the first bad field, in the serializer's order", { target_email: "bad", first_name: "f".repeat(31), level: 2 }, invalid("target_email", "Enter a valid email address.")]
]

export const inviteScenarios: ReadonlyArray<Scenario> = [
  withWorld("invite create answers 201 with PostHog's invite and its defaults; write-only fields stay out", async (target, world) => {
    const reply = await target.call(create, {
      key: world.keys.ownerA,
      params: { organization_id: world.orgA },
      body: { target_email: "  New.Person@Example.COM ", first_name: "New", send_email: false, combine_pending_invites: false, id: UNKNOWN_UUID }
    })
    expectReply(reply, 201)
    const invite = reply.body
    assert.deepEqual(Object.keys(invite).sort(), INVITE_FIELDS)
    assert.deepEqual(
      [invite.target_email, invite.first_name, invite.level, invite.is_expired, invite.emailing_attempt_made, invite.message, invite.private_project_access],
      ["New.Person@example.com", "New", 1, false, false, null, []]
    )
    assert.notEqual(invite.id, UNKNOWN_UUID)
    assert.equal(invite.created_by.email, "owner@a.example")
    assert.match(invite.created_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/)
    assert.deepEqual(await invitesFor(target, world, "new.person@example.com"), [invite])
  }),
  {
    // Harness-made targets have a mail server; without one the attempt is false (packages/store/test/members-invites.test.ts).
    name: "invite create keeps level, message and project access; with a mail transport configured the e-mail is attempted",
    needs: ["world", "network"],
    run: async (context: ScenarioContext) => {
      const world = needWorld(context)
      const reply = await context.target.call(create, {
        key: world.members.admin.key,
        params: { organization_id: world.orgA },
        body: { target_email: "keeps@example.com", level: "8", message: "Welcome aboard", private_project_access: [{ id: world.projectA, level: "admin" }] }
      })
      expectReply(reply, 201)
      assert.deepEqual(
        [reply.body.level, reply.body.message, reply.body.private_project_access, reply.body.emailing_attempt_made, reply.body.created_by.uuid],
        [8, "Welcome aboard", [{ id: world.projectA, level: "admin" }], true, world.members.admin.uuid]
      )
    }
  },
  withWorld("a new invite replaces every earlier one for the same address, whatever its letter case", async (target, world) => {
    const params = { organization_id: world.orgA }
    expectReply(await target.call(create, { key: world.keys.ownerA, params, body: { target_email: "again@replace.example" } }), 201)
    const second = await target.call(create, { key: world.keys.ownerA, params, body: { target_email: "Again@REPLACE.example", level: 8 } })
    expectReply(second, 201)
    const left = await invitesFor(target, world, "again@replace.example")
    assert.deepEqual(left.map((invite) => [invite.id, invite.level]), [[second.body.id, 8]])
  }),
  withWorld("combine_pending_invites keeps the highest level and each project's highest access", async (target, world) => {
    const params = { organization_id: world.orgA }
    const other = await target.call(createProject, { key: world.keys.ownerA, params, body: { name: "Invite project" } })
    expectReply(other, 201)
    const email = "combined@example.com"
    expectReply(await target.call(create, {
      key: world.keys.ownerA,
      params,
      body: { target_email: email, level: 8, private_project_access: [{ id: world.projectA, level: "admin" }] }
    }), 201)
    const merged = await target.call(create, {
      key: world.keys.ownerA,
      params,
      body: {
        target_email: email,
        level: 1,
        combine_pending_invites: true,
        private_project_access: [{ id: other.body.id, level: "member" }, { id: world.projectA, level: "member" }]
      }
    })
    expectReply(merged, 201)
    assert.equal(merged.body.level, 8)
    assert.deepEqual(merged.body.private_project_access, [{ id: other.body.id, level: "member" }, { id: world.projectA, level: "admin" }])
    const plain = await target.call(create, { key: world.keys.ownerA, params, body: { target_email: email, level: 1 } })
    assert.deepEqual([plain.body.level, plain.body.private_project_access], [1, []])
    assert.equal((await invitesFor(target, world, email)).length, 1)
  }),
  withWorld("an invite above the inviter's level is 403, even when other fields are wrong too", async (target, world) => {
    const params = { organization_id: world.orgA }
    expectReply(await target.call(create, { key: world.members.member.key, params, body: { target_email: "up@example.com", level: 8 } }), 403, TOO_HIGH)
    expectReply(await target.call(create, { key: world.members.admin.key, params, body: { target_email: "up@example.com", level: 15 } }), 403, TOO_HIGH)
    expectReply(await target.call(create, { key: world.members.member.key, params, body: { target_email: "bad", level: "8" } }), 403, TOO_HIGH)
    const mine = await target.call(create, { key: world.members.member.key, params, body: { target_email: "up@example.com", level: 1 } })
    expectReply(mine, 201)
  }),
  withWorld("an address that already belongs to a member is refused, in any letter case", async (target, world) => {
    const params = { organization_id: world.orgA }
    for (const target_email of ["member@a.example", "MEMBER@A.Example", world.members.admin.email]) {
      expectReply(await target.call(create, { key: world.keys.ownerA, params, body: { target_email } }), 400, invalid(null, ALREADY_MEMBER))
    }
    // A member of another organization may be invited.
    expectReply(await target.call(create, { key: world.keys.ownerA, params, body: { target_email: "owner@b.example", send_email: false } }), 201)
  }),
  ...validationCases.map(([label, body, error]) => withWorld(`invite create refuses ${label} with 400 and the exact message`, async (target, world) => {
    expectReply(await target.call(create, { key: world.keys.ownerA, params: { organization_id: world.orgA }, body }), 400, error)
  })),
  withWorld("private project access names only projects of the organization; private ones only for admins", async (target, world) => {
    const params = { organization_id: world.orgA }
    const refused = invalid("private_project_access", PROJECT_UNAVAILABLE)
    for (const id of [world.projectB, 999999, 99999999999]) {
      const body = { target_email: "projects@example.com", private_project_access: [{ id: world.projectA, level: "member" }, { id, level: "member" }] }
      expectReply(await target.call(create, { key: world.keys.ownerA, params, body }), 400, refused)
    }
    const hidden = await target.call(createProject, { key: world.keys.ownerA, params, body: { name: "Private", access_control: true } })
    expectReply(hidden, 201)
    const body = { target_email: "projects@example.com", private_project_access: [{ id: hidden.body.id, level: "member" }] }
    expectReply(await target.call(create, { key: world.members.member.key, params, body }), 400, refused)
    expectReply(await target.call(create, { key: world.members.admin.key, params, body }), 201)
  }),
  withWorld("invite list: newest first, paginated, with the invite's fields", async (target, world) => {
    const params = { organization_id: world.orgA }
    for (const target_email of ["older@list.example", "newer@list.example"]) {
      expectReply(await target.call(create, { key: world.keys.ownerA, params, body: { target_email } }), 201)
    }
    const first = await target.call(list, { key: world.keys.ownerA, params, query: { limit: 2 } })
    expectReply(first, 200)
    assert.deepEqual(first.body.results.map((invite: Invite) => invite.target_email), ["newer@list.example", "older@list.example"])
    assert.deepEqual(Object.keys(first.body.results[0]).sort(), INVITE_FIELDS)
    assert.equal(pathOf(first.body.next), `/api/organizations/${world.orgA}/invites/?limit=2&offset=2`)
    const all = await target.call(list, { key: world.keys.ownerA, params, query: { limit: 1000 } })
    const created = all.body.results.map((invite: { created_at: string }) => invite.created_at)
    assert.deepEqual(created, [...created].sort().reverse())
    assert.equal(all.body.count, all.body.results.length)
  }),
  withWorld("invite list: 401, 403 without organization_member:read, 404 for other organizations", async (target, world) => {
    expectReply(await target.call(list, { params: { organization_id: world.orgA } }), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(list, { key: world.keys.projectReadA, params: { organization_id: world.orgA } }), 403, missingScope("organization_member:read"))
    for (const organization_id of [world.orgB, UNKNOWN_UUID, "not-a-uuid"]) {
      expectReply(await target.call(list, { key: world.keys.ownerA, params: { organization_id } }), 404, NOT_FOUND)
    }
  }),
  withWorld("invite create: 401, 403 without organization_member:write, 404 for other organizations before the body is read", async (target, world) => {
    const body = { target_email: "scope@example.com" }
    expectReply(await target.call(create, { params: { organization_id: world.orgA }, body }), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(create, { key: world.keys.projectReadA, params: { organization_id: world.orgA }, body }), 403, missingScope("organization_member:write"))
    for (const organization_id of [world.orgB, UNKNOWN_UUID, "not-a-uuid"]) {
      expectReply(await target.call(create, { key: world.keys.ownerA, params: { organization_id }, body: { target_email: 5 } }), 404, NOT_FOUND)
    }
  }),
  withWorld("invite delete answers 204 and the invite is gone; deleting it again is 404", async (target, world) => {
    const params = { organization_id: world.orgA }
    const made = await target.call(create, { key: world.keys.ownerA, params, body: { target_email: "withdrawn@example.com" } })
    expectReply(made, 201)
    expectReply(await target.call(destroy, { key: world.members.member.key, params: { ...params, id: made.body.id.toUpperCase() } }), 204)
    assert.deepEqual(await invitesFor(target, world, "withdrawn@example.com"), [])
    expectReply(await target.call(destroy, { key: world.keys.ownerA, params: { ...params, id: made.body.id } }), 404, NOT_FOUND)
  }),
  withWorld("invite delete: 401, 403 without organization_member:write, 404 for unknown, malformed and other organizations' invites", async (target, world) => {
    const theirs = await target.call(create, { key: world.keys.ownerB, params: { organization_id: world.orgB }, body: { target_email: "theirs@example.com" } })
    expectReply(theirs, 201)
    const params = { organization_id: world.orgA, id: theirs.body.id }
    expectReply(await target.call(destroy, { params }), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(destroy, { key: world.keys.projectReadA, params }), 403, missingScope("organization_member:write"))
    for (const id of [theirs.body.id, UNKNOWN_UUID, "not-a-uuid", "1"]) {
      expectReply(await target.call(destroy, { key: world.keys.ownerA, params: { organization_id: world.orgA, id } }), 404, NOT_FOUND)
    }
    expectReply(await target.call(destroy, { key: world.keys.ownerA, params: { organization_id: world.orgB, id: theirs.body.id } }), 404, NOT_FOUND)
    // Still there for its own organization.
    expectReply(await target.call(destroy, { key: world.keys.ownerB, params: { organization_id: world.orgB, id: theirs.body.id } }), 204)
  }),
  withWorld("bulk creates every invite and answers 200 with an empty body", async (target, world) => {
    const reply = await target.call(bulk, {
      key: world.keys.ownerA,
      params: { organization_id: world.orgA },
      body: [
        { target_email: "bulk.one@example.com", first_name: "One" },
        { target_email: "bulk.two@example.com", level: 8 },
        { target_email: "bulk.three@example.com", send_email: false }
      ]
    })
    expectReply(reply, 200, null)
    for (const [email, level] of [["bulk.one@example.com", 1], ["bulk.two@example.com", 8], ["bulk.three@example.com", 1]] as const) {
      const found = await invitesFor(target, world, email)
      assert.deepEqual(found.map((invite) => invite.level), [level], email)
    }
  }),
  withWorld("bulk: the same address twice keeps the last", async (target, world) => {
    const body = [{ target_email: "twice@bulk.example" }, { target_email: "TWICE@bulk.example", level: 8 }]
    expectReply(await target.call(bulk, { key: world.keys.ownerA, params: { organization_id: world.orgA }, body }), 200, null)
    assert.deepEqual((await invitesFor(target, world, "twice@bulk.example")).map((invite) => [invite.target_email, invite.level]), [["TWICE@bulk.example", 8]])
  }),
  withWorld("bulk refuses a body that is not a list of 1 to 20 invites", async (target, world) => {
    const params = { organization_id: world.orgA }
    const call = (body: unknown) => target.call(bulk, { key: world.keys.ownerA, params, body })
    const notAList = invalid(null, "This endpoint needs an array of data for bulk invite creation.")
    expectReply(await call({ target_email: "one@example.com" }), 400, notAList)
    expectReply(await call("invites"), 400, notAList)
    const many = Array.from({ length: 21 }, (_, i) => ({ target_email: `many${i}@bulk.example` }))
    expectReply(await call(many), 400, invalid(null, "A maximum of 20 invites can be sent in a single request.", "max_length"))
    expectReply(await call([]), 400, invalid(null, "This list may not be empty.", "empty"))
    assert.deepEqual(await invitesFor(target, world, "many0@bulk.example"), [])
  }),
  withWorld("bulk is all or nothing: one bad item creates none, and its error names the item's index", async (target, world) => {
    const params = { organization_id: world.orgA }
    const call = (body: unknown) => target.call(bulk, { key: world.keys.ownerA, params, body })
    const good = { target_email: "kept.out@bulk.example" }
    expectReply(await call([good, { target_email: "bad" }]), 400, invalid("1__target_email", "Enter a valid email address."))
    expectReply(await call([good, good, { target_email: "x@example.com", level: 2 }]), 400, invalid("2__level", "\"2\" is not a valid choice.", "invalid_choice"))
    expectReply(await call([good, "x"]), 400, invalid("1", "Invalid data. Expected a dictionary, but got str."))
    expectReply(await call([good, { target_email: "member@a.example" }]), 400, invalid("1", ALREADY_MEMBER))
    expectReply(
      await call([good, { target_email: "p@example.com", private_project_access: [{ id: world.projectB, level: "member" }] }]),
      400,
      invalid("1__private_project_access", PROJECT_UNAVAILABLE)
    )
    assert.deepEqual(await invitesFor(target, world, "kept.out@bulk.example"), [])
  }),
  withWorld("bulk: a level above the caller's in any item is 403, before any item's 400", async (target, world) => {
    const body = [{ target_email: "bad" }, { target_email: "fine@bulk.example" }, { target_email: "high@bulk.example", level: 8 }]
    expectReply(await target.call(bulk, { key: world.members.member.key, params: { organization_id: world.orgA }, body }), 403, TOO_HIGH)
    assert.deepEqual(await invitesFor(target, world, "fine@bulk.example"), [])
  }),
  withWorld("bulk: 401, 403 without organization_member:write, 404 for other organizations", async (target, world) => {
    const body = [{ target_email: "scope@bulk.example" }]
    expectReply(await target.call(bulk, { params: { organization_id: world.orgA }, body }), 401, NOT_AUTHENTICATED)
    expectReply(await target.call(bulk, { key: world.keys.projectReadA, params: { organization_id: world.orgA }, body }), 403, missingScope("organization_member:write"))
    for (const organization_id of [world.orgB, UNKNOWN_UUID, "not-a-uuid"]) {
      expectReply(await target.call(bulk, { key: world.keys.ownerA, params: { organization_id }, body: "not a list" }), 404, NOT_FOUND)
    }
    assert.deepEqual(await invitesFor(target, world, "scope@bulk.example"), [])
  })
]
