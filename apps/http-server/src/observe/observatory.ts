import type { FlagEvaluationService, FlagMeter } from "@hedgerow/core"
import type { ChangeFeedStatus, Listener } from "@hedgerow/store"
import { Context } from "effect"
import type { SqlClient } from "effect/sql"
import { Readiness } from "./readiness.ts"
import { RequestMetrics } from "./request-metrics.ts"
import { StatementMetrics } from "./statement-metrics.ts"

/** The services a scrape reads beyond the observatory; absent until the store is open. */
export type ScrapeServices = Context.Context<FlagMeter | FlagEvaluationService | ChangeFeedStatus | Listener | SqlClient.SqlClient>

/**
 * What a server instance observes of itself: the requests it answered and whether it is ready. Made
 * before the store is opened, so that the metrics listener can answer while the store migrates.
 */
export class Observatory extends Context.Service<Observatory, {
  /** Counted only when something reads them: a server with a metrics listener. */
  readonly requests: RequestMetrics | undefined
  /** Timed, like the requests, only for a server with a metrics listener. */
  readonly statements: StatementMetrics | undefined
  readonly readiness: Readiness
  /** The store's and core's services a scrape reads, set once the store is open. */
  readonly scrapeServices: { current: ScrapeServices | undefined }
}>()("hedgerow/http-server/Observatory") {
  static readonly make = (counting: boolean) =>
    Observatory.of({
      requests: counting ? new RequestMetrics() : undefined,
      statements: counting ? new StatementMetrics() : undefined,
      readiness: new Readiness(),
      scrapeServices: { current: undefined }
    })
}
