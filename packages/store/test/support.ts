import { CoreServices, FlagUsageInterval } from "@hedgerow/core"
import { Freshness } from "@hedgerow/core/ports"
import { Effect, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Store, type StoreOptions } from "../src/index.ts"

/** Waits until the change feed listens, as a server does a moment after it starts. */
export const untilLive = Effect.flatMap(Effect.service(Freshness), (freshness) =>
  Effect.suspend(() => (freshness.live() ? Effect.void : Effect.fail("not yet"))).pipe(
    Effect.retry(Schedule.spaced("10 millis")),
    Effect.timeout("5 seconds"),
    Effect.orDie
  ))

/** A user's current organization and project, as stored. */
export const currentOf = (email: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ current_organization_id: string | null; current_project_id: number | null }>`
      SELECT current_organization_id, current_project_id FROM users WHERE email = ${email}`
    return rows[0]!
  })

/** Retries `check` for up to 5 seconds until it holds: a server's own commits reach its memory through the feed a moment later. */
export const eventually = <E, R>(check: Effect.Effect<boolean, E, R>) =>
  Effect.flatMap(check, (holds) => (holds ? Effect.void : Effect.fail("not yet" as const))).pipe(
    Effect.retry({ schedule: Schedule.spaced("20 millis"), times: 250 }),
    Effect.orDie
  )

/**
 * Hedgerow over a store some of whose repositories `wrapped` replaces (to count their statements), with
 * usage written every `intervalMs`: short, so a test waits a few intervals.
 */
export const hedgerowWrapping = <W, R>(wrapped: Layer.Layer<W, never, R>, intervalMs: number) => (options: StoreOptions) => {
  const store = Store.layer(options)
  return CoreServices.layerNoDeps.pipe(
    Layer.provide(wrapped.pipe(Layer.provide(store))),
    Layer.provideMerge(store),
    Layer.provide(Layer.succeed(FlagUsageInterval, `${intervalMs} millis`))
  )
}
