import { describe, expect, it } from "vitest"
import type { Drafted } from "../src/flags/draft.ts"
import { summaryOf } from "../src/flags/summary.ts"

const flag = (filters: Record<string, unknown>, active = true): Drafted => ({ key: "f", name: "", active, tags: [], filters })
const condition = (rollout_percentage: number | null, properties: ReadonlyArray<Record<string, unknown>> = [], variant: string | null = null) =>
  ({ properties, rollout_percentage, variant })
const email = { key: "email", type: "person", operator: "icontains", value: "@acme.com" }

describe("a flag's release in words", () => {
  it("says Off for a disabled flag, whatever its conditions", () => {
    expect(summaryOf(flag({ groups: [condition(100)] }, false))).toBe("Off")
  })

  it("gives each condition's rollout, of everyone or of users where its properties hold, in the operators' words", () => {
    expect(summaryOf(flag({ groups: [condition(100)] }))).toBe("100 % of everyone")
    expect(summaryOf(flag({ groups: [condition(30, [email])] }))).toBe("30 % of users where email contains \"@acme.com\"")
    expect(summaryOf(flag({
      groups: [condition(30, [email, { key: "plan", type: "person", operator: "exact", value: ["pro", "team"] }]), condition(5)]
    }))).toBe("30 % of users where email contains \"@acme.com\" and plan equals \"pro\", \"team\"; or 5 % of everyone")
    expect(summaryOf(flag({ groups: [condition(100, [{ key: "beta", type: "person", operator: "is_set", value: "is_set" }])] })))
      .toBe("100 % of users where beta is set")
    // A condition without a rollout is evaluated at 100 %, as the form reads it.
    expect(summaryOf(flag({ groups: [condition(null)] }))).toBe("100 % of everyone")
    expect(summaryOf(flag({ groups: [] }))).toBe("No one")
  })

  it("splits a multivariate flag's variants, with its one condition in words or its conditions counted", () => {
    const multivariate = { variants: [["a", 34], ["b", 33], ["c", 33]].map(([key, rollout_percentage]) => ({ key, rollout_percentage })) }
    expect(summaryOf(flag({ groups: [condition(100)], multivariate }))).toBe("3 variants 34/33/33 · 100 % of everyone")
    expect(summaryOf(flag({ groups: [condition(50, [email]), condition(10)], multivariate }))).toBe("3 variants 34/33/33 · 2 conditions")
    expect(summaryOf(flag({ groups: [condition(100, [email], "b")], multivariate })))
      .toBe("3 variants 34/33/33 · 100 % of users where email contains \"@acme.com\" get b")
  })

  it("names the group type a group-based flag rolls out by, and cohorts and flags by name where known, else by id", () => {
    const groupTypes = new Map([[0, "companies"]])
    const cohort = (value: number, operator = "in") => ({ key: "id", type: "cohort", operator, value })
    expect(summaryOf(flag({ aggregation_group_type_index: 0, groups: [condition(20)] }), { groupTypes })).toBe("20 % of companies")
    expect(summaryOf(flag({ aggregation_group_type_index: 1, groups: [condition(20)] }), { groupTypes })).toBe("20 % of groups of type 1")
    expect(summaryOf(flag({ groups: [condition(100, [cohort(12), email])] }), { cohorts: new Map([[12, "Beta testers"]]) }))
      .toBe("100 % of users in cohort Beta testers where email contains \"@acme.com\"")
    expect(summaryOf(flag({ groups: [condition(100, [cohort(12, "not_in")])] }))).toBe("100 % of users not in cohort 12")
    const dependency = { key: "7", type: "flag", operator: "flag_evaluates_to", value: true }
    expect(summaryOf(flag({ groups: [condition(100, [dependency])] }), { flags: new Map([[7, "new-nav"]]) }))
      .toBe("100 % of users where flag new-nav is true")
    expect(summaryOf(flag({ groups: [condition(100, [dependency])] }))).toBe("100 % of users where flag 7 is true")
  })

  it("puts the opt-in super conditions first", () => {
    const optIn = condition(100, [{ key: "$feature_enrollment/f", type: "person", operator: "exact", value: ["true"] }])
    expect(summaryOf(flag({ super_groups: [optIn], groups: [condition(0)] })))
      .toBe("First 100 % of users where $feature_enrollment/f equals \"true\", then 0 % of everyone")
  })
})
