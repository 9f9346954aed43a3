import { Cause, Effect, Exit, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { randomBytes } from "node:crypto"
import { describe, expect, it } from "vitest"
import { Store } from "../src/index.ts"
import { displayUrl, layerPostgres } from "../src/sql/postgres-client.ts"
import { createDatabase, forEachBackend, testDatabaseUrl } from "../src/testing/index.ts"

describe("displayUrl", () => {
  it("hides a password however the URL carries it, and keeps the rest", () => {
    expect(displayUrl("postgres://app:s3cret@db.internal:5432/hedgerow?sslmode=require")).toBe(
      "postgres://app:***@db.internal:5432/hedgerow?sslmode=require"
    )
    expect(displayUrl("postgres://app@db.internal/hedgerow?password=s3cret&sslmode=require")).toBe(
      "postgres://app@db.internal/hedgerow?password=***&sslmode=require"
    )
    expect(displayUrl("postgres://app@db.internal/hedgerow")).toBe("postgres://app@db.internal/hedgerow")
  })

  it("never echoes what it cannot parse", () => {
    expect(displayUrl("postgres://app:s3cret@[bad")).toBe("(an unparseable URL)")
  })
})

describe("layerPostgres", () => {
  it("refuses a pool too small to both listen for changes and query, before opening any connection", async () => {
    for (const poolSize of [1, 0, 1.5]) {
      const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(layerPostgres({ url: "postgres://app:s3cret@127.0.0.1:9/none", poolSize }))))
      const failure = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
      expect((failure as { _tag?: string })?._tag).toBe("DatabaseUnavailable")
      expect((failure as Error).message).toBe(
        `cannot use the PostgreSQL database at postgres://app:***@127.0.0.1:9/none: the pool must hold at least 2 connections (one listens for changes), not ${poolSize}`
      )
    }
  })
})

forEachBackend((backend) => {
  if (backend.name === "pglite") return
  describe(`a store on ${backend.name} whose user may not create tables`, () => {
    it("refuses to start with PostgreSQL's own reason, naming the migration", async () => {
      const serverUrl = testDatabaseUrl()!
      const database = await createDatabase(serverUrl, "hedgerow_test_grants")
      const role = `hedgerow_limited_${randomBytes(4).toString("hex")}`
      const admin = (statement: string) =>
        Effect.runPromise(Effect.scoped(Effect.flatMap(Effect.service(SqlClient.SqlClient), (sql) => sql.unsafe(statement))).pipe(
          Effect.provide(layerPostgres({ url: database.url, poolSize: 2 }))
        ))
      try {
        // Since PostgreSQL 15 only a database's owner may create in its public schema; this role is not it.
        await admin(`CREATE ROLE ${role} LOGIN`)
        await admin("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        const url = new URL(database.url)
        url.username = role
        const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(Store.layer({ databaseUrl: url.toString() }))))
        const failure = Exit.isFailure(exit) ? Cause.squash(exit.cause) : undefined
        expect((failure as { _tag?: string })?._tag).toBe("MigrationFailed")
        expect((failure as Error).message).toMatch(/^cannot migrate the database: .*permission denied for schema public/)
      } finally {
        await database.drop()
        await admin(`DROP ROLE IF EXISTS ${role}`).catch(() => undefined)
      }
    })
  })
})
