import { Effect } from "effect"
import { flagMetrics } from "./flag-metrics.ts"
import type { Observatory } from "./observatory.ts"
import { family, sample } from "./prometheus-text.ts"
import type { processMetrics } from "./process-metrics.ts"
import { storeMetrics } from "./store-metrics.ts"

/**
 * The whole exposition: readiness, the process, the requests and the statements always; the store's
 * and the flags' series once the store is open.
 */
export const scrape = (
  observatory: Observatory["Service"],
  processSeries: ReturnType<typeof processMetrics>
): Promise<string> => {
  const services = observatory.scrapeServices.current
  const status = observatory.readiness.status()
  const head = family("hedgerow_ready", "gauge", "1 while the server is ready for traffic; the status label says why not.") +
    sample("hedgerow_ready", [["status", status]], status === "ready" ? 1 : 0) +
    processSeries.render() +
    (observatory.requests?.render() ?? "") +
    (observatory.statements?.render() ?? "")
  if (services === undefined) return Promise.resolve(head)
  return Effect.runPromise(
    Effect.map(Effect.all([storeMetrics, flagMetrics]), ([store, flags]) => head + store + flags).pipe(Effect.provideContext(services))
  )
}
