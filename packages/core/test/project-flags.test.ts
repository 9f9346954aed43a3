import { assert, describe, it } from "@effect/vitest"
import { listPlan } from "../src/feature-flags/management/list-query.ts"
import type { StoredFlag } from "../src/feature-flags/model.ts"
import type { UserSummary } from "../src/users/model.ts"
import { applyChanges, projectFlags, selectFlags } from "../src/feature-flags/live/project-flags.ts"
import type { FeatureFlagId, UserId } from "../src/shared/ids.ts"
import { storedFlag } from "./stored-flag.ts"
import { type Timestamp, timestampFromDate } from "../src/shared/time.ts"

const now = Date.parse("2026-06-01T00:00:00Z")
const daysAgo = (days: number) => timestampFromDate(new Date(now - days * 86_400_000)) as Timestamp

const flag = (id: number, fields: Partial<StoredFlag>): StoredFlag =>
  storedFlag({ id: id as FeatureFlagId, key: `flag-${id}`, created_at: daysAgo(id), updated_at: daysAgo(id), ...fields })

/** Newest first, as the store reads a project: flag 1 is a day old, flag 6 six days. */
const project = projectFlags([
  flag(1, { key: "Zeta", name: "Checkout redesign", tags: ["ui"] }),
  flag(2, { key: "alpha", filters: { groups: [{ properties: [], rollout_percentage: 100 }] }, created_by_id: 7 as UserId }),
  flag(3, { key: "\u{1F600}-emoji", active: false, version: 3 }),
  flag(4, { key: "\uFFFD-replacement", filters: { groups: [{ properties: [], rollout_percentage: 100 }], multivariate: { variants: [{ key: "a", rollout_percentage: 100 }] } } }),
  flag(5, { key: "beta_1%", evaluation_runtime: "server", tags: ["ui", "api"] }),
  flag(40, { key: "old-and-done", filters: { groups: [{ properties: [], rollout_percentage: 100 }] } })
])

const keys = (query: Parameters<typeof listPlan>[0], page = { limit: 100, offset: 0 }) => {
  const plan = listPlan(query, now)
  if (plan._tag === "Empty") return { count: 0, keys: [] }
  const selected = selectFlags(project, plan.filter, page)
  return { count: selected.count, keys: selected.results.map((f) => f.key) }
}

describe("a project's flags in memory", () => {
  it("pages newest first by default, and counts every match", () => {
    assert.deepStrictEqual(keys({}, { limit: 2, offset: 1 }), { count: 6, keys: ["alpha", "\u{1F600}-emoji"] })
  })

  it("orders text by code point, as the database's C collation does: upper case first, astral characters last", () => {
    assert.deepStrictEqual(keys({ order: "key" }).keys, ["Zeta", "alpha", "beta_1%", "old-and-done", "\uFFFD-replacement", "\u{1F600}-emoji"])
    assert.deepStrictEqual(keys({ order: "-key" }).keys.at(0), "\u{1F600}-emoji")
  })

  it("breaks ties by id in the order's direction", () => {
    assert.deepStrictEqual(keys({ order: "version" }).keys, ["Zeta", "alpha", "\uFFFD-replacement", "beta_1%", "old-and-done", "\u{1F600}-emoji"])
    assert.deepStrictEqual(keys({ order: "-active" }).keys.at(-1), "\u{1F600}-emoji")
    assert.deepStrictEqual(keys({ order: "-active" }).keys.at(0), "old-and-done")
  })

  it("searches key and name case-insensitively, with % and _ as plain characters", () => {
    assert.deepStrictEqual(keys({ search: "REDESIGN" }).keys, ["Zeta"])
    assert.deepStrictEqual(keys({ search: "a_1%" }).keys, ["beta_1%"])
    assert.deepStrictEqual(keys({ search: "a%1" }).keys, [])
  })

  it("folds case a character at a time, as the database's ILIKE: a word's final capital sigma is found by σ and by Σ", () => {
    const greek = projectFlags([flag(1, { key: "greek", name: "ΛΟΓΟΣ" }), flag(2, { key: "road", name: "ΟΔΟΣ ΑΒ" })])
    const found = (search: string) => {
      const plan = listPlan({ search }, now)
      return plan._tag === "Query" ? selectFlags(greek, plan.filter, { limit: 10, offset: 0 }).results.map((f) => f.key) : []
    }
    assert.deepStrictEqual([found("σ"), found("Σ"), found("ΟΣ Α")], [["greek", "road"], ["greek", "road"], ["road"]])
  })

  it("filters by type, runtime, activity, staleness, creator, tags and excluded keys", () => {
    assert.deepStrictEqual(keys({ type: "multivariant" }).keys, ["\uFFFD-replacement"])
    assert.deepStrictEqual(keys({ type: "boolean" }).count, 5)
    assert.deepStrictEqual(keys({ evaluation_runtime: "server" }).keys, ["beta_1%"])
    assert.deepStrictEqual(keys({ active: "false" }).keys, ["\u{1F600}-emoji"])
    assert.deepStrictEqual(keys({ active: "STALE" }).keys, ["old-and-done"])
    assert.deepStrictEqual(keys({ created_by_id: "7" }).keys, ["alpha"])
    assert.deepStrictEqual(keys({ tags: "[\"api\", \"none\"]" }).keys, ["beta_1%"])
    assert.deepStrictEqual(keys({ excluded_properties: "[\"Zeta\", \"alpha\"]" }).count, 4)
  })
})

describe("a project's flags after some of them change", () => {
  it("drops deleted flags, replaces changed ones and puts new ones in place, newest first, however often applied", () => {
    const changing = projectFlags(project.entries.map((entry) => entry.flag))
    const byKey = listPlan({ order: "key" }, now)
    // Sorted once before the change, so that the order kept with it must be dropped.
    if (byKey._tag === "Query") assert.strictEqual(selectFlags(changing, byKey.filter, { limit: 1, offset: 0 }).results[0]!.key, "Zeta")
    const renamed = flag(2, { key: "alpha-renamed" })
    const added = flag(6, { key: "between-5-and-40" })
    for (const _ of [1, 2]) applyChanges(changing, [2, 3, 6], [renamed, flag(3, { deleted: true }), added])
    assert.deepStrictEqual(
      changing.entries.map((entry) => entry.flag.key),
      ["Zeta", "alpha-renamed", "\uFFFD-replacement", "beta_1%", "between-5-and-40", "old-and-done"]
    )
    const plan = listPlan({ order: "key" }, now)
    assert.deepStrictEqual(
      plan._tag === "Query" ? selectFlags(changing, plan.filter, { limit: 2, offset: 0 }).results.map((f) => f.key) : [],
      ["Zeta", "alpha-renamed"]
    )
  })

  it("counts the changes applied, so that what is derived from the flags knows to be made again", () => {
    const changing = projectFlags(project.entries.map((entry) => entry.flag))
    assert.strictEqual(changing.changes, 0)
    applyChanges(changing, [2], [flag(2, { key: "alpha", version: 2 })])
    applyChanges(changing, [7], [])
    assert.strictEqual(changing.changes, 2)
  })
})

describe("the people a project's flags show", () => {
  const person = (id: number, first_name: string): UserSummary => ({
    id: id as UserId,
    uuid: `0190b3c2-7c4e-7000-8000-00000000000${id}` as UserSummary["uuid"],
    distinct_id: `distinct-${id}`,
    first_name,
    last_name: "",
    email: `person${id}@example.com`,
    is_email_verified: true,
    hedgehog_config: null,
    role_at_organization: null
  })

  it("are one object per person, however many flags each row read brought a copy to", () => {
    const shared = projectFlags([
      flag(1, { created_by: person(7, "Ada"), last_modified_by: person(7, "Ada") }),
      flag(2, { created_by: person(7, "Ada"), last_modified_by: person(8, "Grace") }),
      flag(3, { created_by: null })
    ])
    const [one, two, three] = shared.entries.map((entry) => entry.flag)
    assert.strictEqual(one!.created_by, one!.last_modified_by)
    assert.strictEqual(two!.created_by, one!.created_by)
    assert.deepStrictEqual(two!.last_modified_by, person(8, "Grace"))
    assert.strictEqual(three!.created_by, null)
    // A changed flag read later shares them too; a person shown differently now is not taken for the old one.
    applyChanges(shared, [2, 4], [flag(2, { created_by: person(7, "Ada"), name: "changed" }), flag(4, { created_by: person(8, "Grace Hopper") })])
    const byId = new Map(shared.entries.map((entry) => [entry.flag.id, entry.flag]))
    assert.strictEqual(byId.get(2 as FeatureFlagId)!.created_by, one!.created_by)
    assert.deepStrictEqual(byId.get(4 as FeatureFlagId)!.created_by, person(8, "Grace Hopper"))
    assert.deepStrictEqual(byId.get(2 as FeatureFlagId), flag(2, { created_by: person(7, "Ada"), name: "changed" }))
  })
})
