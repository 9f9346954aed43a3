import assert from "node:assert/strict"
import type { Call, Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import {
  BAD_KEY,
  denied,
  envelope,
  expectReply,
  invalid,
  missingScope,
  needWorld,
  NOT_AUTHENTICATED,
  NOT_FOUND,
  type Scenario
} from "./scenario.ts"

const KEYS = {
  list: { group: "personalApiKeys", endpoint: "list" },
  create: { group: "personalApiKeys", endpoint: "create" },
  retrieve: { group: "personalApiKeys", endpoint: "retrieve" },
  update: { group: "personalApiKeys", endpoint: "update" },
  destroy: { group: "personalApiKeys", endpoint: "destroy" },
  roll: { group: "personalApiKeys", endpoint: "roll" },
  current: { group: "identity", endpoint: "currentKey" }
} as const

/** The fields PostHog answers a key with, in its order. */
const FIELDS = [
  "id", "label", "value", "mask_value", "created_at", "last_used_at", "user_id", "scopes", "scoped_teams", "scoped_organizations",
  "last_rolled_at"
]

const BEYOND_REACH = denied("Your API key cannot manage a key that grants more than it does.")
const TOO_MANY = invalid(null, "You can only have 10 personal API keys. Remove an existing key before creating a new one.")
const NOT_MEMBER_OF_TEAMS = invalid("scoped_teams", "You must be a member of all teams that you are scoping the key to.")
const NOT_MEMBER_OF_ORGANIZATIONS = invalid(
  "scoped_organizations",
  "You must be a member of all organizations that you are scoping the key to."
)
const scopeNotHeld = (scope: string) => invalid("scopes", `Your API key does not have scope '${scope}', so it cannot grant it.`)
const TEAMS_BEYOND = invalid(
  "scoped_teams",
  "Your API key is restricted to some projects, so a key it creates or changes must be restricted to some of them."
)
const ORGANIZATIONS_BEYOND = invalid(
  "scoped_organizations",
  "Your API key is restricted to some organizations, so a key it creates or changes must be restricted to some of them."
)

const maskOf = (key: string) => `${key.slice(0, 4)}...${key.slice(-4)}`

const call = (target: Target, ref: (typeof KEYS)[keyof typeof KEYS], key: string | undefined, rest: Omit<Call, "key"> = {}) =>
  target.call(ref, { key, ...rest })

/** A key made over the API: its id, its secret and the whole answer. */
export const make = async (target: Target, key: string, body: Record<string, unknown>): Promise<{ id: string; value: string; body: any }> => {
  const reply = await call(target, KEYS.create, key, { body })
  expectReply(reply, 201)
  return { id: reply.body.id, value: reply.body.value, body: reply.body }
}

/** The id of the key a secret belongs to, read through `@current`. */
const idOf = async (target: Target, key: string): Promise<string> => {
  const reply = await call(target, KEYS.current, key)
  expectReply(reply, 200)
  return reply.body.id
}

/** Keys a scenario made, each with a key allowed to revoke it. */
type Made = Array<{ readonly id: string; readonly by: string }>

/**
 * A scenario on the operator's fixtures that revokes the keys it made afterwards, even when an assertion
 * failed, so they do not count against their holder's limit in the scenarios after it.
 */
const withKeys = (name: string, run: (target: Target, world: World, made: Made) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context) => {
    const world = needWorld(context)
    const made: Made = []
    try {
      await run(context.target, world, made)
    } finally {
      for (const { id, by } of made) await call(context.target, KEYS.destroy, by, { params: { id } })
    }
  }
})

/** A scenario over raw HTTP, with the key scenarios' own holder's `*` key. */
const overHttp = (name: string, run: (target: Target, raw: NonNullable<Target["raw"]>, holder: string) => Promise<void>): Scenario => ({
  name,
  needs: ["world", "transport"],
  run: async (context) => run(context.target, context.target.raw!, needWorld(context).members.keyHolder.key)
})

export const personalApiKeyScenarios: ReadonlyArray<Scenario> = [
  {
    name: "GET /api/personal_api_keys/@current/ answers PostHog's fields with arrays for the restrictions, never the secret",
    run: async ({ target, primary }) => {
      const reply = await call(target, KEYS.current, primary.key)
      expectReply(reply, 200)
      assert.deepEqual(Object.keys(reply.body), FIELDS)
      assert.equal(reply.body.value, null)
      assert.equal(reply.body.mask_value, maskOf(primary.key))
      assert.ok(Array.isArray(reply.body.scoped_teams) && Array.isArray(reply.body.scoped_organizations))
      assert.ok(!JSON.stringify(reply.body).includes(primary.key), "the key itself is never echoed")
      assert.notEqual(reply.body.last_used_at, null, "using a key records when")
    }
  },
  {
    name: "a key stored without restrictions reads as [] on @current; a restricted one lists what it names",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const free = await call(target, KEYS.current, world.keys.ownerA)
      assert.deepEqual([free.body.scoped_teams, free.body.scoped_organizations], [[], []])
      const toB = await call(target, KEYS.current, world.keys.bothScopedToB)
      assert.deepEqual([toB.body.scoped_teams, toB.body.scoped_organizations], [[], [world.orgB]])
      const toProjectB = await call(target, KEYS.current, world.keys.bothScopedToProjectB)
      assert.deepEqual([toProjectB.body.scoped_teams, toProjectB.body.scoped_organizations], [[world.projectB], []])
    }
  },
  withKeys("create shows the secret once; list, retrieve and @current never do; PATCH changes label, scopes and restrictions", async (target, world, made) => {
    const holder = world.members.keyHolder.key
    const created = await make(target, holder, {
      label: "  ci deploys  ",
      scopes: ["feature_flag:read", "project:write"],
      scoped_teams: [world.projectA],
      scoped_organizations: []
    })
    made.push({ id: created.id, by: holder })
    const me = await call(target, KEYS.current, holder)
    assert.deepEqual(Object.keys(created.body), FIELDS)
    assert.match(created.value, /^phx_[0-9A-Za-z]{43}$/)
    assert.deepEqual(
      { ...created.body, id: null, created_at: null },
      {
        id: null,
        label: "ci deploys",
        value: created.value,
        mask_value: maskOf(created.value),
        created_at: null,
        last_used_at: null,
        user_id: me.body.user_id,
        scopes: ["feature_flag:read", "project:write"],
        scoped_teams: [world.projectA],
        scoped_organizations: [],
        last_rolled_at: null
      }
    )
    const listed = await call(target, KEYS.list, holder)
    expectReply(listed, 200)
    assert.deepEqual(listed.body.map((key: { id: string }) => key.id), [created.id, me.body.id], "newest first")
    assert.deepEqual(listed.body[0], { ...created.body, value: null })
    expectReply(await call(target, KEYS.retrieve, holder, { params: { id: created.id } }), 200, { ...created.body, value: null })
    assert.ok(!JSON.stringify(listed.body).includes(created.value))

    // The new key works, within what it was given; its first use is recorded.
    expectReply(await target.call({ group: "projects", endpoint: "retrieve" }, { key: created.value, params: { project_id: world.projectA } }), 200)
    const used = await call(target, KEYS.retrieve, holder, { params: { id: created.id } })
    assert.notEqual(used.body.last_used_at, null)

    const patched = await call(target, KEYS.update, holder, {
      params: { id: created.id },
      body: { label: "renamed", scopes: ["feature_flag:write"], scoped_teams: [], scoped_organizations: [world.orgA] }
    })
    expectReply(patched, 200)
    assert.deepEqual(
      [patched.body.label, patched.body.scopes, patched.body.scoped_teams, patched.body.scoped_organizations, patched.body.value],
      ["renamed", ["feature_flag:write"], [], [world.orgA], null]
    )
    // What is not given stays.
    const labelOnly = await call(target, KEYS.update, holder, { params: { id: created.id }, body: { label: "again" } })
    assert.deepEqual([labelOnly.body.label, labelOnly.body.scopes, labelOnly.body.scoped_organizations], ["again", ["feature_flag:write"], [world.orgA]])
    expectReply(
      await target.call({ group: "projects", endpoint: "retrieve" }, { key: created.value, params: { project_id: world.projectA } }),
      403,
      missingScope("project:read")
    )
  }),
  withKeys("roll replaces the secret: the old one is refused at once, the new one works and is shown once", async (target, world, made) => {
    const holder = world.members.keyHolder.key
    const created = await make(target, holder, { label: "rolled", scopes: ["*"] })
    made.push({ id: created.id, by: holder })
    expectReply(await call(target, KEYS.current, created.value), 200)
    const rolled = await call(target, KEYS.roll, holder, { params: { id: created.id }, body: {} })
    expectReply(rolled, 200)
    assert.match(rolled.body.value, /^phx_[0-9A-Za-z]{43}$/)
    assert.notEqual(rolled.body.value, created.value)
    assert.deepEqual(
      { ...rolled.body, value: null, mask_value: null, last_rolled_at: null, last_used_at: null },
      { ...created.body, value: null, mask_value: null, last_rolled_at: null, last_used_at: null }
    )
    assert.equal(rolled.body.mask_value, maskOf(rolled.body.value))
    assert.notEqual(rolled.body.last_rolled_at, null)
    expectReply(await call(target, KEYS.current, created.value), 401, BAD_KEY)
    const current = await call(target, KEYS.current, rolled.body.value)
    expectReply(current, 200)
    assert.equal(current.body.id, created.id)
    // A key may roll itself, by `@current` too: the secret it was called with stops working.
    const self = await call(target, KEYS.roll, rolled.body.value, { params: { id: "@current" } })
    expectReply(self, 200)
    expectReply(await call(target, KEYS.current, rolled.body.value), 401, BAD_KEY)
    expectReply(await call(target, KEYS.current, self.body.value), 200)
  }),
  withKeys("DELETE revokes a key at once, and a second DELETE is 404", async (target, world, made) => {
    const holder = world.members.keyHolder.key
    const created = await make(target, holder, { label: "revoked", scopes: ["*"] })
    made.push({ id: created.id, by: holder })
    expectReply(await call(target, KEYS.current, created.value), 200)
    expectReply(await call(target, KEYS.destroy, holder, { params: { id: created.id } }), 204)
    expectReply(await call(target, KEYS.current, created.value), 401, BAD_KEY)
    expectReply(await call(target, KEYS.destroy, holder, { params: { id: created.id } }), 404, NOT_FOUND)
    const listed = await call(target, KEYS.list, holder)
    assert.ok(!listed.body.some((key: { id: string }) => key.id === created.id))
  }),
  {
    name: "personal API key endpoints without a key, or with a bad one, are 401",
    run: async ({ target, primary }) => {
      const id = await idOf(target, primary.key)
      const calls: ReadonlyArray<[(typeof KEYS)[keyof typeof KEYS], Omit<Call, "key">]> = [
        [KEYS.list, {}],
        [KEYS.create, { body: { label: "x", scopes: ["*"] } }],
        [KEYS.retrieve, { params: { id } }],
        [KEYS.update, { params: { id }, body: { label: "x" } }],
        [KEYS.destroy, { params: { id } }],
        [KEYS.roll, { params: { id } }]
      ]
      for (const [ref, rest] of calls) {
        expectReply(await call(target, ref, undefined, rest), 401, NOT_AUTHENTICATED)
        expectReply(await call(target, ref, "phx_not_a_key", rest), 401, BAD_KEY)
      }
    }
  },
  {
    name: "managing keys takes user:read to read and user:write to change; a key reads itself without either",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const narrow = world.keys.flagReadA
      const own = await idOf(target, narrow)
      const other = await idOf(target, world.keys.projectReadA)
      expectReply(await call(target, KEYS.list, narrow), 403, missingScope("user:read"))
      expectReply(await call(target, KEYS.retrieve, narrow, { params: { id: other } }), 403, missingScope("user:read"))
      const self = await call(target, KEYS.retrieve, narrow, { params: { id: own } })
      expectReply(self, 200)
      assert.equal(self.body.id, own)
      expectReply(await call(target, KEYS.create, narrow, { body: { label: "x", scopes: ["feature_flag:read"] } }), 403, missingScope("user:write"))
      for (const id of [own, other]) {
        expectReply(await call(target, KEYS.update, narrow, { params: { id }, body: { label: "x" } }), 403, missingScope("user:write"))
        expectReply(await call(target, KEYS.roll, narrow, { params: { id } }), 403, missingScope("user:write"))
        expectReply(await call(target, KEYS.destroy, narrow, { params: { id } }), 403, missingScope("user:write"))
      }
      // The scope comes before the lookup: an unknown id is 403 too, and so learns nothing.
      expectReply(await call(target, KEYS.destroy, narrow, { params: { id: "00000000-0000-4000-8000-000000000000" } }), 403, missingScope("user:write"))
    }
  },
  {
    name: "another user's keys, another organization's and unknown ids are 404 on every key endpoint, before the body",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const caller = world.keys.ownerA
      const foreign = [
        await idOf(target, world.keys.memberA),
        await idOf(target, world.keys.ownerB),
        "00000000-0000-4000-8000-000000000000",
        "not-a-key-id"
      ]
      for (const id of foreign) {
        expectReply(await call(target, KEYS.retrieve, caller, { params: { id } }), 404, NOT_FOUND)
        expectReply(await call(target, KEYS.update, caller, { params: { id }, body: { label: "" } }), 404, NOT_FOUND)
        expectReply(await call(target, KEYS.roll, caller, { params: { id } }), 404, NOT_FOUND)
        expectReply(await call(target, KEYS.destroy, caller, { params: { id } }), 404, NOT_FOUND)
      }
      const listed = await call(target, KEYS.list, caller)
      assert.ok(!listed.body.some((key: { id: string }) => foreign.includes(key.id)), "only the caller's own keys are listed")
      // The other users' keys still work.
      expectReply(await call(target, KEYS.current, world.keys.memberA), 200)
      expectReply(await call(target, KEYS.current, world.keys.ownerB), 200)
    }
  },
  {
    name: "each rule of a key's body answers PostHog's 400, the first field in PostHog's order",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const holder = world.members.keyHolder.key
      const cases: ReadonlyArray<[Record<string, unknown>, ReturnType<typeof invalid>]> = [
        [{ scopes: ["*"] }, invalid("label", "This field is required.", "required")],
        [{ label: "", scopes: ["*"] }, invalid("label", "This field may not be blank.", "blank")],
        [{ label: "   ", scopes: ["*"] }, invalid("label", "This field may not be blank.", "blank")],
        [{ label: "x".repeat(41), scopes: ["*"] }, invalid("label", "Ensure this field has no more than 40 characters.", "max_length")],
        [{ label: 7, scopes: ["*"] }, invalid("label", "Not a valid string.")],
        [{ label: "", scopes: ["nope"] }, invalid("label", "This field may not be blank.", "blank")],
        [{ label: "x" }, invalid("scopes", "This field is required.", "required")],
        [{ label: "x", scopes: null }, invalid("scopes", "This field may not be null.", "null")],
        [{ label: "x", scopes: "*" }, invalid("scopes", "Expected a list of items but got type \"str\".", "not_a_list")],
        [{ label: "x", scopes: [] }, invalid("scopes", "At least one scope is required.")],
        [{ label: "x", scopes: ["invalid"] }, invalid("scopes", "Invalid scope: invalid")],
        [{ label: "x", scopes: ["feature_flag:read", "feature_flag:invalid"] }, invalid("scopes", "Invalid scope: feature_flag:invalid")],
        [{ label: "x", scopes: ["insight:read"] }, invalid("scopes", "Invalid scope: insight:read")],
        [{ label: "x", scopes: [""] }, invalid("scopes__0", "This field may not be blank.", "blank")],
        [{ label: "x", scopes: ["*"], scoped_teams: null }, invalid("scoped_teams", "This field may not be null.", "null")],
        [{ label: "x", scopes: ["*"], scoped_teams: ["one"] }, invalid("scoped_teams__0", "A valid integer is required.")],
        [{ label: "x", scopes: ["*"], scoped_teams: [world.projectB] }, NOT_MEMBER_OF_TEAMS],
        [{ label: "x", scopes: ["*"], scoped_teams: [world.projectA, 2_147_483_647] }, NOT_MEMBER_OF_TEAMS],
        [{ label: "x", scopes: ["*"], scoped_teams: [99_999_999_999] }, NOT_MEMBER_OF_TEAMS],
        // The projects are checked before the organizations are read, as PostHog checks field by field.
        [{ label: "x", scopes: ["*"], scoped_teams: [world.projectB], scoped_organizations: "x" }, NOT_MEMBER_OF_TEAMS],
        [{ label: "x", scopes: ["*"], scoped_organizations: null }, invalid("scoped_organizations", "This field may not be null.", "null")],
        [{ label: "x", scopes: ["*"], scoped_organizations: ["nope"] }, invalid("scoped_organizations", "Invalid organization UUID")],
        [{ label: "x", scopes: ["*"], scoped_organizations: [world.orgB] }, NOT_MEMBER_OF_ORGANIZATIONS],
        [{ label: "x", scopes: ["*"], scoped_organizations: [world.orgB, "nope"] }, invalid("scoped_organizations", "Invalid organization UUID")]
      ]
      for (const [body, error] of cases) {
        expectReply(await call(target, KEYS.create, holder, { body }), 400, error)
      }
      const own = await idOf(target, holder)
      for (const [body, error] of cases.filter(([body]) => "label" in body && body.label !== "x")) {
        expectReply(await call(target, KEYS.update, holder, { params: { id: own }, body }), 400, error)
      }
      expectReply(await call(target, KEYS.update, holder, { params: { id: own }, body: { scopes: [] } }), 400, invalid("scopes", "At least one scope is required."))
      expectReply(await call(target, KEYS.update, holder, { params: { id: own }, body: { scoped_teams: [world.projectB] } }), 400, NOT_MEMBER_OF_TEAMS)
      // Nothing was written by any of them.
      const listed = await call(target, KEYS.list, holder)
      assert.deepEqual(listed.body.map((key: { id: string }) => key.id), [own])
      assert.deepEqual(listed.body[0].scopes, ["*"])
    }
  },
  withKeys("a user has at most 10 keys: the eleventh is PostHog's 400, and a revoked one frees its place", async (target, world, made) => {
    const holder = world.members.keyHolder.key
    for (let i = 1; i <= 9; i++) made.push({ id: (await make(target, holder, { label: `key ${i}`, scopes: ["feature_flag:read"] })).id, by: holder })
    expectReply(await call(target, KEYS.create, holder, { body: { label: "eleventh", scopes: ["feature_flag:read"] } }), 400, TOO_MANY)
    expectReply(await call(target, KEYS.destroy, holder, { params: { id: made.pop()!.id } }), 204)
    made.push({ id: (await make(target, holder, { label: "tenth again", scopes: ["feature_flag:read"] })).id, by: holder })
    assert.equal((await call(target, KEYS.list, holder)).body.length, 10)
  }),
  withKeys("a key makes keys only within its own scopes, and acts only on keys no wider than itself", async (target, world, made) => {
    const holder = world.members.keyHolder.key
    const everything = await idOf(target, holder)
    const manager = await make(target, holder, { label: "manager", scopes: ["user:write", "feature_flag:read"] })
    made.push({ id: manager.id, by: holder })
    const create = (body: Record<string, unknown>) => call(target, KEYS.create, manager.value, { body: { label: "minted", ...body } })
    expectReply(await create({ scopes: ["feature_flag:write"] }), 400, scopeNotHeld("feature_flag:write"))
    expectReply(await create({ scopes: ["*"] }), 400, scopeNotHeld("*"))
    expectReply(await create({ scopes: ["feature_flag:read", "project:read"] }), 400, scopeNotHeld("project:read"))
    // `write` grants `read`: the manager may give user:read.
    const minted = await create({ scopes: ["feature_flag:read", "user:read"] })
    expectReply(minted, 201)
    made.push({ id: minted.body.id, by: holder })
    // A key wider than the caller cannot be rolled (its new secret would be wider), changed or revoked by it.
    for (const [ref, rest] of [
      [KEYS.roll, {}],
      [KEYS.update, { body: { label: "x" } }],
      [KEYS.destroy, {}]
    ] as const) {
      expectReply(await call(target, ref, manager.value, { params: { id: everything }, ...rest }), 403, BEYOND_REACH)
    }
    expectReply(await call(target, KEYS.current, holder), 200)
    // Nor can it widen one it may change, itself included.
    expectReply(
      await call(target, KEYS.update, manager.value, { params: { id: minted.body.id }, body: { scopes: ["feature_flag:write"] } }),
      400,
      scopeNotHeld("feature_flag:write")
    )
    expectReply(await call(target, KEYS.update, manager.value, { params: { id: "@current" }, body: { scopes: ["*"] } }), 400, scopeNotHeld("*"))
    // It may narrow them, and revoke them.
    const narrowed = await call(target, KEYS.update, manager.value, { params: { id: minted.body.id }, body: { scopes: ["user:read"] } })
    expectReply(narrowed, 200)
    assert.deepEqual(narrowed.body.scopes, ["user:read"])
    const rolled = await call(target, KEYS.roll, manager.value, { params: { id: minted.body.id } })
    expectReply(rolled, 200)
    expectReply(await call(target, KEYS.destroy, manager.value, { params: { id: minted.body.id } }), 204)
    expectReply(await call(target, KEYS.current, rolled.body.value), 401, BAD_KEY)
  }),
  withKeys("a key restricted to organizations or projects makes keys only within those restrictions", async (target, world, made) => {
    const toB = world.keys.bothScopedToB
    const create = (key: string, body: Record<string, unknown>) => call(target, KEYS.create, key, { body: { label: "minted", scopes: ["*"], ...body } })
    expectReply(await create(toB, {}), 400, ORGANIZATIONS_BEYOND)
    expectReply(await create(toB, { scoped_organizations: [] }), 400, ORGANIZATIONS_BEYOND)
    expectReply(await create(toB, { scoped_organizations: [world.orgA] }), 400, ORGANIZATIONS_BEYOND)
    expectReply(await create(toB, { scoped_organizations: [world.orgA, world.orgB] }), 400, ORGANIZATIONS_BEYOND)
    const inB = await create(toB, { scoped_organizations: [world.orgB] })
    expectReply(inB, 201)
    made.push({ id: inB.body.id, by: toB })
    assert.deepEqual(inB.body.scoped_organizations, [world.orgB])

    const toProjectB = world.keys.bothScopedToProjectB
    expectReply(await create(toProjectB, {}), 400, TEAMS_BEYOND)
    expectReply(await create(toProjectB, { scoped_teams: [world.projectA] }), 400, TEAMS_BEYOND)
    const inProjectB = await create(toProjectB, { scoped_teams: [world.projectB] })
    expectReply(inProjectB, 201)
    made.push({ id: inProjectB.body.id, by: toProjectB })

    // The organization-restricted key cannot touch the project-restricted one (it is unrestricted by
    // organization), nor the other way round.
    const projectKey = await idOf(target, toProjectB)
    const orgKey = await idOf(target, toB)
    expectReply(await call(target, KEYS.roll, toB, { params: { id: projectKey } }), 403, BEYOND_REACH)
    expectReply(await call(target, KEYS.roll, toProjectB, { params: { id: orgKey } }), 403, BEYOND_REACH)
    // Both may read the holder's keys: `*` holds user:read.
    const listed = await call(target, KEYS.list, toB)
    assert.ok([projectKey, orgKey, inB.body.id, inProjectB.body.id].every((id) => listed.body.some((key: { id: string }) => key.id === id)))
  }),
  overHttp("PATCH, POST roll and DELETE on /api/personal_api_keys/@current/ act on the calling key", async (target, raw, holder) => {
    const created = await make(target, holder, { label: "self-managed", scopes: ["user:write"] })
    try {
      const bearer = (key: string) => ({ authorization: `Bearer ${key}`, "content-type": "application/json" })
      const patched = await raw({ method: "PATCH", path: "/api/personal_api_keys/@current/", headers: bearer(created.value), body: JSON.stringify({ label: "renamed" }) })
      expectReply(patched, 200)
      assert.deepEqual([patched.body.id, patched.body.label], [created.id, "renamed"])
      const rolled = await raw({ method: "POST", path: "/api/personal_api_keys/@current/roll", headers: bearer(created.value) })
      expectReply(rolled, 200)
      const listed = await raw({ method: "GET", path: "/api/personal_api_keys", headers: bearer(holder) })
      expectReply(listed, 200)
      assert.ok(listed.body.some((key: { id: string }) => key.id === created.id))
      expectReply(await raw({ method: "DELETE", path: "/api/personal_api_keys/@current", headers: bearer(rolled.body.value) }), 204)
      expectReply(await raw({ method: "GET", path: "/api/personal_api_keys/@current/", headers: bearer(rolled.body.value) }), 401, BAD_KEY)
    } finally {
      await call(target, KEYS.destroy, holder, { params: { id: created.id } })
    }
  }),
  overHttp("a malformed body to a key's roll is 400; a PUT on a key is 405", async (target, raw, holder) => {
    const own = await idOf(target, holder)
    const headers = { authorization: `Bearer ${holder}`, "content-type": "application/json" }
    const malformed = await raw({ method: "POST", path: `/api/personal_api_keys/${own}/roll/`, headers, body: "{\"x\": " })
    assert.deepEqual([malformed.status, malformed.body.code], [400, "parse_error"])
    expectReply(await call(target, KEYS.current, holder), 200)
    const put = await raw({ method: "PUT", path: `/api/personal_api_keys/${own}/`, headers, body: "{}" })
    expectReply(put, 405, envelope("invalid_request", "method_not_allowed", "Method \"PUT\" not allowed."))
  })
]
