import { Cause, Context, Effect, Layer, Semaphore } from "effect"
import type { FeatureFlagId } from "../../shared/ids.ts"
import { type FlagCallCount, type FlagCallIncrement, FlagCallRepository } from "./calls-repository.ts"
import { FlagUsageInterval, writeEvery } from "./periodic-write.ts"

/**
 * Counts not yet written, at most: past it, a (flag, day, value) not yet counted waits for the next
 * write, so a flood of events, or a store that refuses every write, cannot grow the heap.
 */
const MAX_UNWRITTEN = 100_000

/** A flag's count of one day and value, as memory keeps it until it is written. */
interface Pending {
  readonly flag: FeatureFlagId
  readonly day: string
  readonly value: string
  count: number
}

const keyOf = (flag: FeatureFlagId, day: string, value: string) => `${flag}\u0000${day}\u0000${value}`

/**
 * The SDKs' reports of flag calls (`$feature_flag_called`), counted per flag, UTC day and value returned.
 * A call is counted in memory; a fiber of this layer adds the counts to the store every
 * FlagUsageInterval in one statement, and once more when the layer closes. A failed write is logged and
 * its counts wait for the next one. A read adds what this process has not written yet to what is stored;
 * reads and writes take turns, so a read never meets a batch on its way to the store, counted twice or
 * not at all.
 */
export class FlagCalls extends Context.Service<FlagCalls, {
  /** One call of `flag` that returned `value`, on `day` (see `utcDayOf`): nothing is written now. */
  readonly count: (flag: FeatureFlagId, day: string, value: string) => void
  /** The flag's counts on the days from `from` to `to`, both included. */
  readonly read: (flag: FeatureFlagId, from: string, to: string) => Effect.Effect<ReadonlyArray<FlagCallCount>>
}>()("hedgerow/FlagCalls") {
  static readonly layerNoDeps = Layer.effect(
    FlagCalls,
    Effect.gen(function*() {
      const repository = yield* FlagCallRepository
      const interval = yield* FlagUsageInterval
      let unwritten = new Map<string, Pending>()
      let refused = 0
      const turn = yield* Semaphore.make(1)

      const add = (pending: Map<string, Pending>, flag: FeatureFlagId, day: string, value: string, count: number) => {
        const key = keyOf(flag, day, value)
        const known = pending.get(key)
        if (known !== undefined) known.count += count
        else if (pending.size < MAX_UNWRITTEN) pending.set(key, { flag, day, value, count })
        else refused += count
      }

      const count = (flag: FeatureFlagId, day: string, value: string) => add(unwritten, flag, day, value, 1)

      const read = (flag: FeatureFlagId, from: string, to: string) =>
        turn.withPermit(Effect.map(repository.read(flag, from, to), (stored) => {
          const totals = new Map(stored.map((row) => [`${row.day}\u0000${row.value}`, { ...row }]))
          for (const pending of unwritten.values()) {
            if (pending.flag !== flag || pending.day < from || pending.day > to) continue
            const key = `${pending.day}\u0000${pending.value}`
            const total = totals.get(key)
            if (total === undefined) totals.set(key, { day: pending.day, value: pending.value, count: pending.count })
            else totals.set(key, { ...total, count: total.count + pending.count })
          }
          return [...totals.values()]
        }))

      /** Adds the counts made since the last write; uninterruptible, so a closing layer never loses a batch half-way. */
      const flush = Effect.uninterruptible(turn.withPermit(Effect.suspend(() => {
        const dropped = refused
        refused = 0
        const warnDropped = dropped === 0
          ? Effect.void
          : Effect.logWarning(`${dropped} flag calls not counted: ${MAX_UNWRITTEN} counts were waiting to be written`)
        if (unwritten.size === 0) return warnDropped
        const batch = unwritten
        unwritten = new Map()
        const increments: ReadonlyArray<FlagCallIncrement> = [...batch.values()]
        return Effect.andThen(
          warnDropped,
          repository.add(increments).pipe(Effect.catchCause((cause) =>
            Effect.suspend(() => {
              for (const pending of increments) add(unwritten, pending.flag, pending.day, pending.value, pending.count)
              return Effect.logWarning(`flag calls not written (${increments.length} counts); they are kept for the next write`, Cause.squash(cause))
            })
          ))
        )
      })))

      yield* writeEvery(flush, interval)

      return FlagCalls.of({ count, read })
    })
  )
}
