import assert from "node:assert/strict"
import type { Network } from "../network/index.ts"
import type { Reply, Target } from "../targets/target.ts"
import type { Discovered, World } from "../world.ts"

export interface ScenarioContext {
  readonly target: Target
  /** The one key every run has (a bare `--url --key` run has nothing else). */
  readonly primary: Discovered
  /** Operator fixtures; present when the harness made them. */
  readonly world?: World | undefined
  /** The DNS and mail servers the target is configured with; present when the harness made the target. */
  readonly network?: Network | undefined
}

export interface Scenario {
  readonly name: string
  /**
   * `world`: needs the operator fixtures. `transport`: needs raw HTTP (not the in-process core).
   * `network`: needs the DNS and mail servers the harness configures its own targets with.
   */
  readonly needs?: ReadonlyArray<"world" | "transport" | "network">
  readonly run: (context: ScenarioContext) => Promise<void>
}

/** What a run offers: operator fixtures, raw HTTP, the harness's DNS and mail servers. */
export interface Capabilities {
  readonly world: boolean
  readonly transport: boolean
  readonly network: boolean
}

export const applicable = (scenario: Scenario, offered: Capabilities) =>
  (scenario.needs ?? []).every((need) => offered[need])

export const envelope = (type: string, code: string, detail: string, attr: string | null = null) => ({ type, code, detail, attr })
export const NOT_FOUND = envelope("invalid_request", "not_found", "Not found.")
export const NOT_AUTHENTICATED = envelope(
  "authentication_error",
  "not_authenticated",
  "Authentication credentials were not provided."
)
export const BAD_KEY = envelope(
  "authentication_error",
  "authentication_failed",
  "Personal API key found in request Authorization header is invalid."
)
export const missingScope = (scope: string) =>
  envelope("authentication_error", "permission_denied", `API key missing required scope '${scope}'`)
export const denied = (detail: string) => envelope("authentication_error", "permission_denied", detail)
export const invalid = (attr: string | null, detail: string, code = "invalid_input") =>
  envelope("validation_error", code, detail, attr)

/** Exact status and body, the way a PostHog client would see them. */
export const expectReply = (reply: Pick<Reply, "status" | "body">, status: number, body?: unknown) => {
  assert.deepEqual({ status: reply.status, ...(body === undefined ? {} : { body: reply.body }) }, {
    status,
    ...(body === undefined ? {} : { body })
  })
}

/** `next`/`previous` compared by path and query: hosts differ between targets. */
export const pathOf = (url: string | null) => {
  if (url === null) return null
  const parsed = new URL(url)
  return `${parsed.pathname}${parsed.search}`
}

export const needWorld = (context: ScenarioContext): World => {
  assert.ok(context.world, "this scenario needs operator fixtures")
  return context.world
}

export const needNetwork = (context: ScenarioContext): Network => {
  assert.ok(context.network, "this scenario needs the harness's DNS and mail servers")
  return context.network
}

/** A scenario on the harness's DNS and mail servers, run with the primary key. */
export const withNetwork = (
  name: string,
  run: (target: Target, primary: Discovered, network: Network) => Promise<void>
): Scenario => ({
  name,
  needs: ["network"],
  run: async (context) => run(context.target, context.primary, needNetwork(context))
})

/** A scenario on the operator fixtures. */
export const withWorld = (name: string, run: (target: Target, world: World) => Promise<void>): Scenario => ({
  name,
  needs: ["world"],
  run: async (context) => run(context.target, needWorld(context))
})
