import { Effect } from "effect"
import { flagsPath, projectToken } from "./flag-scenarios.ts"
import { HedgerowFixture } from "./hedgerow-target.ts"
import type { Scenario } from "./scenario.ts"

/** Events in the batch, as a busy posthog-node or posthog-js page may send at once. */
export const BATCH_EVENTS = 1_000

/**
 * A batch of `$feature_flag_called` events, as posthog-node sends it (JSON, `/batch/`), calling the
 * project's flags in turn with values they return: every event is read, its flag looked up and its call
 * counted. The same bytes every time (counting reads no person), so that the load generator does not
 * rewrite a large body per request. Runs after the flag scenarios, over their flags.
 */
export const eventScenarios: ReadonlyArray<Scenario> = [
  {
    name: `POST /batch/, ${BATCH_EVENTS.toLocaleString("en-US")} $feature_flag_called events`,
    setup: Effect.gen(function*() {
      const fixture = yield* HedgerowFixture
      const response = yield* Effect.promise(() =>
        fetch(`${fixture.baseUrl}${flagsPath(fixture.projectId)}?limit=100`, { headers: fixture.authorization }))
      const { results } = (yield* Effect.promise(() => response.json())) as { readonly results: ReadonlyArray<{ readonly key: string }> }
      if (results.length === 0) return yield* Effect.fail(new Error("no flags to call"))
      const sentAt = new Date().toISOString()
      const batch = Array.from({ length: BATCH_EVENTS }, (_, i) => ({
        event: "$feature_flag_called",
        distinct_id: `person-${i % 50}`,
        properties: { $feature_flag: results[i % results.length]!.key, $feature_flag_response: i % 3 !== 0, $lib: "posthog-node" },
        timestamp: sentAt,
        uuid: `0190a000-0000-7000-8000-${String(i).padStart(12, "0")}`
      }))
      return {
        method: "POST",
        path: "/batch/",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: yield* projectToken, batch, sent_at: sentAt })
      } as const
    })
  }
]
