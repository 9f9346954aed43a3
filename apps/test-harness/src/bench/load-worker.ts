// The load generator's thread. Kept to erasable TypeScript with type-only imports of the harness, so
// that Node can run it from the sources with plain type stripping (vitest) as well as built (npm run bench).
import autocannon from "autocannon"
import { parentPort, workerData } from "node:worker_threads"
import type { LoadFigures, LoadRequest } from "./load.ts"

const request = workerData as LoadRequest

// autocannon's own latency histogram has whole-millisecond buckets, which reads 0 ms for most
// loopback requests; the per-response timings it emits are sub-millisecond, so keep those.
const latencies: Array<number> = []
// Responses per server. One autocannon instance over all the URLs keeps one clock and one set of
// latencies, so the rate and the percentiles cover the servers together with nothing to merge.
const completedByOrigin = new Map<string, number>()

const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!

const instance = autocannon({
  // An array even for one URL: autocannon turns a string into a one-element list anyway.
  url: [...request.urls],
  method: request.method,
  headers: request.headers,
  ...(request.body === undefined ? {} : { body: request.body }),
  ...(request.idReplacement === true ? { idReplacement: true } : {}),
  ...(request.requests === undefined ? {} : { requests: request.requests }),
  duration: request.durationSeconds,
  connections: request.connections,
  // A run ends at the first sample after its duration: every 100 ms rather than every second, so that a
  // 0.3 s test run lasts 0.3 s. The rate divides by the real elapsed time either way.
  sampleInt: 100
})

// The client's options hold the origin autocannon derived from the URL it was dealt.
instance.on("response", (client: { readonly opts: { readonly origin: string } }, _status: number, _bytes: number, responseTimeMs: number) => {
  latencies.push(responseTimeMs)
  completedByOrigin.set(client.opts.origin, (completedByOrigin.get(client.opts.origin) ?? 0) + 1)
})

instance.then(
  (result) => {
    const sorted = Float64Array.from(latencies).sort()
    const figures: LoadFigures = {
      // Off the main thread autocannon skips its aggregation (requests.average included), so derive
      // the mean rate from the raw counters.
      requestsPerSecond: result.duration > 0 ? result.totalCompletedRequests / result.duration : 0,
      p50Ms: percentile(sorted, 50),
      p99Ms: percentile(sorted, 99),
      completed: result.totalCompletedRequests,
      non2xx: request.expectedStatus === undefined
        ? result.non2xx
        : result.totalCompletedRequests - (result.statusCodeStats[String(request.expectedStatus)]?.count ?? 0),
      errors: result.errors,
      timeouts: result.timeouts,
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
      completedByOrigin: Object.fromEntries(completedByOrigin)
    }
    parentPort!.postMessage({ figures })
  },
  (error: unknown) => parentPort!.postMessage({ error: String(error) })
)
