import type { Effect } from "effect"
import type { Goal } from "./goals.ts"
import type { ScenarioServices } from "./hedgerow-target.ts"

/** The one request a scenario repeats; the path is relative to the server's base URL. */
export interface RequestSpec {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE"
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
  /** `[<id>]` in the body becomes a fresh id on every request, so that writes never repeat a key. */
  readonly idReplacement?: boolean | undefined
  /** The status every answer must have, when it is not a 2xx (a 304 to a conditional GET). */
  readonly expectedStatus?: 304 | undefined
}

/**
 * A benchmark: `setup` seeds whatever the request needs (through core or the API) and returns the
 * request. Each scenario is run against Hedgerow and then against a baseline server answering with
 * a body of the same size, so a new scenario only has to say what to send.
 */
export interface Scenario {
  readonly name: string
  /** What Hedgerow's requests per second should be as a fraction of the baseline's; none when absent. */
  readonly throughputGoal?: Goal | undefined
  /** The most server CPU a request should take, in µs, of `hedgerow serve` as it ships; none when absent. */
  readonly cpuGoal?: Goal | undefined
  readonly setup: Effect.Effect<RequestSpec, unknown, ScenarioServices>
}
