import type { PGlite } from "@electric-sql/pglite"
import type { PgClient } from "@effect/sql-pg"
import { Context, Effect, Queue, type Scope } from "effect"
import { SqlError } from "effect/sql"

/**
 * LISTEN on a channel of the store's database, handing each payload to `onPayload` as it arrives.
 * `listen` returns once the database has confirmed it, with an effect that runs until the listening
 * connection is lost, and then fails.
 */
export class Listener extends Context.Service<Listener, {
  /**
   * Whether a notification reaches `onPayload` before the committing statement returns to its caller, so
   * that a writer's own process has heard of the commit by the time the writer goes on.
   */
  readonly deliversAtCommit: boolean
  readonly listen: (
    channel: string,
    onPayload: (payload: string) => void
  ) => Effect.Effect<Effect.Effect<never, SqlError.SqlError>, SqlError.SqlError, Scope.Scope>
}>()("hedgerow/store/Listener") {}

/**
 * PGlite is one in-process session: it delivers a notification before the committing query returns, so
 * `onPayload` has run by the time the writer goes on. Its connection cannot be lost while it is open.
 */
export const pgliteListener = (db: PGlite): Listener["Service"] => ({
  deliversAtCommit: true,
  listen: (channel, onPayload) =>
    Effect.as(
      Effect.acquireRelease(
        Effect.tryPromise({
          try: () => db.listen(channel, onPayload),
          catch: (cause) =>
            new SqlError.SqlError({ reason: new SqlError.ConnectionError({ cause, message: String(cause), operation: "listen" }) })
        }),
        (unlisten) => Effect.ignore(Effect.tryPromise(() => unlisten()))
      ),
      Effect.never
    )
})

/** A PostgreSQL server: one pooled connection held for LISTEN; losing it ends the wait with its error. */
export const postgresListener = (client: PgClient.PgClient): Listener["Service"] => ({
  deliversAtCommit: false,
  listen: (channel, onPayload) =>
    Effect.map(client.listen(channel), (queue) =>
      Effect.forever(Effect.map(Queue.take(queue), (notification) => onPayload(notification.payload))))
})
