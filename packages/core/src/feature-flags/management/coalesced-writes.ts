import { Deferred, Effect, Exit, Option, type Scope } from "effect"
import type { FeatureFlagId } from "../../shared/ids.ts"
import type { StoredFlag } from "../model.ts"

/** A request's change of a flag, made of whatever row comes before it. */
export interface FlagStep<C> {
  /** The flag as the request read it. */
  readonly read: StoredFlag
  /** Who changes it: a row names one last modifier, so only one author's changes are written together. */
  readonly author: unknown
  /** The change made of `current`; undefined when it cannot be made here (the caller takes the locked path). */
  readonly change: (current: StoredFlag) => C | undefined
}

/** How changes apply to a row, and how a run of them is written: the writer's part. */
export interface Coalescing<C> {
  /** The row `change` makes of `current`, as the store will hold it but for what the store sets itself. */
  readonly apply: (current: StoredFlag, change: C) => StoredFlag
  /** One statement writing `changes` in their order over `base`, provided the row is still as `base`: the row written, or none. */
  readonly write: (base: StoredFlag, changes: ReadonlyArray<C>) => Effect.Effect<Option.Option<StoredFlag>>
}

/** A request's step, with the answer it waits for. */
interface Waiting<C> {
  readonly step: FlagStep<C>
  readonly answer: Deferred.Deferred<Option.Option<StoredFlag>>
}

/** One flag's changes, while it has some to write. */
interface Flag<C> {
  queue: Array<Waiting<C>>
  /** The changes of the statement being written. */
  writing: ReadonlyArray<Waiting<C>>
  /** The row the last statement wrote. */
  latest: StoredFlag | undefined
}

const newer = (a: StoredFlag | undefined, b: StoredFlag) => (a !== undefined && a.version >= b.version ? a : b)

/**
 * Changes of one flag that arrive together are made in turn in memory, each of the row the one before
 * made, and written in one statement: ten clients renaming a flag at once cost one UPDATE, where one
 * statement each would find the row moved on under all but the first. Each request is answered the row
 * as its own change left it, as if they had run one after another. A step that cannot be made here, or a
 * statement that finds the row changed by someone else, answers none, and its request takes the locked path.
 */
export const coalescedFlagWrites = <C>(coalescing: Coalescing<C>) =>
  Effect.gen(function*() {
    const scope = yield* Effect.scope
    const flags = new Map<FeatureFlagId, Flag<C>>()

    /** The changes of the first author waiting, made in memory and written in one statement. */
    const round = (flag: Flag<C>) =>
      Effect.gen(function*() {
        const author = flag.queue[0]!.step.author
        const cut = flag.queue.findIndex((waiting) => waiting.step.author !== author)
        const group = cut === -1 ? flag.queue : flag.queue.slice(0, cut)
        flag.queue = cut === -1 ? [] : flag.queue.slice(cut)
        flag.writing = group

        const base = group.reduce<StoredFlag | undefined>((row, waiting) => newer(row, waiting.step.read), flag.latest)!
        let current = base
        const changes: Array<C> = []
        const made: Array<[Waiting<C>, StoredFlag]> = []
        for (const waiting of group) {
          const change = waiting.step.change(current)
          if (change === undefined) {
            Deferred.doneUnsafe(waiting.answer, Exit.succeed(Option.none()))
            continue
          }
          changes.push(change)
          current = coalescing.apply(current, change)
          made.push([waiting, current])
        }
        if (changes.length === 0) return

        const exit = yield* Effect.exit(coalescing.write(base, changes))
        const row = Exit.isSuccess(exit) ? exit.value : Option.none<StoredFlag>()
        flag.latest = Option.getOrUndefined(row)
        made.forEach(([waiting, projected], i) => {
          const answer = Option.map(row, (written) =>
            i === made.length - 1 ? written : { ...projected, updated_at: written.updated_at, last_modified_by: written.last_modified_by })
          Deferred.doneUnsafe(waiting.answer, Exit.succeed(answer))
        })
      })

    // Runs while the flag has changes waiting; the map holds only flags being written.
    const run = (id: FeatureFlagId, flag: Flag<C>): Effect.Effect<void> =>
      Effect.suspend(() => {
        if (flag.queue.length > 0) return Effect.flatMap(round(flag), () => run(id, flag))
        flags.delete(id)
        return Effect.void
      })

    // Whoever still waits when the runner stops otherwise (shutdown, a defect) takes the locked path, and
    // the next change of the flag starts a runner of its own. An answer given stays as it is.
    const release = (id: FeatureFlagId, flag: Flag<C>) =>
      Effect.sync(() => {
        for (const waiting of [...flag.writing, ...flag.queue]) Deferred.doneUnsafe(waiting.answer, Exit.succeed(Option.none()))
        flag.queue = []
        if (flags.get(id) === flag) flags.delete(id)
      })

    return (step: FlagStep<C>): Effect.Effect<Option.Option<StoredFlag>> =>
      Effect.suspend(() => {
        const answer = Deferred.makeUnsafe<Option.Option<StoredFlag>>()
        const id = step.read.id
        const flag = flags.get(id)
        if (flag !== undefined) {
          flag.queue.push({ step, answer })
          return Deferred.await(answer)
        }
        const started: Flag<C> = { queue: [{ step, answer }], writing: [], latest: undefined }
        flags.set(id, started)
        return Effect.andThen(
          Effect.forkIn(run(id, started).pipe(Effect.onExit(() => release(id, started))), scope),
          Deferred.await(answer)
        )
      })
  }) satisfies Effect.Effect<unknown, never, Scope.Scope>
