import { BAD_KEY, denied, envelope, expectReply, invalid, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

const WEBHOOKS = {
  list: { group: "webhooks", endpoint: "list" },
  create: { group: "webhooks", endpoint: "create" },
  retrieve: { group: "webhooks", endpoint: "retrieve" },
  update: { group: "webhooks", endpoint: "update" },
  destroy: { group: "webhooks", endpoint: "destroy" },
  deliveries: { group: "webhooks", endpoint: "deliveries" },
  test: { group: "webhooks", endpoint: "test" }
} as const
const ON_ITEM = [WEBHOOKS.retrieve, WEBHOOKS.update, WEBHOOKS.destroy, WEBHOOKS.deliveries, WEBHOOKS.test] as const
const WRITES = [WEBHOOKS.create, WEBHOOKS.update, WEBHOOKS.destroy, WEBHOOKS.test] as const

/**
 * A public address given as such: no scenario depends on DNS. The webhooks scenarios make are disabled,
 * so the other scenarios' changes are never sent to it.
 */
const RECEIVER = "http://93.184.215.14/hedgerow"
const UNKNOWN = "00000000-0000-4000-8000-000000000000"

/** Hedgerow's own `/api/projects/{project_id}/webhooks/` (PostHog has none); deliveries are the server tests'. */
export const webhookScenarios: ReadonlyArray<Scenario> = [
  {
    name: "webhooks: create answers the secret once; list, retrieve, update and delete",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const key = world.keys.ownerA
      const at = { project_id: world.projectA }
      const created = await target.call(WEBHOOKS.create, { key, params: at, body: { url: RECEIVER, enabled: false, events: ["feature_flag.updated"] } })
      expectReply(created, 201)
      const { secret, ...webhook } = created.body
      if (!/^whsec_[A-Za-z0-9+/]{43}=$/.test(secret)) throw new Error(`not a Standard Webhooks secret: ${secret}`)
      const params = { ...at, id: webhook.id }
      expectReply(await target.call(WEBHOOKS.retrieve, { key, params }), 200, webhook)
      const listed = await target.call(WEBHOOKS.list, { key, params: at })
      expectReply(listed, 200)
      if (!listed.body.results.some((one: { id: string }) => one.id === webhook.id)) throw new Error("the new webhook is not listed")
      const updated = await target.call(WEBHOOKS.update, { key, params, body: { description: "Deploy bot", events: ["*"] } })
      expectReply(updated, 200, { ...webhook, description: "Deploy bot", events: ["*"], updated_at: updated.body.updated_at })
      expectReply(await target.call(WEBHOOKS.deliveries, { key, params }), 200, { count: 0, next: null, previous: null, results: [] })
      expectReply(await target.call(WEBHOOKS.destroy, { key, params }), 204, null)
      expectReply(await target.call(WEBHOOKS.retrieve, { key, params }), 404, NOT_FOUND)
    }
  },
  {
    name: "webhook endpoints are 401 without a key or with an unknown one",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      for (const ref of [WEBHOOKS.list, WEBHOOKS.create, ...ON_ITEM]) {
        const params = { project_id: world.projectA, id: UNKNOWN }
        expectReply(await target.call(ref, { params, body: { url: RECEIVER } }), 401, NOT_AUTHENTICATED)
        expectReply(await target.call(ref, { key: "phx_unknown", params, body: { url: RECEIVER } }), 401, BAD_KEY)
      }
    }
  },
  {
    name: "webhook endpoints need webhook:read or webhook:write before the id, writes an administrator, and a key's project",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const params = { project_id: world.projectA, id: UNKNOWN }
      for (const key of [world.keys.flagReadA, world.keys.projectWriteA]) {
        for (const ref of [WEBHOOKS.list, WEBHOOKS.retrieve, WEBHOOKS.deliveries]) {
          expectReply(await target.call(ref, { key, params }), 403, missingScope("webhook:read"))
        }
        for (const ref of WRITES) expectReply(await target.call(ref, { key, params, body: { url: RECEIVER } }), 403, missingScope("webhook:write"))
      }
      // The member reads them; writing is an administrator's.
      expectReply(await target.call(WEBHOOKS.list, { key: world.keys.memberA, params }), 200)
      for (const ref of WRITES) {
        expectReply(
          await target.call(ref, { key: world.keys.memberA, params, body: { url: RECEIVER } }),
          403,
          denied("Your organization access level is insufficient.")
        )
      }
      expectReply(
        await target.call(WEBHOOKS.list, { key: world.keys.bothScopedToProjectB, params }),
        403,
        denied(`API key does not have access to the requested project: ID ${world.projectA}.`)
      )
    }
  },
  {
    name: "unknown, malformed and other projects' webhooks are 404 on every endpoint that takes one",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const theirs = await target.call(WEBHOOKS.create, {
        key: world.keys.ownerB,
        params: { project_id: world.projectB },
        body: { url: RECEIVER, enabled: false }
      })
      expectReply(theirs, 201)
      for (const ref of ON_ITEM) {
        for (const id of [theirs.body.id, UNKNOWN, "nope", "1"]) {
          expectReply(await target.call(ref, { key: world.keys.ownerA, params: { project_id: world.projectA, id }, body: {} }), 404, NOT_FOUND)
        }
        expectReply(
          await target.call(ref, { key: world.keys.ownerA, params: { project_id: world.projectB, id: theirs.body.id }, body: {} }),
          404,
          NOT_FOUND
        )
      }
      expectReply(await target.call(WEBHOOKS.list, { key: world.keys.ownerA, params: { project_id: world.projectB } }), 404, NOT_FOUND)
      expectReply(
        await target.call(WEBHOOKS.destroy, { key: world.keys.ownerB, params: { project_id: world.projectB, id: theirs.body.id } }),
        204,
        null
      )
    }
  },
  {
    name: "a webhook's body is refused field by field, receivers on private addresses included",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const create = (body: unknown) => target.call(WEBHOOKS.create, { key: world.keys.ownerA, params: { project_id: world.projectA }, body })
      const cases: ReadonlyArray<readonly [unknown, unknown]> = [
        [{}, invalid("url", "This field is required.", "required")],
        [{ url: "not a url" }, invalid("url", "Enter a valid URL.", "invalid")],
        [{ url: "file:///etc/passwd" }, invalid("url", "Only http and https URLs are accepted.", "invalid")],
        [
          { url: "http://169.254.169.254/latest/meta-data/" },
          invalid("url", "This URL points at a loopback, link-local or private address, which webhooks may not reach on this server.", "private_address")
        ],
        [{ url: RECEIVER, events: [] }, invalid("events", "This list may not be empty.", "empty")],
        [{ url: RECEIVER, events: ["everything"] }, invalid("events__0", "\"everything\" is not a valid choice.", "invalid_choice")],
        [
          { url: RECEIVER, secret: "hunter2" },
          envelope("validation_error", "invalid_input", "Enter a Standard Webhooks secret: whsec_ followed by the base64 of 24 to 64 bytes.", "secret")
        ]
      ]
      for (const [body, error] of cases) expectReply(await create(body), 400, error)
    }
  }
]
