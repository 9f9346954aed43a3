// autocannon ships no types and @types/autocannon trails it by two majors, so this declares only
// the part of autocannon 9 the load worker uses.
declare module "autocannon" {
  import type { EventEmitter } from "node:events"

  namespace autocannon {
    interface Options {
      /** Several URLs: connection i goes to URL i modulo their number. */
      readonly url: string | ReadonlyArray<string>
      readonly method?: string
      readonly headers?: Readonly<Record<string, string>>
      readonly body?: string
      /** Replaces `[<id>]` in the body with a fresh unique id (letters, digits, `-`, `_`) on every request. */
      readonly idReplacement?: boolean
      /** Requests each connection sends in turn instead of one; a field left out is taken from the options above. */
      readonly requests?: ReadonlyArray<Request>
      /** Seconds. */
      readonly duration?: number
      readonly connections?: number
      /** Milliseconds between samples; a run stops at the first sample after its duration (default 1000). */
      readonly sampleInt?: number
      /** Seconds before a request counts as timed out (and as an error). */
      readonly timeout?: number
    }

    interface Request {
      readonly method?: string | undefined
      /** Replaces the URL's path and query. */
      readonly path?: string | undefined
      /** Merged over the options' headers. */
      readonly headers?: Readonly<Record<string, string>> | undefined
      readonly body?: string | undefined
    }

    /**
     * The result as autocannon resolves it on a thread other than the main one: raw counters, not
     * the aggregated histograms it returns on the main thread.
     */
    interface RawResult {
      readonly totalCompletedRequests: number
      /** Seconds from start to the last sample, rounded to 10 ms. */
      readonly duration: number
      readonly errors: number
      readonly timeouts: number
      readonly non2xx: number
      readonly statusCodeStats: Readonly<Record<string, { readonly count: number }>>
    }

    interface Instance extends EventEmitter, PromiseLike<RawResult> {
      stop(): void
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance

  export = autocannon
}
