import { Context, Effect } from "effect"
import { BenchFailed } from "./bench-failed.ts"
import { HedgerowFixture, type ScenarioServices } from "./hedgerow-target.ts"
import { probe, type ProbeResponse } from "./probe.ts"
import type { RequestSpec, Scenario } from "./scenario.ts"

/** A scenario's request, and Hedgerow's answer to it, which the baseline answers with. */
export interface Prepared {
  readonly spec: RequestSpec
  readonly probed: ProbeResponse
}

/**
 * Runs the scenario's setup on the target and sends its request once, to the fixture's server: its answer
 * must be a 2xx, or the status the scenario expects. Every server answers the probe alike.
 */
export const prepare = (scenario: Scenario, context: Context.Context<ScenarioServices>) =>
  Effect.gen(function*() {
    const fixture = Context.get(context, HedgerowFixture)
    const spec = yield* scenario.setup.pipe(
      Effect.provideContext(context),
      Effect.mapError((error) => new BenchFailed({ scenario: scenario.name, reason: `setup failed: ${String(error)}` }))
    )
    const probed = yield* probe(`${fixture.baseUrl}${spec.path}`, spec).pipe(
      Effect.mapError((error) => new BenchFailed({ scenario: scenario.name, reason: `probe request failed: ${error.message}` }))
    )
    if (spec.expectedStatus === undefined ? probed.status < 200 || probed.status > 299 : probed.status !== spec.expectedStatus) {
      const excerpt = Buffer.from(probed.body).toString("utf8").slice(0, 300)
      return yield* new BenchFailed({ scenario: scenario.name, reason: `probe got ${probed.status} from Hedgerow: ${excerpt}` })
    }
    return { spec, probed } satisfies Prepared
  })
