import { Freshness } from "@hedgerow/core/ports"
import { Effect, Layer, Schedule } from "effect"
import { Listener } from "./listener.ts"

/** The channel the database's triggers notify with the name of each table a committed statement wrote. */
export const CHANGES_CHANNEL = "hedgerow_changes"

/** How soon a lost feed listens again: quickly at first, then every 2 seconds for as long as it takes. */
const RELISTEN = Schedule.min([Schedule.exponential("50 millis"), Schedule.spaced("2 seconds")])

/**
 * Drives the read model's freshness from the database's change notifications, for as long as the layer
 * lives. Memory is served only while the feed listens: when the listening connection is lost, nothing
 * is served from memory until it listens again, and then everything is read afresh, so a notification
 * missed meanwhile can never leave a revoked grant in memory.
 */
export const layerNoDeps = Layer.effectDiscard(Effect.gen(function*() {
  const listener = yield* Listener
  const freshness = yield* Freshness
  const listen = Effect.scoped(Effect.gen(function*() {
    const listening = yield* listener.listen(CHANGES_CHANNEL, (table) => freshness.changed([table]))
    freshness.resumed()
    return yield* listening
  }))
  yield* listen.pipe(
    Effect.onExit(() => Effect.sync(freshness.lost)),
    Effect.tapError((error) => Effect.logWarning("The change feed stopped listening; serving from the database until it listens again", error)),
    Effect.retry(RELISTEN),
    Effect.forkScoped
  )
}))
