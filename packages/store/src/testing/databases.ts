import { PgClient } from "@effect/sql-pg"
import { Effect, Exit, Redacted, Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { randomBytes } from "node:crypto"

/** Where the test suites find a PostgreSQL server they may create databases on (`.ci/postgres` prints one). */
export const TEST_DATABASE_URL_VARIABLE = "HEDGEROW_TEST_DATABASE_URL"

export const testDatabaseUrl = (): string | undefined => {
  const url = process.env[TEST_DATABASE_URL_VARIABLE]
  return url === undefined || url.trim() === "" ? undefined : url.trim()
}

/** Runs one statement over a single short-lived connection to `url`. */
const administer = (url: string, statement: string) =>
  Effect.scoped(
    Effect.gen(function*() {
      const client = yield* PgClient.makeClient({ url: Redacted.make(url), applicationName: "hedgerow-tests" })
      yield* client.unsafe(statement)
    })
  ).pipe(Effect.provide(Reactivity.layer))

const withDatabase = (url: string, database: string) => {
  const parsed = new URL(url)
  parsed.pathname = `/${database}`
  return parsed.toString()
}

/**
 * A new, empty database on the server `serverUrl` points at (its user needs CREATEDB), for the life of
 * the scope; its URL is returned. Dropped afterwards even with connections still open, so a test that
 * fails half-way leaves nothing behind.
 */
export const scopedDatabase = (serverUrl: string, prefix = "hedgerow_test") =>
  Effect.acquireRelease(
    Effect.gen(function*() {
      // Random lower-case hex: a valid identifier that needs no quoting rules beyond the quotes.
      const name = `${prefix}_${randomBytes(6).toString("hex")}`
      yield* administer(serverUrl, `CREATE DATABASE "${name}"`)
      return { name, url: withDatabase(serverUrl, name) }
    }),
    ({ name }) => administer(serverUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`).pipe(Effect.ignore)
  ).pipe(Effect.map(({ url }) => url))

/** The same for code outside Effect: a database URL, and how to drop it. */
export const createDatabase = async (serverUrl: string, prefix?: string): Promise<{ url: string; drop: () => Promise<void> }> => {
  const scope = Effect.runSync(Scope.make())
  const url = await Effect.runPromise(Scope.provide(scope)(scopedDatabase(serverUrl, prefix)))
  return { url, drop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}
