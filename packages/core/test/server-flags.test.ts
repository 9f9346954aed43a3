import { assert, describe, it } from "@effect/vitest"
import { prepareFlags } from "../src/evaluation/prepare.ts"
import { sdkPayload, serverFlags } from "../src/flag-evaluation/server-flags.ts"
import type { FlagSnapshot } from "../src/flag-evaluation/snapshot.ts"
import type { FeatureFlagId, ProjectId } from "../src/shared/ids.ts"
import { storedFlag } from "./stored-flag.ts"

const everyone = (payloads?: Record<string, unknown>) => ({
  groups: [{ properties: [], rollout_percentage: 100 }],
  ...(payloads === undefined ? {} : { payloads })
})

const snapshotOf = (...flags: Array<Parameters<typeof storedFlag>[0]>): FlagSnapshot => ({
  project: 1 as ProjectId,
  prepared: prepareFlags(flags.map((fields, i) => storedFlag({ id: (i + 1) as FeatureFlagId, ...fields })), { cohorts: new Map() }),
  staticCohorts: []
})

describe("flags as a server reads them in-process", () => {
  it("knows the flags that run on a server, inactive ones off, with their payloads parsed", () => {
    const snapshot = snapshotOf(
      { key: "on", filters: everyone({ true: "{\"color\": \"blue\"}" }) },
      { key: "text", filters: everyone({ true: "not json" }) },
      { key: "empty", filters: everyone({ true: "" }) },
      {
        key: "variant",
        filters: { ...everyone({ red: "[1]" }), multivariate: { variants: [{ key: "red", rollout_percentage: 100 }] } }
      },
      { key: "off", active: false, filters: everyone({ true: "1" }) },
      { key: "server", evaluation_runtime: "server", filters: everyone() },
      { key: "client", evaluation_runtime: "client", filters: everyone() }
    )
    const flags = serverFlags(snapshot, { distinct_id: "ann" })
    assert.deepStrictEqual(Object.fromEntries(flags), {
      on: { value: true, payload: { color: "blue" } },
      text: { value: true, payload: "not json" },
      empty: { value: true, payload: null },
      variant: { value: "red", payload: [1] },
      off: { value: false, payload: null },
      server: { value: true, payload: null }
    })
    assert.deepStrictEqual([...serverFlags(snapshot, { distinct_id: "ann", only: ["variant", "client"] }).keys()], ["variant"])
  })

  it("reads a stored payload as posthog-node does", () => {
    assert.deepStrictEqual([sdkPayload("{\"a\": 1}"), sdkPayload("\"x\""), sdkPayload("x"), sdkPayload(""), sdkPayload(0), sdkPayload(2)], [
      { a: 1 },
      "x",
      "x",
      null,
      null,
      2
    ])
  })
})
