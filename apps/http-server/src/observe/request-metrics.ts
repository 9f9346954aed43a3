import { LatencyHistogram } from "./histogram.ts"
import { family } from "./prometheus-text.ts"

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "OTHER"] as const

/** A method's place in METHODS; one Node does not know is counted as OTHER. */
const methodIndex = (method: string): number => {
  switch (method) {
    case "GET":
      return 0
    case "HEAD":
      return 1
    case "POST":
      return 2
    case "PUT":
      return 3
    case "PATCH":
      return 4
    case "DELETE":
      return 5
    case "OPTIONS":
      return 6
    default:
      return 7
  }
}

const REQUESTS = "hedgerow_http_request_duration_seconds"

/**
 * The requests the server answered, by route template, method and status, each a latency histogram.
 * Templates are the routes' own strings and `<unmatched>`, so their number is bounded by the routes; a
 * request costs two map lookups keyed by those strings and a number, and a few array increments.
 */
export class RequestMetrics {
  readonly #byTemplate = new Map<string, Map<number, LatencyHistogram>>()

  record(method: string, template: string, status: number, durationMs: number): void {
    let byKey = this.#byTemplate.get(template)
    if (byKey === undefined) {
      byKey = new Map()
      this.#byTemplate.set(template, byKey)
    }
    const key = methodIndex(method) * 1000 + status
    let histogram = byKey.get(key)
    if (histogram === undefined) {
      histogram = new LatencyHistogram()
      byKey.set(key, histogram)
    }
    histogram.observe(durationMs / 1000)
  }

  render(): string {
    const help = "Requests answered, by route template, method and status: time from the request's arrival to its answer."
    let text = family(REQUESTS, "histogram", help)
    for (const [template, byKey] of this.#byTemplate) {
      for (const [key, histogram] of byKey) {
        const method = METHODS[Math.floor(key / 1000)]!
        text += histogram.render(REQUESTS, [["route", template], ["method", method], ["status", String(key % 1000)]])
      }
    }
    return text
  }
}
