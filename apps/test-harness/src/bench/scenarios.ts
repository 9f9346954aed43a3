import { Effect } from "effect"
import { eventScenarios } from "./event-scenarios.ts"
import { flagScenarios } from "./flag-scenarios.ts"
import { HedgerowFixture } from "./hedgerow-target.ts"
import { targetingScenarios } from "./targeting-scenarios.ts"
import type { Scenario } from "./scenario.ts"

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

/**
 * What `npm run bench` runs, in order: a list of 100 flags, then a search over 10,000 among them, then a
 * batch of events calling the first page of them, then `/flags` in a project of its own whose flags
 * target cohorts and a named group.
 */
export const scenarios: ReadonlyArray<Scenario> = [
  getProject,
  ...flagScenarios({ listFlags: 100, searchFlags: 10_000 }),
  ...eventScenarios,
  ...targetingScenarios
]
