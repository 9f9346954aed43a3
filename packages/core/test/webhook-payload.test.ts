import { describe, expect, it } from "vitest"
import type { ActivityChange, ActivityLogView } from "../src/activity/model.ts"
import type { ActivityLogId, ProjectId } from "../src/shared/ids.ts"
import type { Timestamp } from "../src/shared/time.ts"
import { flagSides, payloadOf } from "../src/webhooks/payload.ts"

const entry = (activity: ActivityLogView["activity"], item_id: string, changes: ReadonlyArray<ActivityChange> | null, scope = "FeatureFlag"): ActivityLogView => ({
  id: "00000000-0000-4000-8000-000000000001" as ActivityLogId,
  user: null,
  activity,
  scope,
  item_id,
  detail: { id: item_id, changes, merge: null, trigger: null, name: null, short_id: null, type: null },
  created_at: "2026-01-02T03:04:05.000000Z" as Timestamp
})
const change = (field: string, before: unknown, after: unknown, action: ActivityChange["action"] = "changed"): ActivityChange =>
  ({ type: "FeatureFlag", action, field, before, after })

/** A flag's row as the store records it, bookkeeping columns and all. */
const row = (fields: Record<string, unknown>) => ({ id: 7, key: "k", name: "", active: true, version: 1, project_id: 1, created_by_id: 3, ...fields })

describe("the flag before and after a change", () => {
  it("is none before a creation, the row after it, without the store's bookkeeping", () => {
    const [sides] = flagSides([{ entry: entry("created", "7", null), item: row({}) }])
    expect(sides).toEqual({ before: null, after: { id: 7, key: "k", name: "", active: true, version: 1 } })
  })

  it("sets each logged field back, a field created from nothing to the empty value of its kind", () => {
    const changes = [change("name", null, "Named", "created"), change("version", 1, 2), change("active", true, false), change("tags", null, ["a"], "created")]
    const [sides] = flagSides([{ entry: entry("updated", "7", changes), item: row({ name: "Named", active: false, version: 2, tags: ["a"] }) }])
    expect(sides!.before).toEqual({ id: 7, key: "k", name: "", active: true, version: 1, tags: [] })
    expect(sides!.after).toEqual({ id: 7, key: "k", name: "Named", active: false, version: 2, tags: ["a"] })
  })

  it("gives changes written by one statement each its own after, the next one's before", () => {
    const final = row({ name: "Two", active: false, version: 3 })
    const [first, second] = flagSides([
      { entry: entry("updated", "7", [change("name", "", "Two"), change("version", 1, 2)]), item: final },
      { entry: entry("updated", "7", [change("version", 2, 3), change("active", true, false)]), item: final }
    ])
    expect(second).toEqual({ before: { id: 7, key: "k", name: "Two", active: true, version: 2 }, after: { id: 7, key: "k", name: "Two", active: false, version: 3 } })
    expect(first).toEqual({ before: { id: 7, key: "k", name: "", active: true, version: 1 }, after: second!.before })
  })

  it("keeps changes of other statements, and other kinds with the same id, apart", () => {
    const [flag, cohort] = flagSides([
      { entry: entry("updated", "7", [change("version", 1, 2)]), item: row({ version: 2 }) },
      { entry: entry("updated", "7", [], "Cohort"), item: null }
    ])
    expect(flag!.after).toMatchObject({ version: 2 })
    expect(cohort).toEqual({ before: null, after: null })
    const body = JSON.parse(payloadOf("cohort.updated", 1 as ProjectId, entry("updated", "7", [], "Cohort"), cohort!))
    expect(body).toEqual({ type: "cohort.updated", timestamp: "2026-01-02T03:04:05.000000Z", data: { project_id: 1, activity: expect.objectContaining({ scope: "Cohort" }), before: null, after: null } })
  })
})
