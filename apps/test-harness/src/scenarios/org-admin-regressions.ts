import assert from "node:assert/strict"
import type { EndpointRef, Target } from "../targets/target.ts"
import type { World } from "../world.ts"
import {
  denied,
  envelope,
  expectReply,
  invalid,
  needWorld,
  NOT_FOUND,
  type Scenario,
  type ScenarioContext
} from "./scenario.ts"

/** Organization administration under unusual or hostile input, each case held on every target. */

const invites = {
  list: { group: "invites", endpoint: "list" },
  create: { group: "invites", endpoint: "create" },
  bulk: { group: "invites", endpoint: "bulk" },
  destroy: { group: "invites", endpoint: "destroy" }
} as const
const members = {
  list: { group: "members", endpoint: "list" },
  update: { group: "members", endpoint: "update" },
  destroy: { group: "members", endpoint: "destroy" }
} as const
const domains = {
  retrieve: { group: "domains", endpoint: "retrieve" },
  update: { group: "domains", endpoint: "update" },
  destroy: { group: "domains", endpoint: "destroy" },
  verify: { group: "domains", endpoint: "verify" }
} as const
const batchExports = {
  pause: { group: "batchExports", endpoint: "pause" },
  unpause: { group: "batchExports", endpoint: "unpause" },
  retrieve: { group: "batchExports", endpoint: "retrieve" }
} as const

const withWorld = (name: string, run: (target: Target, world: World) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context: ScenarioContext) => run(context.target, needWorld(context))
})

const TOO_LONG = invalid("target_email", "Ensure this field has no more than 254 characters.", "max_length")
const NOT_AN_EMAIL = invalid("target_email", "Enter a valid email address.")
const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] }
/** Longer than the 100 characters an HTTP router commonly allows a path parameter by default. */
const LONG_ID = "f".repeat(300)

export const orgAdminRegressionScenarios: ReadonlyArray<Scenario> = [
  // An e-mail pattern whose domain part may also take dots backtracks quadratically on `a.a.a.…`,
  // holding the event loop and every other request with it; the address is refused by its length at once.
  withWorld("an e-mail of dotted labels close to 1 MiB is refused at once with max_length, alone or in a bulk", async (target, world) => {
    const target_email = `a@${"a.".repeat(450_000)}@`
    const params = { organization_id: world.orgA }
    const started = Date.now()
    expectReply(await target.call(invites.create, { key: world.keys.ownerA, params, body: { target_email } }), 400, TOO_LONG)
    expectReply(
      await target.call(invites.bulk, { key: world.keys.ownerA, params, body: [{ target_email }] }),
      400,
      { ...TOO_LONG, attr: "0__target_email" }
    )
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`)
  }),
  withWorld("an over-long address is reported by its length first, as DRF runs its validators", async (target, world) => {
    const params = { organization_id: world.orgA }
    const body = { target_email: `${"x".repeat(300)} not an address` }
    expectReply(await target.call(invites.create, { key: world.keys.ownerA, params, body }), 400, TOO_LONG)
  }),
  withWorld("addresses with an empty domain label are refused like Django's validator refuses them", async (target, world) => {
    const params = { organization_id: world.orgA }
    for (const target_email of ["a@b..example", "a@.example.com", "a@example.com.", "a@example"]) {
      expectReply(await target.call(invites.create, { key: world.keys.ownerA, params, body: { target_email } }), 400, NOT_AN_EMAIL)
    }
  }),
  // PostHog counts characters (code points); UTF-16 units would count each emoji twice.
  withWorld("lengths count characters, not UTF-16 units: a 30-emoji first name fits, 31 do not", async (target, world) => {
    const params = { organization_id: world.orgA }
    const made = await target.call(invites.create, {
      key: world.keys.ownerA,
      params,
      body: { target_email: "emoji@example.com", first_name: "😀".repeat(30), send_email: false }
    })
    expectReply(made, 201)
    assert.equal(made.body.first_name, "😀".repeat(30))
    expectReply(
      await target.call(invites.create, { key: world.keys.ownerA, params, body: { target_email: "emoji@example.com", first_name: "😀".repeat(31) } }),
      400,
      invalid("first_name", "Ensure this field has no more than 30 characters.", "max_length")
    )
  }),
  // A bulk writes in one transaction, where now() is the same for every row: without a created_at of
  // their own the invites would list in uuid order.
  withWorld("a bulk's invites list newest first in the order they were sent, each with its own created_at", async (target, world) => {
    const params = { organization_id: world.orgA }
    const sent = ["first@order.example", "second@order.example", "third@order.example"]
    expectReply(await target.call(invites.bulk, { key: world.keys.ownerA, params, body: sent.map((target_email) => ({ target_email })) }), 200, null)
    const listed = await target.call(invites.list, { key: world.keys.ownerA, params, query: { limit: 1000 } })
    expectReply(listed, 200)
    const mine = listed.body.results.filter((invite: { target_email: string }) => sent.includes(invite.target_email))
    assert.deepEqual(mine.map((invite: { target_email: string }) => invite.target_email), [...sent].reverse())
    const created = mine.map((invite: { created_at: string }) => invite.created_at)
    assert.equal(new Set(created).size, sent.length, `one created_at each: ${created.join(", ")}`)
    assert.ok(mine.every((invite: { created_at: string; updated_at: string }) => invite.created_at === invite.updated_at))
  }),
  // PostgreSQL text cannot hold NUL: a filter holding one matches nobody, and never reaches SQL as it is.
  withWorld("members list: an e-mail filter holding NUL matches nobody (200, not 500)", async (target, world) => {
    const reply = await target.call(members.list, { key: world.keys.ownerA, params: { organization_id: world.orgA }, query: { email: "a\u0000b" } })
    expectReply(reply, 200, EMPTY_PAGE)
  }),
  // An id of any length names nothing it is not: 404, whatever limit a router puts on path segments.
  withWorld("ids longer than 100 characters are 404 on every organization administration endpoint, never 405", async (target, world) => {
    const key = world.keys.ownerA
    const organization_id = world.orgA
    const byId: ReadonlyArray<readonly [EndpointRef, Record<string, string>, unknown]> = [
      [domains.retrieve, { id: LONG_ID }, undefined],
      [domains.update, { id: LONG_ID }, { saml_entity_id: "x" }],
      [domains.destroy, { id: LONG_ID }, undefined],
      [domains.verify, { id: LONG_ID }, undefined],
      [invites.destroy, { id: LONG_ID }, undefined],
      [members.update, { user__uuid: LONG_ID }, { level: 1 }],
      [members.destroy, { user__uuid: LONG_ID }, undefined]
    ]
    for (const [endpoint, params, body] of byId) {
      expectReply(await target.call(endpoint, { key, params: { organization_id, ...params }, body }), 404, NOT_FOUND)
    }
    for (const endpoint of [batchExports.retrieve, batchExports.pause, batchExports.unpause]) {
      expectReply(
        await target.call(endpoint, { key, params: { organization_id, id: LONG_ID } }),
        404,
        envelope("invalid_request", "not_found", `BatchExport ID '${LONG_ID}' not found.`)
      )
    }
    expectReply(await target.call(members.list, { key, params: { organization_id: LONG_ID } }), 404, NOT_FOUND)
  }),
  // PostHog quotes a refused choice with Python's str(): True, [8], {'a': 1}.
  withWorld("a level that is a boolean, a list or an object is quoted as DRF quotes it", async (target, world) => {
    const cases: ReadonlyArray<readonly [unknown, string]> = [
      [true, "\"True\" is not a valid choice."],
      [[8], "\"[8]\" is not a valid choice."],
      [{ a: 1, b: ["x"] }, "\"{'a': 1, 'b': ['x']}\" is not a valid choice."]
    ]
    for (const [level, detail] of cases) {
      const error = invalid("level", detail, "invalid_choice")
      const params = { organization_id: world.orgA }
      expectReply(await target.call(invites.create, { key: world.keys.ownerA, params, body: { target_email: "quoted@example.com", level } }), 400, error)
      const member = { ...params, user__uuid: world.members.member.uuid }
      expectReply(await target.call(members.update, { key: world.keys.ownerA, params: member, body: { level } }), 400, error)
    }
  }),
  withWorld("invite and member endpoints refuse project-scoped keys, and keys restricted to another organization", async (target, world) => {
    const calls: ReadonlyArray<readonly [EndpointRef, Record<string, string>, unknown]> = [
      [invites.list, {}, undefined],
      [invites.create, {}, { target_email: "scoped@example.com" }],
      [invites.bulk, {}, [{ target_email: "scoped@example.com" }]],
      [invites.destroy, { id: "00000000-0000-4000-8000-000000000000" }, undefined],
      [members.list, {}, undefined],
      [members.update, { user__uuid: "@me" }, { level: 1 }],
      [members.destroy, { user__uuid: "@me" }, undefined]
    ]
    const projectScoped = denied("API keys with scoped projects are only supported on project-based endpoints.")
    const otherOrganization = denied(`API key does not have access to the requested organization: ID ${world.orgA}.`)
    for (const [endpoint, params, body] of calls) {
      const reply = await target.call(endpoint, { key: world.keys.bothScopedToProjectB, params: { organization_id: world.orgB, ...params }, body })
      expectReply(reply, 403, projectScoped)
      expectReply(await target.call(endpoint, { key: world.keys.bothScopedToB, params: { organization_id: world.orgA, ...params }, body }), 403, otherOrganization)
    }
    const invited = await target.call(invites.list, { key: world.keys.ownerA, params: { organization_id: world.orgA }, query: { limit: 1000 } })
    assert.ok(invited.body.results.every((invite: { target_email: string }) => invite.target_email !== "scoped@example.com"))
  })
]
