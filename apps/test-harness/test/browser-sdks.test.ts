import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { rolledOut } from "./browser/hedgerow-api.ts"
import { type SdkWorld, startSdkWorld } from "./browser/sdk-world.ts"

/**
 * PostHog's browser SDKs, unchanged and on their defaults, in Debian's Chromium, on a page of another
 * site than Hedgerow's: each gets its flags and payloads before and after `identify`, sees a change
 * after a reload, sends its events, and leaves no failed request in the page's network log.
 */

/** The SDK on the page, as each test drives it (posthog-js's singleton or a posthog-js-lite client). */
declare const sdk: any
declare const client: any

/**
 * The flags each SDK is tried on, their keys prefixed per SDK so that one's changes leave the other's be:
 * on for everyone (with a payload), a variant (with payloads), on for people whose e-mail the SDK sends
 * as a person property, on for the person identified as `person`, on for every company, and on for the
 * people of a static cohort listing `person`.
 */
const createFlags = async (world: SdkWorld, prefix: string, person: string) => {
  await world.api.createFlag({ key: `${prefix}-everyone`, filters: { ...rolledOut(100), payloads: { true: "{\"banner\": \"hello\"}" } } })
  const colour = await world.api.createFlag({
    key: `${prefix}-colour`,
    filters: {
      ...rolledOut(100),
      multivariate: { variants: [{ key: "control", rollout_percentage: 0 }, { key: "test", rollout_percentage: 100 }] },
      payloads: { test: "\"blue\"", control: "\"grey\"" }
    }
  })
  await world.api.createFlag({
    key: `${prefix}-staff`,
    filters: { groups: [{ properties: [{ key: "email", type: "person", operator: "icontains", value: "@example.com" }], rollout_percentage: 100 }] }
  })
  await world.api.createFlag({
    key: `${prefix}-${person}`,
    filters: { groups: [{ properties: [{ key: "distinct_id", type: "person", operator: "exact", value: [person] }], rollout_percentage: 100 }] }
  })
  const listed = await world.api.call("POST", "/api/projects/{project}/cohorts/", { name: `${prefix} beta testers`, is_static: true })
  await world.api.call("PATCH", `/api/projects/{project}/cohorts/${listed.id}/add_persons_to_static_cohort/`, { person_ids: [person] })
  await world.api.createFlag({
    key: `${prefix}-testers`,
    filters: { groups: [{ properties: [{ key: "id", type: "cohort", value: listed.id }], rollout_percentage: 100 }] }
  })
  await world.api.createFlag({
    key: `${prefix}-companies`,
    filters: {
      aggregation_group_type_index: world.companyIndex,
      groups: [{ properties: [], rollout_percentage: 100 }]
    }
  })
  /** Turns the colour flag's split around: everyone gets `control`. */
  const flipColour = async () => {
    const stored = await world.api.call("GET", `/api/projects/{project}/feature_flags/${colour.id}/`)
    await world.api.call("PATCH", `/api/projects/{project}/feature_flags/${colour.id}/`, {
      filters: { ...stored.filters, multivariate: { variants: [{ key: "control", rollout_percentage: 100 }, { key: "test", rollout_percentage: 0 }] } }
    })
  }
  /** The calls of the everyone flag the SDK reported, by value, as the usage API reads them. */
  const everyoneCalls = async () => {
    const found = (await world.api.call("GET", `/api/projects/{project}/feature_flags/?search=${prefix}-everyone`)).results[0]
    const usage = await world.api.call("GET", `/api/projects/{project}/feature_flags/${found.id}/usage/`)
    return Object.fromEntries(usage.results.map((series: { breakdown_value: string; count: number }) => [series.breakdown_value, series.count]))
  }
  return { flipColour, everyoneCalls }
}

describe("PostHog's browser SDKs in Chromium on their defaults, from a page of another site", () => {
  let world: SdkWorld

  beforeAll(async () => {
    world = await startSdkWorld()
  }, 120_000)

  afterAll(async () => {
    await world?.dispose()
  })

  it("posthog-js 1.449.2: flags and payloads before and after identify, a named group, a cohort, a change seen on reload, events counted, no failed request", { timeout: 90_000 }, async () => {
    const { flipColour, everyoneCalls } = await createFlags(world, "js", "ada")
    const { page, log } = await world.open("posthog-js")
    const keys = ["js-everyone", "js-colour", "js-staff", "js-ada", "js-testers", "js-companies"]
    const read = () =>
      page.evaluate((keys) =>
        Object.fromEntries(keys.map((key) => [key, { value: sdk.default.getFeatureFlag(key, { send_event: false }), payload: sdk.default.getFeatureFlagPayload(key) }])), keys)

    const loaded = await page.evaluate(([token, host]) =>
      new Promise((resolve) => {
        sdk.default.init(token, { api_host: host })
        sdk.default.onFeatureFlags((flags: Array<string>, _variants: unknown, context?: { errorsLoading?: boolean }) =>
          resolve({ flags: [...flags].sort(), errorsLoading: context?.errorsLoading ?? false }))
      }), [world.token, world.base])
    // The callback names the flags that are on.
    expect(loaded).toEqual({ flags: ["js-colour", "js-everyone"], errorsLoading: false })
    expect(await read()).toEqual({
      "js-everyone": { value: true, payload: { banner: "hello" } },
      "js-colour": { value: "test", payload: "blue" },
      "js-staff": { value: false, payload: undefined },
      "js-ada": { value: false, payload: undefined },
      "js-testers": { value: false, payload: undefined },
      "js-companies": { value: false, payload: undefined }
    })

    // posthog-js sends the properties identify sets with its next evaluation.
    await page.evaluate(() => sdk.default.identify("ada", { email: "ada@example.com" }))
    await page.waitForFunction(() => sdk.default.getFeatureFlag("js-staff", { send_event: false }) === true)
    const identified = await read()
    expect([identified["js-ada"]!.value, identified["js-testers"]!.value]).toEqual([true, true])

    // A group by its type's name, as a team's app names it.
    await page.evaluate(() => sdk.default.group("company", "acme"))
    await page.waitForFunction(() => sdk.default.getFeatureFlag("js-companies", { send_event: false }) === true)

    await flipColour()
    await page.evaluate(() => sdk.default.reloadFeatureFlags())
    await page.waitForFunction(() => sdk.default.getFeatureFlag("js-colour", { send_event: false }) === "control")
    expect((await read())["js-colour"]).toEqual({ value: "control", payload: "grey" })

    // Reading a flag as an app does sends `$feature_flag_called`; the queue flushes every few seconds, and
    // the call is counted as the flag's usage.
    await page.evaluate(() => sdk.default.getFeatureFlag("js-everyone"))
    await expect.poll(everyoneCalls, { timeout: 20_000 }).toEqual({ true: 1 })
    expect(log.to(world.base, "/e/", "/i/v0/e/", "/batch/").filter((entry) => entry.status === 200).length).toBeGreaterThan(0)
    expect(log.to(world.base, "/flags/").length).toBeGreaterThanOrEqual(3)
    expect(log.failures).toEqual([])
  })

  it("posthog-js-lite 4.12.1: flags and payloads before and after identify, a named group, a cohort, a change seen on reload, events counted, no failed request", { timeout: 90_000 }, async () => {
    const { flipColour, everyoneCalls } = await createFlags(world, "lite", "grace")
    const { page, log } = await world.open("posthog-js-lite")
    const keys = ["lite-everyone", "lite-colour", "lite-staff", "lite-grace", "lite-testers", "lite-companies"]
    const read = () =>
      page.evaluate((keys) =>
        Object.fromEntries(keys.map((key) => [key, { value: client.getFeatureFlag(key), payload: client.getFeatureFlagPayload(key) }])), keys)

    await page.evaluate(([token, host]) =>
      new Promise<void>((resolve) => {
        ;(window as any).client = new sdk.PostHog(token, { host })
        client.onFeatureFlags(() => resolve())
      }), [world.token, world.base])
    expect(await read()).toEqual({
      "lite-everyone": { value: true, payload: { banner: "hello" } },
      "lite-colour": { value: "test", payload: "blue" },
      "lite-staff": { value: false, payload: null },
      "lite-grace": { value: false, payload: null },
      "lite-testers": { value: false, payload: null },
      "lite-companies": { value: false, payload: null }
    })

    // posthog-js-lite evaluates the new distinct id after identify; person properties for flags are set
    // apart (PostHog reads identify's from the person its events build, which Hedgerow does not keep).
    await page.evaluate(() => client.identify("grace", { email: "grace@example.com" }))
    await page.waitForFunction(() => client.getFeatureFlag("lite-grace") === true)
    expect(await page.evaluate(() => client.getFeatureFlag("lite-testers"))).toBe(true)
    await page.evaluate(() => client.setPersonPropertiesForFlags({ email: "grace@example.com" }))
    await page.waitForFunction(() => client.getFeatureFlag("lite-staff") === true)
    await page.evaluate(() => client.group("company", "acme"))
    await page.waitForFunction(() => client.getFeatureFlag("lite-companies") === true)

    await flipColour()
    await page.evaluate(() => client.reloadFeatureFlagsAsync())
    expect((await read())["lite-colour"]).toEqual({ value: "control", payload: "grey" })

    await page.evaluate(() => client.getFeatureFlag("lite-everyone"))
    await page.evaluate(() => client.flush())
    expect(await everyoneCalls()).toEqual({ true: 1 })
    await expect.poll(() => log.to(world.base, "/e/", "/i/v0/e/", "/batch/").filter((entry) => entry.status === 200).length).toBeGreaterThan(0)
    expect(log.to(world.base, "/flags/").length).toBeGreaterThanOrEqual(3)
    expect(log.failures).toEqual([])
  })
})
