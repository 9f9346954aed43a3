import { bodyOf, CoreServices, DomainService, FlagUsageInterval, OrganizationService, type SessionRequest, SsoSettings, systemActor } from "@hedgerow/core"
import { Freshness } from "@hedgerow/core/ports"
import { Deferred, Effect, Layer, Schedule } from "effect"
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

/** A gate that holds a statement half-way: it says it has begun, then waits for the test's release. */
export interface Hold {
  readonly begun: Deferred.Deferred<void>
  readonly release: Deferred.Deferred<void>
}

export const makeHold: Effect.Effect<Hold> = Effect.all({ begun: Deferred.make<void>(), release: Deferred.make<void>() })

/** `effect`, run only once `hold` (when there is one) is released. */
export const throughHold = <A, E, R>(hold: Hold | undefined, effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  hold === undefined
    ? effect
    : Deferred.succeed(hold.begun, undefined).pipe(Effect.andThen(Deferred.await(hold.release)), Effect.andThen(effect))

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

/** A log-in from a client without cookies at `clientAddress`, as a script would send it. */
export const cookieless = (clientAddress: string): SessionRequest => ({
  method: "POST",
  sessionKey: undefined,
  csrfCookie: undefined,
  csrfHeader: undefined,
  origin: undefined,
  ownOrigin: undefined,
  clientAddress
})

/** A deployment with a Google client: the enforcement of `google-oauth2` can be followed there. */
export const withGoogle = Effect.provideService(SsoSettings, { oauth: new Set(["google-oauth2"] as const) })

/**
 * A verified domain (as a DNS check would make it) of an organization of its own, enforcing Google log-in;
 * `unique` makes the names no other test uses.
 */
export const enforcingGoogle = (unique: (prefix: string) => string) =>
  Effect.gen(function*() {
    const organization = yield* OrganizationService.use((s) => s.create(systemActor, { name: unique("Enforcing ") }))
    const domain = `${unique("google")}.example.com`
    const created = yield* DomainService.use((s) => s.create(systemActor, organization.id, bodyOf({ domain })))
    const sql = yield* SqlClient.SqlClient
    yield* sql`UPDATE domains SET verified_at = now() WHERE id = ${created.id}`
    yield* DomainService.use((s) => s.update(systemActor, organization.id, created.id, bodyOf({ sso_enforcement: "google-oauth2" })))
    return domain
  })
