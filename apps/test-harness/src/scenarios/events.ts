import { strict as assert } from "node:assert"
import { createFlag, projectOf, rolledOut, uniqueKey } from "./feature-flags-support.ts"
import { tokenOf } from "./flag-definitions.ts"
import { BAD_KEY, envelope, expectReply, missingScope, needWorld, NOT_AUTHENTICATED, NOT_FOUND, type Scenario } from "./scenario.ts"

export const EVENTS = {
  batch: { group: "capture", endpoint: "batch" },
  event: { group: "capture", endpoint: "event" },
  config: { group: "sdkConfig", endpoint: "config" },
  usage: { group: "flagUsage", endpoint: "usage" }
} as const

const called = (flag: string, response: unknown) => ({
  event: "$feature_flag_called",
  distinct_id: "someone",
  properties: { $feature_flag: flag, $feature_flag_response: response }
})

/** The capture endpoints, posthog-js's remote configuration and a flag's usage, on every target. */
export const eventScenarios: ReadonlyArray<Scenario> = [
  {
    name: "events: $feature_flag_called becomes the flag's usage per value; other events are accepted and dropped; a token naming no project is 403, none 401",
    run: async (context) => {
      const { target, primary } = context
      const project = projectOf(context)
      const at = { key: primary.key, project }
      const token = await tokenOf(target, primary.key, project)
      const flag = await createFlag(target, at, { key: uniqueKey("used"), filters: rolledOut(50) })
      const batch = [called(flag.key, true), called(flag.key, true), called(flag.key, false), called(flag.key, "a-variant"), { event: "$pageview", distinct_id: "x" }]
      expectReply(await target.call(EVENTS.batch, { body: { api_key: token, batch } }), 200, { status: 1 })
      expectReply(await target.call(EVENTS.event, { body: { ...called(flag.key, true), properties: { ...called(flag.key, true).properties, token } } }), 200, { status: 1 })
      const report = await target.call(EVENTS.usage, { key: primary.key, params: { project_id: project, id: flag.id } })
      expectReply(report, 200)
      assert.deepEqual(report.body.results.map((series: { breakdown_value: string; count: number }) => [series.breakdown_value, series.count]), [["true", 3], ["false", 1]])
      assert.equal(report.body.total, 4)
      assert.equal(report.body.days.length, 31)
      expectReply(await target.call(EVENTS.batch, { body: { batch } }), 401, envelope("authentication_error", "ingest_key_required", "event submitted without an api_key"))
      expectReply(
        await target.call(EVENTS.batch, { body: { api_key: "phc_nobody", batch } }),
        403,
        envelope("authentication_error", "ingest_key_unknown", "api_key does not resolve to a known project")
      )
      expectReply(await target.call(EVENTS.batch, { body: { api_key: token, batch: [] } }), 400, envelope("validation_error", "empty_batch", "request holds no event"))
    }
  },
  {
    name: "events: posthog-js's remote configuration says whether the project has active flags; an unknown token is 404",
    run: async (context) => {
      const { target, primary } = context
      const token = await tokenOf(target, primary.key, projectOf(context))
      const config = await target.call(EVENTS.config, { params: { token } })
      expectReply(config, 200)
      assert.equal(config.body.token, token)
      assert.equal(config.body.sessionRecording, false)
      assert.deepEqual(config.body.supportedCompression, ["gzip", "gzip-js", "base64", "lz64"])
      expectReply(await target.call(EVENTS.config, { params: { token: "phc_nobody" } }), 404, NOT_FOUND)
    }
  },
  {
    name: "events: a flag's usage answers 401, 403, 404 for unknown and other tenants' flags, then 400 for each date",
    needs: ["world"],
    run: async (context) => {
      const { target } = context
      const world = needWorld(context)
      const mine = await createFlag(target, { key: world.keys.ownerA, project: world.projectA }, { key: uniqueKey("mine"), filters: rolledOut(100) })
      const theirs = await createFlag(target, { key: world.keys.ownerB, project: world.projectB }, { key: uniqueKey("theirs"), filters: rolledOut(100) })
      const ask = (key: string | undefined, project: number, id: number, query: Record<string, string> = {}) =>
        target.call(EVENTS.usage, { key, params: { project_id: project, id }, query })
      expectReply(await ask(undefined, world.projectA, mine.id), 401, NOT_AUTHENTICATED)
      expectReply(await ask("phx_not_a_key", world.projectA, mine.id), 401, BAD_KEY)
      expectReply(await ask(world.keys.projectReadA, world.projectA, mine.id), 403, missingScope("feature_flag:read"))
      expectReply(await ask(world.keys.ownerA, world.projectA, 999_999), 404, NOT_FOUND)
      expectReply(await ask(world.keys.ownerA, world.projectA, theirs.id), 404, NOT_FOUND)
      expectReply(await ask(world.keys.ownerA, world.projectB, theirs.id), 404, NOT_FOUND)
      const dates = "Enter a date as YYYY-MM-DD or a relative one such as -30d, -4w or -1m."
      expectReply(await ask(world.keys.ownerA, world.projectA, mine.id, { date_from: "soon" }), 400, envelope("validation_error", "invalid_input", dates, "date_from"))
      expectReply(await ask(world.keys.ownerA, world.projectA, mine.id, { date_to: "2026-13-01" }), 400, envelope("validation_error", "invalid_input", dates, "date_to"))
      expectReply(await ask(world.keys.ownerA, world.projectA, mine.id, { date_from: "-1d", date_to: "2020-01-01" }), 400, envelope("validation_error", "invalid_input", "date_from must not be after date_to.", "date_from"))
      const tooLong = "The range may cover at most 366 days."
      expectReply(await ask(world.keys.ownerA, world.projectA, mine.id, { date_from: "-400d" }), 400, envelope("validation_error", "invalid_input", tooLong, "date_from"))
      // Only date_to given: it is what stretched the range.
      expectReply(await ask(world.keys.ownerA, world.projectA, mine.id, { date_to: "9999-12-31" }), 400, envelope("validation_error", "invalid_input", tooLong, "date_to"))
      expectReply(await ask(world.keys.flagReadA, world.projectA, mine.id, { date_from: "-7d" }), 200)
    }
  }
]
