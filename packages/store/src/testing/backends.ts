import { Effect, Layer } from "effect"
import type { SqlError } from "effect/sql"
import { describe, it } from "vitest"
import type { StoreOptions } from "../store.ts"
import { scopedDatabase, TEST_DATABASE_URL_VARIABLE, testDatabaseUrl } from "./databases.ts"

/** A store the suites run on: the embedded PGlite in memory, or a fresh database on the test server. */
export interface Backend {
  readonly name: "pglite" | "postgres"
  /** Builds a layer over the options of a new, empty store (dropped with the layer, for PostgreSQL). */
  readonly on: <A, E, R>(build: (options: StoreOptions) => Layer.Layer<A, E, R>) => Layer.Layer<A, E | SqlError.SqlError, R>
}

const pglite: Backend = { name: "pglite", on: (build) => build({}) }

const postgres = (serverUrl: string): Backend => ({
  name: "postgres",
  on: (build) => Layer.unwrap(Effect.map(scopedDatabase(serverUrl), (databaseUrl) => build({ databaseUrl })))
})

/**
 * Registers a suite once per backend. Without a server (HEDGEROW_TEST_DATABASE_URL unset) the PostgreSQL
 * run is reported as skipped, except under CI=true, where it fails: CI must prove both backends.
 */
export const forEachBackend = (register: (backend: Backend) => void): void => {
  register(pglite)
  const url = testDatabaseUrl()
  if (url !== undefined) return register(postgres(url))
  const reason = `needs a PostgreSQL server: set ${TEST_DATABASE_URL_VARIABLE} (\`.ci/postgres\` starts one)`
  describe("on PostgreSQL", () => {
    if (process.env["CI"] === "true") {
      it("has a server to run on", () => {
        throw new Error(`CI=true, but this suite ${reason}`)
      })
    } else {
      it.skip(reason, () => {})
    }
  })
}

