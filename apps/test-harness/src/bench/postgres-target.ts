import { displayUrl, Hedgerow } from "@hedgerow/store"
import { scopedDatabase } from "@hedgerow/store/testing"
import { Context, Data, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { benchLogSettings, bootstrapTenant, fixtureAt, FlagSeeder, HedgerowFixture, type HedgerowTarget, type TargetPlan } from "./hedgerow-target.ts"
import { residentBytes } from "./memory.ts"
import { seedFlags } from "./seed-flags.ts"
import { scopedServer } from "./scoped-server.ts"

export class BenchDatabaseFailed extends Data.TaggedError("BenchDatabaseFailed")<{ readonly url: string; readonly reason: string }> {
  override get message() {
    return `cannot create a scratch database on ${this.url}: ${this.reason}`
  }
}

/** The PostgreSQL error under an SqlError, where the server's own message and code are. */
const postgresCause = (error: unknown): { readonly message: string; readonly code?: unknown } => {
  const cause = (error as { readonly reason?: { readonly cause?: unknown } } | undefined)?.reason?.cause
  return cause instanceof Error ? cause : error instanceof Error ? error : { message: String(error) }
}

/**
 * A fresh database on the server the URL points at, dropped with the scope, also when the run fails or
 * is interrupted (Ctrl-C): the benchmark never writes into the database the URL names.
 */
export const benchDatabase = (serverUrl: string) =>
  scopedDatabase(serverUrl, "hedgerow_bench").pipe(Effect.mapError((error) => {
    const cause = postgresCause(error)
    // 42501 insufficient_privilege: the user may log in but lacks CREATEDB.
    const reason = cause.code === "42501"
      ? `the user needs the CREATEDB privilege (${cause.message})`
      : cause.message.replaceAll("\n", " ")
    return new BenchDatabaseFailed({ url: displayUrl(serverUrl), reason })
  }))

/**
 * `processes` server processes sharing one fresh database on the PostgreSQL server at `serverUrl`.
 * This process bootstraps and migrates it through core before any server starts, and keeps a small
 * pool of its own, so that scenarios seed flags through the same code path as on the embedded store.
 */
export const onPostgres = (serverUrl: string, processes: number): TargetPlan => ({
  label: `PostgreSQL, ${processes} server process${processes === 1 ? "" : "es"}`,
  serverProcesses: processes,
  start: (progress) => Effect.gen(function*() {
    const databaseUrl = yield* benchDatabase(serverUrl)
    progress(`created database ${new URL(databaseUrl).pathname.slice(1)} (dropped at the end of this run)`)
    // Two connections: seeding runs in one transaction, and the servers get the default pool each.
    const services = yield* Layer.build(Hedgerow.layer({ databaseUrl, poolSize: 2 }))
    const tenant = yield* bootstrapTenant.pipe(Effect.provideContext(services))
    progress(`starting ${processes} \`hedgerow serve\` process${processes === 1 ? "" : "es"}`)
    const log = yield* benchLogSettings
    const servers = yield* Effect.forEach(
      Array.from({ length: processes }, () => databaseUrl),
      (url) => scopedServer({ DATABASE_URL: url }, log),
      { concurrency: "unbounded" }
    )
    const fixture = fixtureAt(tenant, servers[0]!.url)
    const sql = Context.get(services, SqlClient.SqlClient)
    // A server keeps statistics with autovacuum, too slowly for a run that starts seconds after seeding.
    const seeder = FlagSeeder.of({
      seed: (tenant, from, to) => seedFlags(tenant, from, to).pipe(Effect.andThen(sql`ANALYZE`), Effect.provideContext(services))
    })
    return {
      context: Context.make(HedgerowFixture, fixture).pipe(Context.add(FlagSeeder, seeder)),
      urls: servers.map((server) => server.url),
      memory: Effect.sync(() =>
        servers.map((server, i) => ({ label: `server ${i + 1} (pid ${server.child.pid})`, rssBytes: residentBytes(server.child.pid!) }))
      )
    } satisfies HedgerowTarget
  })
})
