import { Bootstrap } from "@hedgerow/core"
import { HedgerowServer } from "@hedgerow/http-server"
import { Effect, ManagedRuntime } from "effect"
import { PostHog } from "posthog-node"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

/**
 * posthog-node, unchanged, sending its events to a Hedgerow server: the `$feature_flag_called` events it
 * sends for each flag read, remote or local, become the flag's usage, the other events are accepted and
 * dropped, and its flushes log no error.
 */
describe("posthog-node 5.70.0's events against a Hedgerow server", () => {
  const runtime = ManagedRuntime.make(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {}, log: { level: "none", format: "text" } }))
  let url = ""
  let project = 0
  let key = ""
  let token = ""

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return response.json()
  }

  beforeAll(async () => {
    await runtime.runPromise(Effect.gen(function*() {
      url = yield* HedgerowServer.baseUrl
      const boot = yield* (yield* Bootstrap).run({ email: "events@example.com" })
      project = boot.project_id
      key = boot.personal_api_key
    }))
    token = (await api("GET", `/api/projects/${project}/`)).api_token
    await api("POST", `/api/projects/${project}/feature_flags/`, { key: "on-for-all", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
    await api("POST", `/api/projects/${project}/feature_flags/`, {
      key: "two-colours",
      filters: {
        groups: [{ properties: [], rollout_percentage: 100 }],
        multivariate: { variants: [{ key: "red", rollout_percentage: 50 }, { key: "blue", rollout_percentage: 50 }] }
      }
    })
  })
  afterAll(async () => {
    await runtime.dispose()
  })

  const usageOf = async (flagKey: string) => {
    const flags = await api("GET", `/api/projects/${project}/feature_flags/?search=${flagKey}`)
    const flag = flags.results.find((candidate: { key: string }) => candidate.key === flagKey)
    const report = await api("GET", `/api/projects/${project}/feature_flags/${flag.id}/usage/`)
    return Object.fromEntries(report.results.map((series: { breakdown_value: string; count: number }) => [series.breakdown_value, series.count]))
  }

  it("flushes every kind of event with no error logged, and its flag calls become usage", { timeout: 60_000 }, async () => {
    const logged = [vi.spyOn(console, "error"), vi.spyOn(console, "warn")]
    const errors: Array<unknown> = []
    const remote = new PostHog(token, { host: url, flushAt: 5, flushInterval: 50 })
    const local = new PostHog(token, { host: url, personalApiKey: key, flushAt: 5, flushInterval: 50 })
    for (const client of [remote, local]) client.on("error", (error) => errors.push(error))
    try {
      const people = Array.from({ length: 20 }, (_, i) => `person-${i}`)
      const colours: Record<string, number> = {}
      for (const person of people) {
        expect(await remote.getFeatureFlag("on-for-all", person)).toBe(true)
        const colour = await local.getFeatureFlag("two-colours", person)
        colours[String(colour)] = (colours[String(colour)] ?? 0) + 1
        remote.capture({ distinctId: person, event: "signed up", properties: { plan: "pro" } })
        remote.identify({ distinctId: person, properties: { email: `${person}@example.com` } })
        remote.groupIdentify({ groupType: "company", groupKey: "acme", properties: { name: "Acme" } })
      }
      await remote.flush()
      await local.flush()
      expect(await usageOf("on-for-all")).toEqual({ true: people.length })
      expect(await usageOf("two-colours")).toEqual(colours)
      expect(Object.keys(colours).sort()).toEqual(["blue", "red"])
      const flag = (await api("GET", `/api/projects/${project}/feature_flags/?search=two-colours`)).results[0]
      expect(flag.last_called_at).not.toBeNull()
    } finally {
      await remote.shutdown()
      await local.shutdown()
      for (const spy of logged) spy.mockRestore()
    }
    expect(errors).toEqual([])
    for (const spy of logged) expect(spy).not.toHaveBeenCalled()
  })

  it("is told of a token that names no project (403), which it logs: the spy above would see an error", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {})
    const stranger = new PostHog("phc_nobody", { host: url, flushAt: 1, flushInterval: 0, fetchRetryCount: 0 })
    try {
      // At flushAt the client flushes in the background, logging what fails, as it does at every interval.
      stranger.capture({ distinctId: "a", event: "anything" })
      await vi.waitFor(() => expect(logged).toHaveBeenCalled(), { timeout: 5_000 })
      expect(String(logged.mock.calls[0]?.[0])).toContain("ingest_key_unknown")
    } finally {
      await stranger.shutdown().catch(() => {})
      logged.mockRestore()
    }
  })
})
