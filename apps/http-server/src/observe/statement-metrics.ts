import { Effect, type Exit } from "effect"
import type { Statement } from "effect/sql"
import { LatencyHistogram } from "./histogram.ts"
import { family, sample } from "./prometheus-text.ts"

const DURATION = "hedgerow_db_statement_duration_seconds"
const IN_FLIGHT = "hedgerow_db_statements_in_flight"

/**
 * Every SQL statement the store runs, timed from the moment it is issued (waiting for a connection
 * included) to its last row, and the number running now. Effect's sql client calls a transformer as a
 * statement starts, with the statement's span, and ends that span when the statement is done; it has no
 * other hook after a statement, so the end of that span (never the span's own data) is where a statement
 * is counted done.
 */
export class StatementMetrics {
  readonly #latency = new LatencyHistogram()
  #inFlight = 0

  readonly transformer: Statement.Transformer = (statement, _sql, _fiber, span) => {
    const started = performance.now()
    this.#inFlight++
    const end = span.end
    span.end = (endTime: bigint, exit: Exit.Exit<unknown, unknown>) => {
      span.end = end
      this.#inFlight--
      this.#latency.observe((performance.now() - started) / 1000)
      end.call(span, endTime, exit)
    }
    return Effect.succeed(statement)
  }

  render(): string {
    return family(DURATION, "histogram", "SQL statements, from being issued (waiting for a connection included) to their answer.") +
      this.#latency.render(DURATION, []) +
      family(IN_FLIGHT, "gauge", "SQL statements issued and not yet answered (each holds or waits for a connection).") +
      sample(IN_FLIGHT, [], this.#inFlight)
  }
}

