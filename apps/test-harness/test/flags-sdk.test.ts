import { Bootstrap } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { type HedgerowApi, hedgerowApi, rolledOut } from "./browser/hedgerow-api.ts"

/**
 * `@flags-sdk/posthog`, the Flags SDK's PostHog adapter, unchanged, as a Next.js app configures it (the
 * options its default adapter takes from the environment): with the project's token only it asks
 * Hedgerow for each flag, with a personal API key too it evaluates from the definitions; and the Flags
 * Explorer's provider data lists the project's flags.
 */

/** What the tests use of the adapter. Its own declarations import posthog-node's TypeScript sources, which do not compile here. */
interface Decider {
  readonly decide: (request: { key: string; entities: { distinctId: string }; headers: never; cookies: never }) => Promise<unknown>
}
interface FlagsSdkPostHog {
  readonly createPostHogAdapter: (options: { postHogKey: string; postHogOptions: Record<string, unknown> }) => {
    readonly isFeatureEnabled: () => Decider
    readonly featureFlagValue: () => Decider
    readonly featureFlagPayload: (getValue: (payload: unknown) => unknown) => Decider
  }
  readonly getProviderData: (options: { personalApiKey: string; projectId: string; appHost: string }) => Promise<{
    readonly definitions: Record<string, { readonly description?: string; readonly options: ReadonlyArray<unknown> }>
    readonly hints: ReadonlyArray<unknown>
  }>
}
const FLAGS_SDK: string = "@flags-sdk/posthog"
const { createPostHogAdapter, getProviderData } = (await import(FLAGS_SDK)) as FlagsSdkPostHog

describe("@flags-sdk/posthog 0.2.2 against a Hedgerow server", () => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }))
  let base = ""
  let token = ""
  let key = ""
  let project = 0
  let api: HedgerowApi

  beforeAll(async () => {
    const boot = await runtime.runPromise(Effect.gen(function*() {
      base = yield* HedgerowServer.baseUrl
      return yield* (yield* Bootstrap).run({ email: "flags-sdk@example.com" })
    }))
    key = boot.personal_api_key
    project = boot.project_id
    api = hedgerowApi(base, key, project)
    token = (await api.call("GET", "/api/projects/{project}/")).api_token
    await api.createFlag({ key: "checkout", name: "New checkout", filters: { ...rolledOut(100), payloads: { true: "{\"steps\": 2}" } } })
    await api.createFlag({
      key: "pricing",
      filters: {
        ...rolledOut(100),
        multivariate: { variants: [{ key: "monthly", rollout_percentage: 0 }, { key: "yearly", rollout_percentage: 100 }] },
        payloads: { yearly: "{\"discount\": 20}" }
      }
    })
    await api.createFlag({ key: "dormant", filters: rolledOut(0) })
  }, 60_000)

  afterAll(async () => {
    await runtime.dispose()
  })

  /** The adapter's decisions for one visitor, and the paths its client asked. */
  const decide = async (personalApiKey: string | undefined) => {
    const asked: Array<string> = []
    const error = vi.spyOn(console, "error").mockImplementation(() => undefined)
    try {
      const adapter = createPostHogAdapter({
        postHogKey: token,
        postHogOptions: {
          host: base,
          ...(personalApiKey === undefined ? {} : { personalApiKey }),
          featureFlagsPollingInterval: 10_000,
          disableGeoip: true,
          fetch: (url: string, options: RequestInit) => {
            asked.push(new URL(url).pathname)
            return fetch(url, options)
          }
        }
      })
      const entities = { distinctId: "visitor-1" }
      const request = (key: string) => ({ key, entities, headers: {} as never, cookies: {} as never })
      const decisions = {
        checkout: await adapter.isFeatureEnabled().decide(request("checkout")),
        dormant: await adapter.isFeatureEnabled().decide(request("dormant")),
        pricing: await adapter.featureFlagValue().decide(request("pricing")),
        payload: await adapter.featureFlagPayload((payload) => payload).decide(request("pricing"))
      }
      return { decisions, asked, errors: error.mock.calls }
    } finally {
      error.mockRestore()
    }
  }

  const EXPECTED = { checkout: true, dormant: false, pricing: "yearly", payload: { discount: 20 } }

  it("with the project's token alone, asks Hedgerow for each flag", { timeout: 30_000 }, async () => {
    const { decisions, asked, errors } = await decide(undefined)
    expect(decisions).toEqual(EXPECTED)
    expect(asked.length).toBeGreaterThan(0)
    expect(asked.every((path) => path === "/flags/" || path === "/decide/")).toBe(true)
    expect(errors).toEqual([])
  })

  it("with a personal API key, evaluates from the definitions it polls", { timeout: 30_000 }, async () => {
    const { decisions, asked, errors } = await decide(key)
    expect(decisions).toEqual(EXPECTED)
    expect(asked.some((path) => path.includes("local_evaluation") || path.includes("/flags/definitions"))).toBe(true)
    expect(asked.filter((path) => path === "/flags/" || path === "/decide/")).toEqual([])
    expect(errors).toEqual([])
  })

  it("gives the Flags Explorer the project's flags, each with its options", async () => {
    const data = await getProviderData({ personalApiKey: key, projectId: String(project), appHost: base })
    expect(data.hints).toEqual([])
    expect(Object.keys(data.definitions).sort()).toEqual(["checkout", "dormant", "pricing"])
    expect(data.definitions["checkout"]).toMatchObject({ description: "New checkout", options: [{ value: { steps: 2 }, label: "true" }] })
    expect(data.definitions["dormant"]!.options).toEqual([{ value: false }, { value: true }])
  })
})
