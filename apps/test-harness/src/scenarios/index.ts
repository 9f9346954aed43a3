import { authScenarios } from "./auth.ts"
import { discoveryScenarios } from "./discovery.ts"
import { projectScenarios } from "./projects.ts"
import type { Scenario } from "./scenario.ts"
import { transportScenarios } from "./transport.ts"

/** The conformance set, written once and run on every target. */
export const scenarios: ReadonlyArray<Scenario> = [
  ...authScenarios,
  ...discoveryScenarios,
  ...projectScenarios,
  ...transportScenarios
]

export * from "./scenario.ts"
