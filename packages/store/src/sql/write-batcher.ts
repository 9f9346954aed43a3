import { Deferred, Effect, Exit, Queue, type Scope } from "effect"

/** A kind of write that several requests can make together in one statement. */
export interface WriteBatch<I, O> {
  /** The most items one statement takes. */
  readonly maxItems: number
  /** Items of the same key never share a statement (an UPDATE ... FROM changes a row once). */
  readonly keyOf?: (item: I) => unknown
  /** One statement for all `items`, answering each in their order. */
  readonly write: (items: ReadonlyArray<I>) => Effect.Effect<ReadonlyArray<O>>
}

interface Waiting<I, O> {
  readonly item: I
  readonly answer: Deferred.Deferred<O>
}

/**
 * Writes asked for while the database is busy go out together, in one statement, as soon as it is free.
 * Most of a small write's cost on the embedded store is the statement's own (parse, plan, executor,
 * commit), which items that share a statement pay once (figures in docs/decisions.md, "The store").
 * A write never waits for company: with nothing else queued it goes at once, alone. A statement that
 * fails is tried again item by item, so that one bad item fails no other.
 */
export const writeBatcher = <I, O>(batch: WriteBatch<I, O>): Effect.Effect<(item: I) => Effect.Effect<O>, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<Waiting<I, O>>()
    // Those a full statement or a key already in it left for the next one, ahead of the queue.
    let carried: Array<Waiting<I, O>> = []

    const settle = (group: ReadonlyArray<Waiting<I, O>>): Effect.Effect<void> =>
      batch.write(group.map((waiting) => waiting.item)).pipe(
        Effect.flatMap((answers) =>
          Effect.sync(() => group.forEach((waiting, i) => Deferred.doneUnsafe(waiting.answer, Exit.succeed(answers[i]!))))),
        Effect.catchDefect((defect) =>
          group.length === 1
            ? Deferred.die(group[0]!.answer, defect)
            : Effect.forEach(group, (waiting) => settle([waiting]), { discard: true }))
      )

    const round = Effect.gen(function*() {
      const waiting = carried.length === 0 ? yield* Queue.takeAll(queue) : [...carried, ...yield* Queue.clear(queue)]
      const group: Array<Waiting<I, O>> = []
      const keys = new Set<unknown>()
      carried = []
      for (const next of waiting) {
        const key = batch.keyOf?.(next.item)
        if (group.length >= batch.maxItems || (key !== undefined && keys.has(key))) {
          carried.push(next)
        } else {
          group.push(next)
          if (key !== undefined) keys.add(key)
        }
      }
      yield* settle(group)
    })

    // At shutdown, whoever still waits is interrupted rather than left hanging.
    const abandon = Effect.suspend(() => {
      const left = carried
      carried = []
      return Effect.flatMap(Queue.clear(queue), (queued) =>
        Effect.forEach([...left, ...queued], (waiting) => Deferred.interrupt(waiting.answer), { discard: true }))
    })
    yield* Effect.forkScoped(Effect.forever(round).pipe(Effect.onInterrupt(() => abandon)))

    return (item: I) =>
      Effect.flatMap(Deferred.make<O>(), (answer) =>
        Effect.andThen(Queue.offer(queue, { item, answer }), Deferred.await(answer)))
  })
