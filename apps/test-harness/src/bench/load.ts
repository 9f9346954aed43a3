import { Data, Effect } from "effect"
import { Worker } from "node:worker_threads"

/**
 * One target under load: its URLs and the request sent on every connection, for a bounded time. With
 * several URLs (one per server process) autocannon deals the connections out over them in turn.
 */
export interface LoadRequest {
  readonly urls: ReadonlyArray<string>
  readonly method: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
  /** Each request gets its own id in place of `[<id>]` in the body (writes that must not collide). */
  readonly idReplacement?: boolean | undefined
  /** The one status every answer should have (a 304 to a conditional GET); any 2xx when absent. */
  readonly expectedStatus?: number | undefined
  /**
   * A mix instead of the one request above: each connection sends these in turn, over and over. Their
   * paths go to the origin of the URL it was dealt; the request above gives what one leaves out.
   */
  readonly requests?: ReadonlyArray<LoadStep> | undefined
  readonly durationSeconds: number
  readonly connections: number
}

/** One request of a mix. */
export interface LoadStep {
  readonly method: string
  readonly path: string
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly body?: string | undefined
}

/** What one load run measured. Latencies are in milliseconds, with sub-millisecond precision. */
export interface LoadFigures {
  /** Completed requests over the measured duration. */
  readonly requestsPerSecond: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly completed: number
  readonly non2xx: number
  /** Connection errors and timeouts (autocannon counts a timeout as an error too). */
  readonly errors: number
  readonly timeouts: number
  readonly statusCodes: Readonly<Record<string, number>>
  /** Responses per origin (`http://host:port`), to show how the load was spread over several servers. */
  readonly completedByOrigin: Readonly<Record<string, number>>
}

export class LoadFailed extends Data.TaggedError("LoadFailed")<{ readonly urls: ReadonlyArray<string>; readonly reason: string }> {
  override get message() {
    return `Load run against ${this.urls.join(", ")} failed: ${this.reason}`
  }
}

/** Requests that did not succeed: any of them makes the figures meaningless. */
export const failures = (figures: LoadFigures) => figures.non2xx + figures.errors

/**
 * Runs autocannon on its own thread. In-process on the main thread it would share the event loop
 * with the server under test and roughly halve what either can do; the worker gets the second core.
 */
export const runLoad = (request: LoadRequest) =>
  Effect.callback<LoadFigures, LoadFailed>((resume) => {
    // Beside this module: load-worker.ts from the sources (vitest), load-worker.js once built (npm run bench).
    const worker = new Worker(new URL(`./load-worker${import.meta.url.endsWith(".ts") ? ".ts" : ".js"}`, import.meta.url), { workerData: request })
    let settled = false
    const settle = (outcome: Effect.Effect<LoadFigures, LoadFailed>) => {
      if (settled) return
      settled = true
      // Resume only once the thread is gone, so that memory read next excludes the load generator.
      void worker.terminate().finally(() => resume(outcome))
    }
    worker.on("message", (message: { readonly figures: LoadFigures } | { readonly error: string }) =>
      settle("figures" in message ? Effect.succeed(message.figures) : Effect.fail(new LoadFailed({ urls: request.urls, reason: message.error }))))
    worker.on("error", (error) => settle(Effect.fail(new LoadFailed({ urls: request.urls, reason: String(error) }))))
    worker.on("exit", (code) => settle(Effect.fail(new LoadFailed({ urls: request.urls, reason: `load worker exited with code ${code}` }))))
    return Effect.asVoid(Effect.promise(() => worker.terminate()))
  })
