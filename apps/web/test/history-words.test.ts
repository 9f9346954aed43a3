import { describe, expect, it } from "vitest"
import { type ActivityEntry, changeStory, storiesOf } from "../src/flags/activity-words.ts"
import { snippetsFor } from "../src/flags/code-snippets.ts"
import { releaseLines } from "../src/flags/release-words.ts"
import { rolloutMove } from "../src/flags/rollout-move.ts"
import { earlierValues } from "../src/flags/restore-version.tsx"

// The words a flag's history, restore and snippets are made of, from the API's shapes, with no browser.
const group = (rollout: number | null, properties: Array<Record<string, unknown>> = []) => ({ properties, rollout_percentage: rollout })
const change = (field: string, before: unknown, after: unknown, action: "changed" | "created" | "deleted" = "changed") =>
  ({ type: "FeatureFlag", action, field, before, after })
const entry = (activity: string, changes: ReturnType<typeof change>[]): ActivityEntry => ({
  id: "1",
  user: { first_name: "Ada", email: "ada@example.com" },
  activity,
  scope: "FeatureFlag",
  item_id: "7",
  detail: { id: "7", changes, merge: null, trigger: null, name: "checkout", short_id: null, type: null },
  created_at: "2026-11-29T10:00:00Z"
})

describe("a flag's history in words", () => {
  it("names the one rollout a change moved, and nothing when more changed", () => {
    const acme = { key: "email", type: "person", operator: "icontains", value: "@acme.com" }
    expect(rolloutMove({ groups: [group(30, [acme])] }, { groups: [group(50, [acme])] })).toEqual({ condition: 1, of: 1, from: "30 %", to: "50 %" })
    expect(rolloutMove({ groups: [group(10), group(null)] }, { groups: [group(10), group(20)] })).toEqual({ condition: 2, of: 2, from: "100 %", to: "20 %" })
    expect(rolloutMove({ groups: [group(30)] }, { groups: [group(50, [acme])] })).toBeUndefined()
    expect(rolloutMove({ groups: [group(30)] }, { groups: [group(30), group(50)] })).toBeUndefined()
    expect(rolloutMove({ groups: [group(30)], payloads: {} }, { groups: [group(50)], payloads: { true: "1" } })).toBeUndefined()
  })

  it("tells the conditions, variants and payloads a line each", () => {
    expect(releaseLines({
      groups: [group(30, [{ key: "plan", operator: "exact", value: ["pro", "team"] }, { type: "cohort", key: "id", value: 4 }]), group(null, [{ key: "beta", operator: "is_set" }])],
      multivariate: { variants: [{ key: "control", name: "Now", rollout_percentage: 50 }, { key: "test", rollout_percentage: 50 }] },
      payloads: { test: "{\"a\":1}", control: null }
    })).toEqual([
      "Condition 1: 30 % of users in cohort 4 where plan equals \"pro\", \"team\"",
      "Condition 2: 100 % of users where beta is set",
      "Variant control (Now): 50 %",
      "Variant test: 50 %",
      "Payload of variant test: {\"a\":1}"
    ])
    expect(releaseLines({ groups: [], aggregation_group_type_index: 0 })).toEqual(["No release conditions: nobody gets the flag"])
    expect(releaseLines({ groups: [group(5)], aggregation_group_type_index: 1 })).toEqual(["Condition 1: 5 % of groups of type 1"])
  })

  it("words the conditions checked first, a forced variant and a condition on another flag as the list's summary does", () => {
    const dependency = { key: "7", type: "flag", operator: "flag_evaluates_to", value: true }
    const filters = {
      super_groups: [group(100, [{ key: "$feature_enrollment/f", type: "person", operator: "exact", value: ["true"] }])],
      groups: [{ ...group(20, [dependency]), variant: "b" }]
    }
    expect(releaseLines(filters)).toEqual([
      "First: 100 % of users where $feature_enrollment/f equals \"true\"",
      "Condition 1: 20 % of users where flag 7 is true get b"
    ])
    expect(releaseLines(filters, { flags: new Map([[7, "new-nav"]]) })[1]).toBe("Condition 1: 20 % of users where flag new-nav is true get b")
  })

  it("says each field as the form names it, and leaves out the version and the deletion", () => {
    expect(changeStory(change("active", true, false))?.words).toBe("turned the flag off")
    expect(changeStory(change("key", "a", "b"))?.words).toBe("renamed the key from a to b")
    expect(changeStory(change("name", "Old", "New"))?.words).toBe("changed the description from \"Old\" to \"New\"")
    expect(changeStory(change("name", null, "New", "created"))?.words).toBe("set the description to \"New\"")
    expect(changeStory(change("name", "Old", null, "deleted"))?.words).toBe("removed the description (was \"Old\")")
    expect(changeStory(change("tags", ["a", "b"], ["b", "c"]))?.words).toBe("added the tag c and removed the tag a")
    expect(changeStory(change("ensure_experience_continuity", false, true))?.words).toBe("turned persisting the flag across authentication steps on")
    expect(changeStory(change("version", 1, 2))).toBeUndefined()
    expect(changeStory(change("deleted", false, true))).toBeUndefined()
    const stories = storiesOf(entry("updated", [change("filters", { groups: [group(30)] }, { groups: [group(40)] }), change("version", 1, 2)]))
    expect(stories.map((story) => story.words)).toEqual(["changed the rollout from 30 % to 40 %"])
    expect(stories[0]?.filters).toEqual({ before: { groups: [group(30)] }, after: { groups: [group(40)] } })
  })

  it("restores an update's earlier values of the fields it changed, an emptied description or tag list as empty", () => {
    expect(earlierValues(entry("updated", [change("active", true, false), change("version", 3, 4), change("name", null, "New", "created"), change("tags", null, ["x"], "created")])))
      .toEqual({ active: true, name: "", tags: [] })
    expect(earlierValues(entry("updated", [change("deleted", false, true), change("evaluation_runtime", null, "server", "created")]))).toEqual({})
    expect(earlierValues(entry("created", []))).toEqual({})
    expect(earlierValues(entry("deleted", [change("deleted", false, true), change("key", "a", "b")]))).toEqual({})
  })
})

describe("a flag's snippets", () => {
  it("read a boolean flag as on or off, a multivariate one by its variants, and its payload when it has one", () => {
    const [browser, server, embedded] = snippetsFor({ key: "beta", variants: [], hasPayload: false }, "phc_x", "https://flags.example")
    expect(browser!.code).toContain("posthog.init(\"phc_x\", { api_host: \"https://flags.example\" })")
    expect(browser!.code).toContain("if (posthog.isFeatureEnabled(\"beta\")) {")
    expect(server!.code).toContain("if (flags.isEnabled(\"beta\")) {")
    expect(embedded!.code).toContain("if (await hedgerow.flags.isEnabled(\"beta\", \"user-42\", options)) {")
    expect([browser, server, embedded].some((snippet) => snippet!.code.includes("ayload"))).toBe(false)
    const quoted = snippetsFor({ key: "a\"b", variants: ["x"], hasPayload: true }, "phc_x", "https://flags.example")
    expect(quoted[0]!.code).toContain("posthog.getFeatureFlag(\"a\\\"b\")")
    expect(quoted[0]!.code).toContain("if (variant === \"x\") {")
    expect(quoted[1]!.code).toContain("const payload = flags.getFlagPayload(\"a\\\"b\")")
    expect(quoted[2]!.code).toContain("const payload = await hedgerow.flags.getPayload(\"a\\\"b\", \"user-42\", options)")
  })
})
