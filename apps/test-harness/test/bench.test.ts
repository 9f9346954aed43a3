import { Effect } from "effect"
import { assert, describe, it } from "vitest"
import { flagScenarios } from "../src/bench/flag-scenarios.ts"
import { failedRequests, runBench } from "../src/bench/run-bench.ts"
import { parseInvocation } from "../src/bench/options.ts"
import { getProject } from "../src/bench/scenarios.ts"
import { formatBench } from "../src/bench/table.ts"

describe("benchmark driver", () => {
  // A fraction of a second per target proves the whole path (seeding, server, probe, worker, baseline) for every
  // scenario without being a benchmark; the flag search runs over a small seed instead of 10,000.
  it("measures Hedgerow and the baseline with no failed request", async () => {
    const scenarios = [getProject, ...flagScenarios({ seedFlags: 400 })]
    const figures = await Effect.runPromise(runBench({ durationSeconds: 0.3, connections: 2, warmupSeconds: 0, scenarios }))
    assert.deepStrictEqual(figures.scenarios.map((s) => s.name), scenarios.map((s) => s.name))
    for (const scenario of figures.scenarios) {
      assert.isAbove(scenario.responseBytes, 0)
      for (const target of [scenario.hedgerow, scenario.baseline]) {
        assert.isAbove(target.requestsPerSecond, 0, scenario.name)
        assert.isAbove(target.p50Ms, 0)
        assert.isAtLeast(target.p99Ms, target.p50Ms)
        assert.strictEqual(target.errors, 0)
        assert.strictEqual(target.non2xx, 0, scenario.name)
      }
      assert.isAbove(scenario.memoryAfterHedgerow.rssBytes, 0)
    }
    // The search finds seeded flags (two in 400), not an empty page.
    assert.isAbove(figures.scenarios[1]!.responseBytes, 1000)
    assert.strictEqual(failedRequests(figures), 0)
    assert.include(formatBench(figures), "hedgerow/baseline")
  })

  it("refuses --database-url rather than benchmarking the in-memory store", () => {
    assert.strictEqual(parseInvocation(["--database-url", "postgres://localhost/hedgerow"])._tag, "unsupported")
  })

  it("rejects malformed flags", () => {
    assert.strictEqual(parseInvocation(["--connections", "0"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--duration", "soon"])._tag, "invalid")
    assert.strictEqual(parseInvocation(["--bogus"])._tag, "invalid")
  })
})
