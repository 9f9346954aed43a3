import { assert, it } from "@effect/vitest"
import { Deferred, Effect, Fiber } from "effect"
import { SqlClient } from "effect/sql"
import { mkdtempSync, rmSync } from "node:fs"
import { hostname, tmpdir } from "node:os"
import * as path from "node:path"
import { backupDataDir, Hedgerow, restoreDataDir } from "../src/index.ts"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => mkdtempSync(path.join(tmpdir(), "hedgerow-backup-store-"))),
  (dir) => Effect.sync(() => rmSync(dir, { recursive: true, force: true }))
)

it.live("a backup asked for in the middle of a transaction waits for its end and holds all of it", () =>
  Effect.gen(function*() {
    const dir = yield* tempDir
    const source = path.join(dir, "source")
    const restored = yield* Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`CREATE TABLE pairs (n integer PRIMARY KEY)`
      const begun = yield* Deferred.make<void>()
      const release = yield* Deferred.make<void>()
      // A transaction that writes, waits with its transaction open, then writes again and commits.
      const transaction = yield* Effect.forkChild(sql.withTransaction(Effect.gen(function*() {
        yield* sql`INSERT INTO pairs VALUES (1)`
        yield* Deferred.succeed(begun, undefined)
        yield* Deferred.await(release)
        yield* sql`INSERT INTO pairs VALUES (2)`
      })))
      yield* Deferred.await(begun)
      // The backup is asked for over the socket, as another process would, while the transaction is open.
      const backup = yield* Effect.forkChild(backupDataDir(source))
      yield* Effect.sleep("300 millis")
      assert.isUndefined(backup.pollUnsafe())
      yield* Deferred.succeed(release, undefined)
      yield* Fiber.join(transaction)
      const made = yield* Fiber.join(backup)
      assert.strictEqual(made.from, "running process")
      return yield* restoreDataDir(made.bytes, path.join(dir, "copy"))
    }).pipe(Effect.provide(Hedgerow.layer({ dataDir: source }), { local: true }))
    assert.strictEqual(restored.dir, path.join(dir, "copy"))
    const rows = yield* Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* sql<{ n: number }>`SELECT n FROM pairs ORDER BY n`
    }).pipe(Effect.provide(Hedgerow.layer({ dataDir: restored.dir }), { local: true }))
    assert.deepStrictEqual(rows.map((row) => row.n), [1, 2])
  }).pipe(Effect.scoped), 120_000)

it.live("a data directory whose path is too long for a socket still serves, and a backup then asks for the server to stop", () =>
  Effect.gen(function*() {
    const dir = path.join(yield* tempDir, "a-directory-name-long-enough".repeat(4))
    const failure = yield* backupDataDir(dir).pipe(
      Effect.flip,
      Effect.provide(Hedgerow.layer({ dataDir: dir }), { local: true })
    )
    assert.strictEqual(
      failure.message,
      `${dir} is in use by process ${process.pid} on host ${hostname()}, which does not answer backup requests on ` +
        `${path.join(dir, "hedgerow.sock")}; stop it, then back up again`
    )
    // Stopped, it is backed up by the caller.
    const made = yield* backupDataDir(dir)
    assert.strictEqual(made.from, "stopped store")
  }).pipe(Effect.scoped), 120_000)
