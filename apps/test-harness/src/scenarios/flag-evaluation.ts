import assert from "node:assert/strict"
import { gzipSync } from "node:zlib"
import type { Reply, Target } from "../targets/target.ts"
import {
  conditionGroup,
  createFlag,
  getFlag,
  personProperty,
  projectOf,
  rolledOut,
  TIMESTAMP,
  uniqueKey,
  variants
} from "./feature-flags-support.ts"
import { askEach, tokenOf } from "./flag-definitions.ts"
import { envelope, expectReply, needWorld, NOT_AUTHENTICATED, type Scenario, type ScenarioContext } from "./scenario.ts"

/** The evaluation endpoints, named as in packages/api. */
export const EVALUATION = {
  flags: { group: "flagEvaluation", endpoint: "flags" },
  decide: { group: "flagEvaluation", endpoint: "decide" }
} as const

export const NO_PROJECT_TOKEN = envelope(
  "authentication_error",
  "no_api_key",
  "No project API key provided. You can find your project API key in PostHog project settings."
)
export const INVALID_PROJECT_TOKEN = envelope(
  "authentication_error",
  "invalid_api_key",
  "Project API key invalid. You can find your project API key in PostHog project settings."
)
export const MISSING_DISTINCT_ID = envelope("validation_error", "missing_distinct_id", "Decide requires a distinct_id.")
export const malformed = (reason: string) => envelope("validation_error", "malformed_data", `Malformed request data: ${reason}`)

/** Marks are written every 5 s by default: twice that, and a margin. */
const USAGE_WRITTEN_WITHIN_MS = 12_000

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

/** `POST /flags` (or `/decide`) with a JSON body and `v` when given. */
export const askFlags = (target: Target, body: unknown, options: { v?: string; path?: "flags" | "decide"; headers?: Record<string, string> } = {}) =>
  target.call(EVALUATION[options.path ?? "flags"], {
    body,
    ...(options.v === undefined ? {} : { query: { v: options.v } }),
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })

/** A project's flags for these scenarios: each kind of answer once, with payloads. */
const seed = async (context: ScenarioContext) => {
  const { target, primary } = context
  const project = projectOf(context)
  const at = { key: primary.key, project }
  const token = await tokenOf(target, primary.key, project)
  const on = await createFlag(target, at, {
    key: uniqueKey("eval-on"),
    filters: { ...rolledOut(100), payloads: { true: "{\"color\": \"blue\"}" } }
  })
  const variant = await createFlag(target, at, {
    key: uniqueKey("eval-variant"),
    filters: { ...rolledOut(100), multivariate: variants(100, 0), payloads: { v0: "\"first\"" } }
  })
  const pro = await createFlag(target, at, {
    key: uniqueKey("eval-pro"),
    filters: { groups: [conditionGroup([personProperty("plan", "free")]), conditionGroup([personProperty("plan", "pro")])] }
  })
  const none = await createFlag(target, at, { key: uniqueKey("eval-none"), filters: rolledOut(0) })
  const off = await createFlag(target, at, { key: uniqueKey("eval-off"), active: false })
  const client = await createFlag(target, at, { key: uniqueKey("eval-client"), filters: rolledOut(100), evaluation_runtime: "client" })
  const keys = [on, variant, pro, none, off, client].map((flag) => flag.key as string)
  return { token, on, variant, pro, none, off, client, keys }
}

/** The body that asks for the seeded flags only, for a person on the pro plan. */
const proPerson = (token: string, keys: ReadonlyArray<string>, extra: object = {}) => ({
  token,
  distinct_id: "person-1",
  person_properties: { plan: "pro" },
  flag_keys_to_evaluate: keys,
  evaluation_runtime: "server",
  ...extra
})

const details = (flag: any, enabled: boolean, variant: string | null, reason: object, payload: unknown = null) => ({
  key: flag.key,
  enabled,
  variant,
  reason,
  metadata: { id: flag.id, version: flag.version, description: null, payload }
})

const expectMeta = (reply: Reply) => {
  assert.match(reply.body.requestId, UUID)
  assert.equal(typeof reply.body.evaluatedAt, "number")
  assert.ok(Math.abs(reply.body.evaluatedAt - Date.now()) < 60_000)
}

const rawOf = (target: Target) => {
  assert.ok(target.raw, "this scenario needs raw HTTP")
  return target.raw
}

/** Remote evaluation: `/flags` and `/decide` as PostHog's SDKs call them, with the project token in the body. */
export const flagEvaluationScenarios: ReadonlyArray<Scenario> = [
  {
    name: "remote evaluation: POST /flags?v=2 answers each active flag of the runtime with its reason and metadata, the payload as stored",
    run: async (context) => {
      const { target } = context
      const seeded = await seed(context)
      const reply = await askFlags(target, proPerson(seeded.token, seeded.keys), { v: "2" })
      expectReply(reply, 200)
      assert.deepEqual(Object.keys(reply.body), ["errorsWhileComputingFlags", "flags", "requestId", "evaluatedAt"])
      expectMeta(reply)
      assert.equal(reply.body.errorsWhileComputingFlags, false)
      assert.deepEqual(reply.body.flags, {
        [seeded.on.key]: details(seeded.on, true, null, { code: "condition_match", condition_index: 0, description: "Matched condition set 1" }, "{\"color\": \"blue\"}"),
        [seeded.variant.key]: details(seeded.variant, true, "v0", { code: "condition_match", condition_index: 0, description: "Matched condition set 1" }, "\"first\""),
        [seeded.pro.key]: details(seeded.pro, true, null, { code: "condition_match", condition_index: 1, description: "Matched condition set 2" }),
        [seeded.none.key]: details(seeded.none, false, null, { code: "out_of_rollout_bound", condition_index: 0, description: "Out of rollout bound" })
      })
      // The service evaluates no inactive flag; a flag for browsers only is not answered to a server.
      const free = await askFlags(target, proPerson(seeded.token, seeded.keys, { person_properties: {}, evaluation_runtime: "client" }), { v: "2" })
      assert.deepEqual(free.body.flags[seeded.pro.key].reason, { code: "no_condition_match", condition_index: 1, description: "No matching condition set" })
      assert.equal(free.body.flags[seeded.client.key].enabled, true)
      assert.equal(free.body.flags[seeded.off.key], undefined)
      // Without `flag_keys_to_evaluate` every flag of the project is answered (this project has others).
      const all = await askFlags(target, { token: seeded.token, distinct_id: "person-1", evaluation_runtime: "all" }, { v: "2" })
      for (const flag of [seeded.on, seeded.variant, seeded.pro, seeded.none, seeded.client]) assert.ok(flag.key in all.body.flags, flag.key)
      assert.equal(all.body.flags[seeded.off.key], undefined)
    }
  },
  {
    name: "remote evaluation marks each flag it answers as called: last_called_at says when, version and updated_at stay; the definitions for local evaluation mark nothing",
    run: async (context) => {
      const { target, primary } = context
      const seeded = await seed(context)
      const at = { key: primary.key, project: projectOf(context) }
      for (const reply of await askEach(target, { key: primary.key, token: seeded.token })) expectReply(reply, 200)
      const reply = await askFlags(target, proPerson(seeded.token, [seeded.on.key, seeded.off.key]), { v: "2" })
      expectReply(reply, 200)
      // The answering process shows its mark at once; another process of a deployment once the mark is
      // written, within a few seconds.
      let on = await getFlag(target, at, seeded.on.id)
      for (const started = Date.now(); on.body.last_called_at === null && Date.now() - started < USAGE_WRITTEN_WITHIN_MS;) {
        await new Promise((resolve) => setTimeout(resolve, 200))
        on = await getFlag(target, at, seeded.on.id)
      }
      expectReply(on, 200)
      assert.match(String(on.body.last_called_at), TIMESTAMP)
      assert.ok(Date.parse(on.body.last_called_at) >= reply.body.evaluatedAt, `${on.body.last_called_at} is the evaluation's time or later`)
      assert.deepEqual([on.body.version, on.body.updated_at], [seeded.on.version, seeded.on.updated_at])
      // Not answered (inactive), and only sent for local evaluation: never called.
      for (const flag of [seeded.off, seeded.variant]) assert.equal((await getFlag(target, at, flag.id)).body.last_called_at, null, flag.key)
    }
  },
  {
    name: "remote evaluation: the legacy shapes of /flags without v and v=1, and /decide's v=1 to v=4",
    run: async (context) => {
      const { target } = context
      const seeded = await seed(context)
      const body = proPerson(seeded.token, seeded.keys)
      const values = { [seeded.on.key]: true, [seeded.variant.key]: "v0", [seeded.pro.key]: true, [seeded.none.key]: false }
      const legacy = { featureFlags: values, featureFlagPayloads: { [seeded.on.key]: "{\"color\": \"blue\"}", [seeded.variant.key]: "\"first\"" } }
      for (const ask of [{}, { v: "1" }, { v: "0" }, { v: "x" }, { path: "decide" as const, v: "3" }]) {
        const reply = await askFlags(target, body, ask)
        expectReply(reply, 200)
        assert.deepEqual(Object.keys(reply.body), ["errorsWhileComputingFlags", "featureFlags", "featureFlagPayloads", "requestId", "evaluatedAt"], JSON.stringify(ask))
        assert.deepEqual({ featureFlags: reply.body.featureFlags, featureFlagPayloads: reply.body.featureFlagPayloads }, legacy)
        expectMeta(reply)
      }
      for (const ask of [{ v: "3" }, { v: "+2" }]) assert.deepEqual(Object.keys((await askFlags(target, body, ask)).body)[1], "flags")
      const v4 = await askFlags(target, body, { path: "decide", v: "4" })
      assert.deepEqual(Object.keys(v4.body[`flags`]).sort(), Object.keys(values).sort())
      const enabled = [seeded.on.key, seeded.variant.key, seeded.pro.key]
      for (const v of [undefined, "1"]) {
        const decide = await askFlags(target, body, { path: "decide", ...(v === undefined ? {} : { v }) })
        assert.deepEqual(Object.keys(decide.body), ["featureFlags", "requestId", "evaluatedAt"])
        assert.deepEqual([...decide.body.featureFlags].sort(), [...enabled].sort())
      }
      const decideV2 = await askFlags(target, body, { path: "decide", v: "2" })
      assert.deepEqual(decideV2.body.featureFlags, { [seeded.on.key]: true, [seeded.variant.key]: "v0", [seeded.pro.key]: true })
    }
  },
  {
    name: "remote evaluation reads the token as token, api_key or $token, a numeric distinct id, $device_id and the runtime the User-Agent tells",
    run: async (context) => {
      const { target } = context
      const seeded = await seed(context)
      const { token: _, ...rest } = proPerson(seeded.token, seeded.keys, { distinct_id: 12345 })
      for (const name of ["token", "api_key", "$token"]) {
        const reply = await askFlags(target, { ...rest, [name]: seeded.token }, { v: "2" })
        expectReply(reply, 200)
        assert.equal(reply.body.flags[seeded.on.key].enabled, true)
      }
      // A server SDK's User-Agent makes the caller a server when the body names no runtime; a browser's a client.
      const unnamed = { ...proPerson(seeded.token, seeded.keys), evaluation_runtime: undefined }
      const server = await askFlags(target, unnamed, { v: "2", headers: { "user-agent": "posthog-python/6.0.0" } })
      assert.equal(server.body.flags[seeded.client.key], undefined)
      const browser = await askFlags(target, unnamed, { v: "2", headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64)" } })
      assert.equal(browser.body.flags[seeded.client.key].enabled, true)
      // `disable_flags` asks for no evaluation at all, so no distinct id is needed.
      const disabled = await askFlags(target, { token: seeded.token, disable_flags: true }, { v: "2" })
      expectReply(disabled, 200)
      assert.deepEqual(disabled.body.flags, {})
    }
  },
  {
    name: "remote evaluation refuses with PostHog's envelopes: 401 without a project token or for an unknown one, 400 without a distinct id or for a body it cannot read",
    run: async (context) => {
      const { target } = context
      const token = await tokenOf(target, context.primary.key, projectOf(context))
      for (const path of ["flags", "decide"] as const) {
        expectReply(await askFlags(target, { distinct_id: "a" }, { path, v: "2" }), 401, NO_PROJECT_TOKEN)
        expectReply(await askFlags(target, { token: "", distinct_id: "a" }, { path, v: "2" }), 401, NO_PROJECT_TOKEN)
        expectReply(await askFlags(target, { token: "phc_unknown", distinct_id: "a" }, { path, v: "2" }), 401, INVALID_PROJECT_TOKEN)
        expectReply(await askFlags(target, { token }, { path, v: "2" }), 400, MISSING_DISTINCT_ID)
        expectReply(await askFlags(target, { token, distinct_id: null }, { path }), 400, MISSING_DISTINCT_ID)
      }
      const cases: ReadonlyArray<readonly [unknown, string]> = [
        [[{ token }], "the body must be a JSON object"],
        ["text", "the body must be a JSON object"],
        [{ token, distinct_id: { id: 1 } }, "distinct_id must be a string or a number"],
        [{ token, distinct_id: true }, "distinct_id must be a string or a number"],
        [{ token: 5, distinct_id: "a" }, "token must be a string"],
        [{ token, distinct_id: "a", person_properties: ["plan"] }, "person_properties must be an object"],
        [{ token, distinct_id: "a", groups: "acme" }, "groups must be an object"],
        [{ token, distinct_id: "a", group_properties: { company: 1 } }, "the group_properties of company must be an object"],
        [{ token, distinct_id: "a", flag_keys_to_evaluate: [1] }, "flag_keys_to_evaluate must be a list of strings"],
        [{ token, distinct_id: "a", $device_id: 7 }, "$device_id must be a string"],
        [{ token, distinct_id: "a", disable_flags: "yes" }, "disable_flags must be a boolean"]
      ]
      for (const [body, reason] of cases) expectReply(await askFlags(target, body, { v: "2" }), 400, malformed(reason))
    }
  },
  {
    name: "remote evaluation: with a personal key, a wrong one or none, the body's token alone decides",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const tokenB = await tokenOf(target, world.keys.ownerB, world.projectB)
      for (const key of [undefined, "phx_not_a_key", world.keys.ownerA]) {
        const reply = await target.call(EVALUATION.flags, { key, query: { v: "2" }, body: { token: tokenB, distinct_id: "a" } })
        expectReply(reply, 200)
        assert.equal(reply.body.errorsWhileComputingFlags, false)
      }
    }
  },
  {
    name: "remote evaluation over HTTP: gzip (Content-Encoding or compression=gzip-js), base64 and form bodies, exact 400s for unreadable ones, both paths with and without a slash",
    needs: ["transport"],
    run: async (context) => {
      const { target } = context
      const seeded = await seed(context)
      const body = JSON.stringify(proPerson(seeded.token, [seeded.on.key]))
      const send = (path: string, data: string | Uint8Array, headers: Record<string, string> = {}) =>
        rawOf(target)({ method: "POST", path, headers, body: data })
      const expectOn = (reply: Awaited<ReturnType<typeof send>>, label: string) => {
        expectReply(reply, 200)
        assert.equal(reply.body.flags[seeded.on.key].enabled, true, label)
      }
      expectOn(await send("/flags/?v=2", body, { "content-type": "application/json" }), "json")
      expectOn(await send("/flags?v=2", body, { "content-type": "text/plain" }), "text/plain")
      expectOn(await send("/flags?v=2", gzipSync(body), { "content-encoding": "gzip" }), "Content-Encoding: gzip")
      expectOn(await send("/flags/?v=2&compression=gzip-js", gzipSync(body), { "content-type": "text/plain" }), "gzip-js")
      expectOn(await send("/flags/?v=2", gzipSync(body)), "gzip without saying so")
      expectOn(await send("/flags/?v=2&compression=base64", Buffer.from(body).toString("base64")), "base64")
      expectOn(
        await send("/flags/?v=2", `data=${encodeURIComponent(Buffer.from(body).toString("base64"))}`, { "content-type": "application/x-www-form-urlencoded" }),
        "form"
      )
      expectOn(await send("/decide?v=4", body), "decide")
      expectOn(await send("/decide/?v=4", body), "decide/")
      expectReply(await send("/flags/?v=2", "{\"token\": "), 400, malformed("the body is not valid JSON"))
      expectReply(await send("/flags/?v=2", ""), 400, malformed("the body is empty"))
      expectReply(await send("/flags/?v=2&compression=gzip", "not gzip"), 400, malformed("the body is not valid gzip"))
      expectReply(await send("/flags/?v=2", "data=aGVsbG8%3D", { "content-type": "application/x-www-form-urlencoded" }), 400, malformed("the body is not valid JSON"))
      expectReply(await send("/flags/?v=2", "other=x", { "content-type": "application/x-www-form-urlencoded" }), 400, malformed("the form has no data field"))
      // Nesting that would exhaust the stack of whatever renders it is refused before anything reads it.
      const deep = `{"token": "${seeded.token}", "distinct_id": "a", "person_properties": {"email": ${"[".repeat(100_000)}${"]".repeat(100_000)}}}`
      expectReply(await send("/flags/?v=2", deep), 400, malformed("the body nests deeper than 128 levels"))
      const large = await send("/flags/?v=2", "x".repeat(1024 * 1024 + 1))
      expectReply(large, 413, envelope("invalid_request", "payload_too_large", "Request body is larger than the 1 MiB limit."))
      const bomb = gzipSync(Buffer.alloc(11 * 1024 * 1024, 32))
      expectReply(await send("/flags/?v=2", bomb, { "content-encoding": "gzip" }), 413, envelope("invalid_request", "payload_too_large", "Decompressed request body is larger than the 1 MiB limit."))
      // Other methods are refused without asking for a key, which these paths never take.
      const get = await rawOf(target)({ method: "GET", path: "/flags/?v=2" })
      expectReply(get, 405, envelope("invalid_request", "method_not_allowed", "Method \"GET\" not allowed."))
      assert.equal(get.headers.get("allow"), "POST")
    }
  },
  {
    name: "CORS: /flags and /decide answer preflights and echo any Origin, errors included; the management API sends no CORS headers",
    needs: ["transport"],
    run: async (context) => {
      const { target, primary } = context
      const token = await tokenOf(target, primary.key, projectOf(context))
      const origin = "https://shop.example:8443"
      for (const path of ["/flags/?v=2", "/flags?v=2&compression=gzip-js", "/decide/?v=3", "/decide"]) {
        const preflight = await rawOf(target)({
          method: "OPTIONS",
          path,
          headers: { origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type, traceparent, x-custom" }
        })
        assert.equal(preflight.status, 204, path)
        assert.equal(preflight.body, null)
        assert.equal(preflight.headers.get("access-control-allow-origin"), origin)
        assert.equal(preflight.headers.get("access-control-allow-credentials"), "true")
        assert.equal(preflight.headers.get("access-control-allow-methods"), "GET, POST, OPTIONS")
        // What the request asks for, as PostHog's flags and capture services mirror it.
        assert.equal(preflight.headers.get("access-control-allow-headers"), "X-Requested-With,Content-Type,traceparent,x-custom")
      }
      const evaluated = await rawOf(target)({ method: "POST", path: "/flags/?v=2", headers: { origin }, body: JSON.stringify({ token, distinct_id: "a" }) })
      expectReply(evaluated, 200)
      assert.equal(evaluated.headers.get("access-control-allow-origin"), origin)
      const refused = await rawOf(target)({ method: "POST", path: "/flags/?v=2", headers: { origin: "null" }, body: "{}" })
      expectReply(refused, 401, NO_PROJECT_TOKEN)
      assert.equal(refused.headers.get("access-control-allow-origin"), "*")
      const sameSite = await rawOf(target)({ method: "POST", path: "/flags/?v=2", body: JSON.stringify({ token, distinct_id: "a" }) })
      assert.equal(sameSite.headers.get("access-control-allow-origin"), null)
      // The management API: no CORS headers on answers or on preflights, so a browser on another site gets nothing.
      const headers = { authorization: `Bearer ${primary.key}`, origin }
      const management = await rawOf(target)({ method: "GET", path: "/api/projects/@current/", headers })
      expectReply(management, 200)
      assert.equal(management.headers.get("access-control-allow-origin"), null)
      const definitions = await rawOf(target)({ method: "GET", path: `/flags/definitions?token=${token}`, headers })
      assert.equal(definitions.headers.get("access-control-allow-origin"), null)
      const preflight = await rawOf(target)({ method: "OPTIONS", path: "/api/projects/@current/", headers: { origin, "access-control-request-method": "GET" } })
      expectReply(preflight, 401, NOT_AUTHENTICATED)
      assert.equal(preflight.headers.get("access-control-allow-origin"), null)
    }
  }
]
