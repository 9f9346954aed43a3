import { Clock, Context, type Duration, Effect, type Scope } from "effect"

/**
 * How often what usage keeps in memory is written: the flags' last-called marks and the counts of their
 * calls, each in one statement, none when there is nothing new.
 */
export const FlagUsageInterval = Context.Reference<Duration.Input>("hedgerow/FlagUsageInterval", { defaultValue: () => "5 seconds" })

/**
 * Runs `write` every `interval` while the calling layer lives, and once more when it closes, so what is
 * kept in memory for it is written at the end too. The finalizer is registered before the fiber, so it
 * runs after the fiber is stopped. The interval is wall time: a test that moves a TestClock far ahead
 * must not replay every write in between.
 */
export const writeEvery = (write: Effect.Effect<void>, interval: Duration.Input): Effect.Effect<void, never, Scope.Scope> =>
  Effect.gen(function*() {
    yield* Effect.addFinalizer(() => write)
    yield* write.pipe(
      Effect.delay(interval),
      Effect.forever,
      Effect.provideService(Clock.Clock, Clock.Clock.defaultValue()),
      Effect.forkScoped
    )
  })
