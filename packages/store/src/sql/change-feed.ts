import { Freshness } from "@hedgerow/core/ports"
import { Context, Data, Deferred, Effect, Exit, Layer, Option, Schedule, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { Listener } from "./listener.ts"

/** The channel the database's triggers notify with the name of each table a committed statement wrote. */
export const CHANGES_CHANNEL = "hedgerow_changes"

/** How soon a lost feed listens again: quickly at first, then every 2 seconds for as long as it takes. */
const RELISTEN = Schedule.min([Schedule.exponential("50 millis"), Schedule.spaced("2 seconds")])

/**
 * A feed on a server's connection sends itself a heartbeat this often, and counts its connection as
 * lost when none has come back for this long: a connection that goes silent without an error (a firewall
 * or NAT dropping an idle flow, a failover moving the address) would otherwise keep stale memory served.
 */
const HEARTBEAT_EVERY = "500 millis"
const HEARTBEAT_WITHIN_MS = 3_000

/** Payloads the feed sends itself, never a table's name. */
const HEARTBEAT_PREFIX = "heartbeat:"
const FENCE_PREFIX = "fence:"

/** How long a writer waits for its fence before it forgets everything instead. */
const FENCE_WITHIN = "250 millis"

/**
 * Waits until this process has heard of every change it has committed so far, so that what it serves
 * next includes its own writes. A server delivers notifications in commit order, so once a notification
 * sent after the commit (a fence) comes back, the commit's own have come before it. Without an answer in
 * time, or while the feed does not listen, everything held in memory is forgotten instead.
 */
export class OwnCommits extends Context.Service<OwnCommits, {
  readonly heard: Effect.Effect<void>
}>()("hedgerow/store/OwnCommits") {}

/**
 * Whether the change feed listens now, and when it last heard anything (a change, or on a server its
 * own heartbeat), for readiness and monitoring.
 */
export class ChangeFeedStatus extends Context.Service<ChangeFeedStatus, {
  readonly listening: () => boolean
  /** Epoch milliseconds of the last notification heard; undefined before the first. */
  readonly lastHeardAt: () => number | undefined
}>()("hedgerow/store/ChangeFeedStatus") {}

class FeedSilent extends Data.TaggedError("FeedSilent")<{}> {
  override get message() {
    return `no heartbeat came back on the listening connection for ${HEARTBEAT_WITHIN_MS} ms`
  }
}

/**
 * Drives the read model's freshness from the database's change notifications, for as long as the layer
 * lives. Memory is served only while the feed listens: when the listening connection is lost or goes
 * silent, nothing is served from memory until it listens again, and then everything is read afresh, so
 * a notification missed meanwhile can never leave a revoked grant in memory.
 */
export const layerNoDeps = Layer.effectContext(Effect.gen(function*() {
  const listener = yield* Listener
  const freshness = yield* Freshness
  const sql = yield* SqlClient.SqlClient
  const fences = new Map<string, Deferred.Deferred<void>>()
  let listening = false
  let lastHeardAt: number | undefined
  const listen = Effect.gen(function*() {
    const own = `${HEARTBEAT_PREFIX}${crypto.randomUUID()}`
    let heard = Date.now()
    // Closed without waiting when the feed ends: giving back a connection that went silent would wait on
    // it for as long as the operating system keeps the socket, and the feed must listen again at once.
    const scope = yield* Scope.make()
    const listened = yield* listener.listen(CHANGES_CHANNEL, (payload) => {
      lastHeardAt = Date.now()
      if (payload.startsWith(FENCE_PREFIX)) {
        const fence = fences.get(payload)
        if (fence !== undefined) Deferred.doneUnsafe(fence, Exit.void)
      } else if (!payload.startsWith(HEARTBEAT_PREFIX)) freshness.changed([payload])
      else if (payload === own) heard = Date.now()
    }).pipe(Scope.provide(scope), Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause))))
    freshness.resumed()
    listening = true
    // An embedded store's feed is a call within this process: it cannot go silent.
    if (listener.deliversAtCommit) return yield* listened.pipe(Effect.ensuring(Scope.close(scope, Exit.void)))
    heard = Date.now()
    const heartbeat = Effect.gen(function*() {
      while (true) {
        // A failed send is judged by its missing echo.
        yield* Effect.ignore(sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${own})`)
        yield* Effect.sleep(HEARTBEAT_EVERY)
        if (Date.now() - heard > HEARTBEAT_WITHIN_MS) return yield* new FeedSilent()
      }
    })
    return yield* Effect.raceFirst(listened, heartbeat).pipe(
      Effect.onExit((exit) => Effect.asVoid(Effect.forkDetach(Scope.close(scope, exit))))
    )
  })
  yield* listen.pipe(
    Effect.onExit(() =>
      Effect.sync(() => {
        listening = false
        freshness.lost()
      })),
    Effect.tapError((error) => Effect.logWarning("The change feed stopped listening; serving from the database until it listens again", error)),
    Effect.retry(RELISTEN),
    Effect.forkScoped
  )

  const forget = Effect.sync(() => freshness.changed(["*"]))
  const fenced = Effect.suspend(() => {
    if (!listening) return forget
    const token = `${FENCE_PREFIX}${crypto.randomUUID()}`
    const fence = Deferred.makeUnsafe<void>()
    fences.set(token, fence)
    return Effect.gen(function*() {
      const sent = yield* Effect.exit(sql`SELECT pg_notify(${CHANGES_CHANNEL}, ${token})`)
      const back = Exit.isSuccess(sent) && Option.isSome(yield* Effect.timeoutOption(Deferred.await(fence), FENCE_WITHIN))
      if (!back) yield* forget
    }).pipe(Effect.ensuring(Effect.sync(() => fences.delete(token))))
  })
  // An embedded store's feed has heard a commit before the committing statement returns.
  const status = ChangeFeedStatus.of({ listening: () => listening, lastHeardAt: () => lastHeardAt })
  return Context.make(OwnCommits, OwnCommits.of({ heard: listener.deliversAtCommit ? Effect.void : fenced })).pipe(
    Context.add(ChangeFeedStatus, status)
  )
}))
