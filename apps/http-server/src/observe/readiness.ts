/**
 * Whether the server should be sent traffic. A process is not ready while it opens and migrates its
 * store, while its change feed does not listen (memory could not follow other processes' writes, so
 * every read goes to the database until it listens again), and once it has begun to stop.
 */
export type ReadinessStatus = "ready" | "starting" | "change_feed_not_listening" | "draining"

export class Readiness {
  #phase: "starting" | "serving" | "draining" = "starting"
  #listening: (() => boolean) | undefined

  /** The store is open and migrated, the server listens: ready whenever `listening` says the feed listens. */
  serving(listening: () => boolean): void {
    this.#listening = listening
    if (this.#phase === "starting") this.#phase = "serving"
  }

  /** The server stops taking requests and lets those in flight finish. */
  draining(): void {
    this.#phase = "draining"
  }

  status(): ReadinessStatus {
    if (this.#phase !== "serving") return this.#phase
    return this.#listening === undefined || this.#listening() ? "ready" : "change_feed_not_listening"
  }
}
