import { assert, describe, it } from "@effect/vitest"
import { Effect } from "effect"
import { FlagMeter, MAX_METERED_FLAGS } from "../src/feature-flags/usage/meter.ts"
import type { FeatureFlagId, ProjectId } from "../src/shared/ids.ts"

const meter = () => Effect.runSync(Effect.service(FlagMeter).pipe(Effect.provide(FlagMeter.layer)))
const project = (id: number) => id as ProjectId
const flag = (id: number) => id as FeatureFlagId

describe("the flag meter", () => {
  it("counts evaluations and reported calls per flag, with the flag's project", () => {
    const counted = meter()
    counted.evaluated(project(1), [flag(1), flag(2)])
    counted.evaluated(project(1), [flag(1)])
    counted.called(project(1), flag(2))
    counted.called(project(2), flag(3))
    const { flags, overflow } = counted.counts()
    assert.deepStrictEqual([...flags], [
      { project: project(1), flag: flag(1), evaluations: 2, calls: 0 },
      { project: project(1), flag: flag(2), evaluations: 1, calls: 1 },
      { project: project(2), flag: flag(3), evaluations: 0, calls: 1 }
    ])
    assert.deepStrictEqual(overflow, { evaluations: 0, calls: 0 })
  })

  it("counts flags first seen past its bound together, so its series stay bounded; flags counted before go on alone", () => {
    const counted = meter()
    for (let id = 1; id <= MAX_METERED_FLAGS; id++) counted.evaluated(project(1), [flag(id)])
    counted.evaluated(project(2), [flag(MAX_METERED_FLAGS + 1), flag(MAX_METERED_FLAGS + 2), flag(1)])
    counted.called(project(2), flag(MAX_METERED_FLAGS + 1))
    const { flags, overflow } = counted.counts()
    const all = [...flags]
    assert.strictEqual(all.length, MAX_METERED_FLAGS)
    assert.deepStrictEqual(all[0], { project: project(1), flag: flag(1), evaluations: 2, calls: 0 })
    assert.deepStrictEqual(overflow, { evaluations: 2, calls: 1 })
  })
})
