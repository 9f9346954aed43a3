import { Effect } from "effect"
import { assert, describe, it } from "vitest"
import { failedRequests, runBench } from "../src/bench/run-bench.ts"
import { parseInvocation } from "../src/bench/options.ts"
import { formatBench } from "../src/bench/table.ts"

describe("benchmark driver", () => {
  // A one-second run proves the whole path (server, probe, worker, baseline) without being a benchmark.
  it("measures Hedgerow and the baseline with no failed request", async () => {
    const figures = await Effect.runPromise(runBench({ durationSeconds: 1, connections: 2, warmupSeconds: 0 }))
    assert.strictEqual(figures.scenarios.length, 1)
    const [scenario] = figures.scenarios
    assert.isAbove(scenario!.responseBytes, 0)
    for (const target of [scenario!.hedgerow, scenario!.baseline]) {
      assert.isAbove(target.requestsPerSecond, 0)
      assert.isAbove(target.p50Ms, 0)
      assert.isAtLeast(target.p99Ms, target.p50Ms)
      assert.strictEqual(target.errors, 0)
      assert.strictEqual(target.non2xx, 0)
    }
    assert.isAbove(scenario!.memoryAfterHedgerow.rssBytes, 0)
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
