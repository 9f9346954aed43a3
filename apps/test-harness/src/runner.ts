import type { Network } from "./network/index.ts"
import { applicable, type Scenario } from "./scenarios/index.ts"
import type { Target } from "./targets/target.ts"
import type { Discovered, World } from "./world.ts"

export interface Outcome {
  readonly scenario: string
  readonly status: "passed" | "failed" | "not applicable"
  readonly error?: string
}

/** The primary key's own organization and project, as a PostHog client would discover them. */
export const discover = async (target: Target, key: string): Promise<Discovered> => {
  const me = await target.call({ group: "identity", endpoint: "me" }, { key })
  if (me.status !== 200) throw new Error(`GET /api/users/@me/ answered ${me.status}: ${JSON.stringify(me.body)}`)
  return { key, organization: me.body.organization.id, project: me.body.team?.id ?? null }
}

export const primaryOf = (world: World): Discovered => ({ key: world.keys.ownerA, organization: world.orgA, project: world.projectA })

export const runScenarios = async (
  scenarios: ReadonlyArray<Scenario>,
  context: {
    readonly target: Target
    readonly primary: Discovered
    readonly world?: World | undefined
    readonly network?: Network | undefined
  }
): Promise<ReadonlyArray<Outcome>> => {
  const outcomes: Array<Outcome> = []
  for (const scenario of scenarios) {
    const offered = { world: context.world !== undefined, transport: context.target.raw !== undefined, network: context.network !== undefined }
    if (!applicable(scenario, offered)) {
      outcomes.push({ scenario: scenario.name, status: "not applicable" })
      continue
    }
    try {
      await scenario.run(context)
      outcomes.push({ scenario: scenario.name, status: "passed" })
    } catch (error) {
      outcomes.push({ scenario: scenario.name, status: "failed", error: error instanceof Error ? error.message : String(error) })
    }
  }
  return outcomes
}
