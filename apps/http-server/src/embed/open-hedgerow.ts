import type { Bootstrapped } from "@hedgerow/core"
import { Effect, ManagedRuntime, Option } from "effect"
import { type EmbeddedFlags, type EmbeddedProject, type EmbedOptions, Embedding, layer } from "./embedding.ts"
import type { NodeListener } from "./mount.ts"

/** Hedgerow opened inside a Node application (see `openHedgerow`). */
export interface EmbeddedHedgerow {
  /**
   * The HTTP API for the application's `node:http` server (or connect/Express `app.use(handler)`): a
   * request below `basePath` is served with the base path taken off; any other goes to `next`, or is
   * answered 404 when there is none.
   */
  readonly handler: NodeListener
  /** The project's flags evaluated in this process, with no HTTP hop, as posthog-node answers. */
  readonly flags: EmbeddedFlags
  /** The project `flags` reads. */
  readonly project: EmbeddedProject
  /** What bootstrapping an empty store made at this opening (its key is shown only here); undefined otherwise. */
  readonly bootstrapped: Bootstrapped | undefined
  /**
   * Ends requests still in progress and closes the store (and its data directory's lock). Close the
   * application's server first, so that its requests finish; requests reaching `handler` afterwards are
   * answered 503, and `flags` rejects.
   */
  readonly close: () => Promise<void>
}

/**
 * Opens the store, bootstraps it when empty (unless told not to), and returns the API as a request
 * listener mounted under `options.basePath` and the chosen project's flags, read in-process. Writes made
 * through the API are seen by the next read of `flags`. Rejects when the store cannot be opened (a data
 * directory another process holds, an unreachable database) or names no such project.
 */
export const openHedgerow = async (options: EmbedOptions): Promise<EmbeddedHedgerow> => {
  const runtime = ManagedRuntime.make(layer(options))
  const embedding = await runtime.runPromise(Effect.service(Embedding)).catch(async (error: unknown) => {
    await runtime.dispose()
    throw error
  })
  let closing: Promise<void> | undefined
  const run = <A>(effect: Effect.Effect<A>): Promise<A> =>
    closing === undefined ? runtime.runPromise(effect) : Promise.reject(new Error("Hedgerow is closed"))
  const { flags } = embedding
  return {
    handler: embedding.handler,
    flags: {
      isEnabled: (key, distinctId, options) => run(flags.isEnabled(key, distinctId, options)),
      getVariant: (key, distinctId, options) => run(flags.getVariant(key, distinctId, options)),
      getPayload: (key, distinctId, options) => run(flags.getPayload(key, distinctId, options)),
      getAll: (distinctId, options) => run(flags.getAll(distinctId, options))
    },
    project: embedding.project,
    bootstrapped: Option.getOrUndefined(embedding.bootstrapped),
    close: () => (closing ??= runtime.dispose())
  }
}
