import { sample } from "./prometheus-text.ts"

/**
 * Upper bounds, in seconds, of the latency buckets every duration histogram uses: from a millisecond,
 * where the fastest answers are, to ten seconds, past the longest a request may take to arrive.
 */
export const LATENCY_BUCKETS: ReadonlyArray<number> = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]
const BUCKET_LABELS = [...LATENCY_BUCKETS.map(String), "+Inf"]

/**
 * A latency histogram whose buckets are counted as observations come (each in the first bucket it fits,
 * an array increment) and made cumulative only when rendered.
 */
export class LatencyHistogram {
  readonly #counts = new Float64Array(LATENCY_BUCKETS.length + 1)
  #sum = 0
  #count = 0

  observe(seconds: number): void {
    let i = 0
    while (i < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[i]!) i++
    this.#counts[i]!++
    this.#sum += seconds
    this.#count++
  }

  get count(): number {
    return this.#count
  }

  /** The `_bucket`, `_sum` and `_count` lines of the series named by `pairs`. */
  render(name: string, pairs: ReadonlyArray<readonly [string, string]>): string {
    let text = ""
    let cumulative = 0
    for (let i = 0; i < this.#counts.length; i++) {
      cumulative += this.#counts[i]!
      text += sample(`${name}_bucket`, [...pairs, ["le", BUCKET_LABELS[i]!]], cumulative)
    }
    return text + sample(`${name}_sum`, pairs, this.#sum) + sample(`${name}_count`, pairs, this.#count)
  }
}
