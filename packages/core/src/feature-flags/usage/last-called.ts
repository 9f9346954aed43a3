import { Cause, Context, Effect, Layer, Option } from "effect"
import { Freshness } from "../../read-model/freshness.ts"
import { memoized } from "../../read-model/memoized.ts"
import { READS } from "../../read-model/watched.ts"
import type { FeatureFlagId, ProjectId } from "../../shared/ids.ts"
import { millisOf, type Timestamp, timestampFromDate } from "../../shared/time.ts"
import { FlagUsageRepository } from "./last-called-repository.ts"
import { FlagUsageInterval, writeEvery } from "./periodic-write.ts"

/**
 * Flags marked and not yet written, at most: past it, a flag not yet marked waits for an evaluation after
 * the next write, so a store that refuses every write cannot grow the heap.
 */
const MAX_UNWRITTEN = 100_000

/** Projects whose stored marks are kept in memory at once. */
const MAX_PROJECTS = 64

const NONE_STORED: ReadonlyMap<FeatureFlagId, Timestamp> = new Map()

/** One evaluation's time, shared by every flag it marks, so that marking a flag allocates nothing. */
interface Mark {
  readonly at: number
}

/** Keeps the later of the flag's mark in `marks` and `mark`. */
const laterOf = (marks: Map<FeatureFlagId, Mark>, id: FeatureFlagId, mark: Mark) => {
  const known = marks.get(id)
  if (known === undefined || known.at < mark.at) marks.set(id, mark)
}

/**
 * When flags were last evaluated (`last_called_at`). An evaluation marks its flags in memory; a fiber
 * of this layer writes the marks every FlagUsageInterval in one statement, and once more when the layer
 * closes. A failed write is logged and its marks wait for the next one. A flag shows the later of its
 * stored mark and this process's own, so a read right after an evaluation shows it before it is written;
 * other processes see it once it is written.
 */
export class FlagUsage extends Context.Service<FlagUsage, {
  /** The flags `ids` were evaluated at `at` (epoch milliseconds): nothing is written now. */
  readonly record: (at: number, ids: ReadonlyArray<FeatureFlagId>) => void
  /** When each flag of the project was last called, as far as this process knows, or null if never. */
  readonly lastCalled: (project: ProjectId) => Effect.Effect<(id: FeatureFlagId) => Timestamp | null>
}>()("hedgerow/FlagUsage") {
  static readonly layerNoDeps = Layer.effect(
    FlagUsage,
    Effect.gen(function*() {
      const repository = yield* FlagUsageRepository
      const freshness = yield* Freshness
      const interval = yield* FlagUsageInterval

      let unwritten = new Map<FeatureFlagId, Mark>()
      /** The marks of the write under way: shown meanwhile, since the store may not hold them yet. */
      let writing: ReadonlyMap<FeatureFlagId, Mark> = new Map()
      /**
       * The marks last written, shown until the change feed tells memory of a write (theirs, or a later
       * one): on a server the writer hears its own notification a moment after its statement returns.
       */
      let written = new Map<FeatureFlagId, Mark>()
      let writtenUnder = -1

      const stored = memoized(
        freshness,
        (project: ProjectId) =>
          Effect.map(repository.called(project), (rows) =>
            Option.some<ReadonlyMap<FeatureFlagId, Timestamp>>(new Map(rows.map((row) => [row.id, row.last_called_at])))),
        { name: "flag_last_called", reads: READS.flagUsage, maxEntries: MAX_PROJECTS }
      )

      const record = (at: number, ids: ReadonlyArray<FeatureFlagId>) => {
        if (ids.length === 0) return
        const mark: Mark = { at }
        for (const id of ids) {
          if (unwritten.size < MAX_UNWRITTEN || unwritten.has(id)) unwritten.set(id, mark)
        }
      }

      const lastCalled = (project: ProjectId) =>
        Effect.map(stored(project), (found) => {
          const marks = Option.getOrElse(found, () => NONE_STORED)
          const showWritten = writtenUnder === freshness.version(READS.flagUsage)
          return (id: FeatureFlagId): Timestamp | null => {
            const kept = marks.get(id) ?? null
            const own = Math.max(
              unwritten.get(id)?.at ?? -Infinity,
              writing.get(id)?.at ?? -Infinity,
              showWritten ? written.get(id)?.at ?? -Infinity : -Infinity
            )
            return own === -Infinity || (kept !== null && millisOf(kept) >= own) ? kept : timestampFromDate(new Date(own))
          }
        })

      /** Writes the marks made since the last write; uninterruptible, so a closing layer never loses a batch half-way. */
      const flush = Effect.uninterruptible(Effect.suspend(() => {
        if (unwritten.size === 0) return Effect.void
        const batch = unwritten
        unwritten = new Map()
        writing = batch
        const ids: Array<FeatureFlagId> = []
        const at: Array<Timestamp> = []
        // Flags of one evaluation share its mark, so each mark is made text once.
        const texts = new Map<Mark, Timestamp>()
        for (const [id, mark] of batch) {
          let text = texts.get(mark)
          if (text === undefined) {
            text = timestampFromDate(new Date(mark.at))
            texts.set(mark, text)
          }
          ids.push(id)
          at.push(text)
        }
        return repository.write(ids, at).pipe(
          Effect.matchCauseEffect({
            onSuccess: () =>
              Effect.sync(() => {
                writing = new Map()
                const version = freshness.version(READS.flagUsage)
                if (version !== writtenUnder) written = new Map()
                for (const [id, mark] of batch) laterOf(written, id, mark)
                writtenUnder = version
              }),
            onFailure: (cause) =>
              Effect.suspend(() => {
                writing = new Map()
                for (const [id, mark] of batch) {
                  if (unwritten.size < MAX_UNWRITTEN || unwritten.has(id)) laterOf(unwritten, id, mark)
                }
                return Effect.logWarning(`last_called_at not written (${batch.size} flags); the marks are kept for the next write`, Cause.squash(cause))
              })
          })
        )
      }))

      yield* writeEvery(flush, interval)

      return FlagUsage.of({ record, lastCalled })
    })
  )
}
