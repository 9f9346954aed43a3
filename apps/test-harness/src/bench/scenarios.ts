import { Effect } from "effect"
import { flagScenarios } from "./flag-scenarios.ts"
import { HedgerowFixture, type ScenarioServices } from "./hedgerow-target.ts"

/** The one request a scenario repeats; the path is relative to the server's base URL. */
export interface RequestSpec {
  readonly method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE"
  readonly path: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
  /** `[<id>]` in the body becomes a fresh id on every request, so that writes never repeat a key. */
  readonly idReplacement?: boolean | undefined
}

/**
 * A benchmark: `setup` seeds whatever the request needs (through core or the API) and returns the
 * request. Each scenario is run against Hedgerow and then against a baseline server answering with
 * a body of the same size, so a new scenario only has to say what to send.
 */
export interface Scenario {
  readonly name: string
  readonly setup: Effect.Effect<RequestSpec, unknown, ScenarioServices>
}

export const getProject: Scenario = {
  name: "GET project",
  setup: Effect.gen(function*() {
    const fixture = yield* HedgerowFixture
    return {
      method: "GET",
      path: `/api/organizations/${fixture.organizationId}/projects/${fixture.projectId}/`,
      headers: fixture.authorization
    } as const
  })
}

/** What `npm run bench` runs, in order: the flag list search over 10,000 flags (issue 3) among them. */
export const scenarios: ReadonlyArray<Scenario> = [getProject, ...flagScenarios({ seedFlags: 10_000 })]
