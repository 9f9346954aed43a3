import { type EmbeddedHedgerow, type FlagOptions, openHedgerow } from "@hedgerow/http-server"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { PostHog } from "posthog-node"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"

/**
 * posthog-node, unchanged, pointed at an application that embeds Hedgerow under a base path (its host
 * names the base path), and the same application's in-process reads: they answer alike, the reads
 * returning what posthog-node's isFeatureEnabled, getFeatureFlag, getFeatureFlagPayload and getAllFlags
 * return.
 */

const BASE = "/tools/hedgerow"
const everyone = { groups: [{ properties: [], rollout_percentage: 100 }] }

describe("posthog-node 5.70.0 against an application embedding Hedgerow, and the application's in-process reads", () => {
  let hedgerow: EmbeddedHedgerow
  let server: Server
  let host = ""
  const keys: Array<string> = []
  let off = ""

  beforeAll(async () => {
    hedgerow = await openHedgerow({ store: {}, basePath: BASE })
    server = createServer((request, response) =>
      hedgerow.handler(request, response, () => response.writeHead(404).end("the application's"))
    )
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    host = `http://127.0.0.1:${(server.address() as AddressInfo).port}${BASE}`
    const post = (path: string, body: object) =>
      fetch(`${host}/api/projects/${hedgerow.project.id}/${path}/`, {
        method: "POST",
        headers: { authorization: `Bearer ${hedgerow.bootstrapped!.personal_api_key}`, "content-type": "application/json" },
        body: JSON.stringify(body)
      })
    const create = async (body: object) => {
      const reply = await post("feature_flags", body)
      expect(reply.status).toBe(201)
      keys.push((await reply.json()).key)
    }
    // Group type 0 is `company`, as an SDK names the group.
    expect((await post("groups_types", { group_type: "company" })).status).toBe(201)
    await create({ key: "sdk-on", filters: { ...everyone, payloads: { true: "{\"color\": \"blue\"}" } } })
    await create({
      key: "sdk-variant",
      filters: {
        ...everyone,
        multivariate: { variants: [{ key: "red", rollout_percentage: 50 }, { key: "green", rollout_percentage: 50 }] },
        payloads: { red: "\"warm\"" }
      }
    })
    await create({
      key: "sdk-pro",
      filters: { groups: [{ properties: [{ key: "plan", type: "person", value: "pro", operator: "exact" }], rollout_percentage: 100 }] }
    })
    await create({ key: "sdk-half", filters: { groups: [{ properties: [], rollout_percentage: 50 }] } })
    await create({
      key: "sdk-big-company",
      filters: {
        aggregation_group_type_index: 0,
        groups: [{ properties: [{ key: "size", type: "group", group_type_index: 0, value: "big", operator: "exact" }], rollout_percentage: 100 }]
      }
    })
    await create({ key: "sdk-off", filters: everyone, active: false })
    off = "sdk-off"
    keys.push("sdk-unknown")
  }, 60_000)

  afterAll(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()))
    await hedgerow.close()
  })

  const people: ReadonlyArray<[string, FlagOptions]> = [
    ["ann", { personProperties: { plan: "pro" }, groups: { company: "acme" }, groupProperties: { company: { size: "big" } } }],
    ["bob", { personProperties: { plan: "free" }, groups: { company: "tiny" }, groupProperties: { company: { size: "small" } } }],
    ["cy", {}],
    ["dee", { personProperties: { plan: "pro" } }],
    ["eve", { groups: { company: "acme" }, groupProperties: { company: { size: "big" } } }]
  ]

  /** What a client answers for a person, every read the application makes. */
  const readsOf = async (client: PostHog, distinctId: string, options: FlagOptions) => {
    // Hedgerow takes no events: the SDK is asked not to report the flags it was called for.
    const sdkOptions = { ...options, sendFeatureFlagEvents: false } as never
    const perKey: Record<string, unknown> = {}
    for (const key of keys) {
      perKey[key] = [
        await client.isFeatureEnabled(key, distinctId, sdkOptions),
        await client.getFeatureFlag(key, distinctId, sdkOptions),
        await client.getFeatureFlagPayload(key, distinctId, undefined, sdkOptions)
      ]
    }
    return { perKey, all: await client.getAllFlags(distinctId, sdkOptions) }
  }
  const ours = async (distinctId: string, options: FlagOptions) => {
    const perKey: Record<string, unknown> = {}
    for (const key of keys) {
      perKey[key] = [
        await hedgerow.flags.isEnabled(key, distinctId, options),
        await hedgerow.flags.getVariant(key, distinctId, options),
        await hedgerow.flags.getPayload(key, distinctId, options)
      ]
    }
    return { perKey, all: await hedgerow.flags.getAll(distinctId, options) }
  }

  it("evaluating locally from the definitions below the base path, posthog-node answers every read as the application does", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    const requests: Array<string> = []
    const client = new PostHog(hedgerow.project.api_token, {
      host,
      personalApiKey: hedgerow.bootstrapped!.personal_api_key,
      featureFlagsPollingInterval: null,
      disableGeoip: true,
      flushAt: 1_000_000,
      fetch: async (input, init) => {
        requests.push(String(input))
        return (await fetch(input, init as RequestInit)) as never
      }
    })
    try {
      expect(await client.waitForLocalEvaluationReady(10_000)).toBe(true)
      const seen = new Set<string>()
      for (const [distinctId, options] of people) {
        const theirs = await readsOf(client, distinctId, options)
        expect(theirs, distinctId).toEqual(await ours(distinctId, options))
        for (const [key, value] of Object.entries(theirs.all)) seen.add(`${key}=${value}`)
      }
      // The persons tell the flags' answers apart.
      for (const answer of ["sdk-variant=red", "sdk-variant=green", "sdk-half=true", "sdk-half=false", "sdk-pro=true", "sdk-pro=false", "sdk-big-company=true", "sdk-big-company=false"]) {
        expect(seen).toContain(answer)
      }
      expect(requests.filter((url) => url.includes("/flags/definitions"))).toEqual([
        `${host}/flags/definitions?token=${hedgerow.project.api_token}&send_cohorts`
      ])
    } finally {
      warn.mockRestore()
      await client.shutdown()
    }
  })

  it("asking /flags below the base path, posthog-node answers as the application does, but leaves inactive flags out", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined)
    const client = new PostHog(hedgerow.project.api_token, { host, disableGeoip: true, flushAt: 1_000_000 })
    try {
      for (const [distinctId, options] of people) {
        const theirs = await readsOf(client, distinctId, options)
        const expected = await ours(distinctId, options)
        // posthog-node reads an inactive flag locally as off, and through /flags, which leaves it out, as unknown.
        expect(expected.perKey[off]).toEqual([false, false, null])
        expect(expected.all[off]).toBe(false)
        const { [off]: _, ...all } = expected.all
        expect(theirs, distinctId).toEqual({ perKey: { ...expected.perKey, [off]: [undefined, undefined, undefined] }, all })
      }
    } finally {
      warn.mockRestore()
      await client.shutdown()
    }
  })
})
