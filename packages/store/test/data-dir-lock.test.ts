import { assert, describe, it } from "@effect/vitest"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { Effect, Exit, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { acquireDataDirLock, layerPgliteDataDir, lockFileName } from "../src/sql/data-dir-lock.ts"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "hedgerow-lock-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

const readLock = (dir: string) => JSON.parse(fs.readFileSync(path.join(dir, lockFileName), "utf8"))

const writeLock = (dir: string, owner: { pid: number; hostname: string; startedAt: string }) => {
  fs.mkdirSync(dir, { recursive: true })
  fs.writeFileSync(path.join(dir, lockFileName), JSON.stringify(owner))
}

// A pid that certainly belonged to a process of ours which has since exited.
const deadPid = () => {
  const child = spawnSync(process.execPath, ["-e", ""])
  assert.isNumber(child.pid)
  return child.pid!
}

describe("data dir lock", () => {
  it.effect("creates the dir open to its owner only, since PGlite's files inside are open to everyone", () =>
    Effect.gen(function*() {
      const root = yield* tempDir
      const dir = path.join(root, "fresh")
      yield* Effect.scoped(acquireDataDirLock(dir))
      assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700)
    }))

  it.effect("closes an existing dir of its user that others could enter", () =>
    Effect.gen(function*() {
      const root = yield* tempDir
      const dir = path.join(root, "older")
      fs.mkdirSync(dir, { mode: 0o755 })
      fs.chmodSync(dir, 0o755)
      yield* Effect.scoped(acquireDataDirLock(dir))
      assert.strictEqual(fs.statSync(dir).mode & 0o777, 0o700)
    }))

  it.effect("creates the dir, writes {pid, hostname, startedAt} and removes the file on release", () =>
    Effect.gen(function*() {
      const root = yield* tempDir
      const dir = path.join(root, "nested", ".hedgerow")
      const scope = yield* Scope.make()
      const owner = yield* acquireDataDirLock(dir).pipe(Scope.provide(scope))
      const onDisk = readLock(dir)
      assert.strictEqual(onDisk.pid, process.pid)
      assert.strictEqual(onDisk.hostname, os.hostname())
      assert.isFalse(Number.isNaN(Date.parse(onDisk.startedAt)))
      assert.deepStrictEqual(onDisk, owner)
      yield* Scope.close(scope, Exit.void)
      assert.isFalse(fs.existsSync(path.join(dir, lockFileName)))
      assert.isTrue(fs.existsSync(dir))
    }))

  it.effect("a second acquire while held fails with DataDirInUse naming the pid", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* acquireDataDirLock(dir)
      const error = yield* Effect.flip(acquireDataDirLock(dir))
      assert.strictEqual(error._tag, "DataDirInUse")
      if (error._tag !== "DataDirInUse") return
      assert.strictEqual(error.pid, process.pid)
      assert.strictEqual(error.dir, dir)
      assert.include(error.message, `Data directory ${dir} is in use by process ${process.pid} (started `)
      assert.include(error.message, "Stop it first, or use another --data-dir.")
      // The failed attempt must not have disturbed the holder's lock.
      assert.strictEqual(readLock(dir).pid, process.pid)
    }))

  it.live("a lock held by another live process is respected", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const child = yield* Effect.acquireRelease(
        Effect.sync(() => spawn(process.execPath, ["-e", "setTimeout(() => {}, 60000)"], { stdio: "ignore" })),
        (c) => Effect.sync(() => c.kill("SIGKILL"))
      )
      const startedAt = new Date(Date.now() - 60_000).toISOString()
      writeLock(dir, { pid: child.pid!, hostname: os.hostname(), startedAt })
      const error = yield* Effect.flip(acquireDataDirLock(dir))
      assert.strictEqual(error._tag, "DataDirInUse")
      if (error._tag !== "DataDirInUse") return
      assert.strictEqual(error.pid, child.pid)
      assert.include(error.message, `in use by process ${child.pid} (started ${startedAt})`)
      assert.strictEqual(readLock(dir).pid, child.pid)
    }))

  it.effect("a stale lock left by a dead process is taken over", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const pid = deadPid()
      writeLock(dir, { pid, hostname: os.hostname(), startedAt: "2020-01-01T00:00:00.000Z" })
      const owner = yield* acquireDataDirLock(dir)
      assert.strictEqual(owner.pid, process.pid)
      assert.deepStrictEqual(readLock(dir), owner)
      assert.deepStrictEqual(fs.readdirSync(dir), [lockFileName], "no temp file left behind")
    }))

  it.effect("an unreadable lock file is taken over", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      fs.writeFileSync(path.join(dir, lockFileName), "")
      const owner = yield* acquireDataDirLock(dir)
      assert.deepStrictEqual(readLock(dir), owner)
    }))

  it.effect("a lock from another host is never presumed stale", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      writeLock(dir, { pid: deadPid(), hostname: `not-${os.hostname()}`, startedAt: "2020-01-01T00:00:00.000Z" })
      const error = yield* Effect.flip(acquireDataDirLock(dir))
      assert.strictEqual(error._tag, "DataDirInUse")
      assert.include(error.message, `on host not-${os.hostname()}`)
    }))

  it.effect("an unusable path fails with DataDirLockError", () =>
    Effect.gen(function*() {
      const root = yield* tempDir
      const file = path.join(root, "a-file")
      fs.writeFileSync(file, "")
      const error = yield* Effect.flip(acquireDataDirLock(file))
      assert.strictEqual(error._tag, "DataDirLockError")
      assert.include(error.message, file)
    }))

  it.effect("release leaves alone a lock that is no longer ours", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      const scope = yield* Scope.make()
      yield* acquireDataDirLock(dir).pipe(Scope.provide(scope))
      const other = { pid: 1, hostname: os.hostname(), startedAt: "2020-01-01T00:00:00.000Z" }
      writeLock(dir, other)
      yield* Scope.close(scope, Exit.void)
      assert.deepStrictEqual(readLock(dir), other)
    }))
})

describe("layerPgliteDataDir", () => {
  it.effect("data survives close and reopen; the lock sits beside pgdata and is held while open", () =>
    Effect.gen(function*() {
      const dir = yield* tempDir
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE TABLE notes (id serial PRIMARY KEY, body text NOT NULL)`
        yield* sql`INSERT INTO notes ${sql.insert({ body: "kept across restarts" })}`
        assert.strictEqual(readLock(dir).pid, process.pid)
        assert.isTrue(fs.existsSync(path.join(dir, "pgdata")))
        assert.isFalse(fs.existsSync(path.join(dir, "pgdata", lockFileName)))
        // A second server on the same dir is refused before it opens the database.
        const error = yield* Effect.flip(Effect.scoped(Effect.asVoid(
          Effect.provide(Effect.service(SqlClient.SqlClient), layerPgliteDataDir(dir))
        )))
        assert.strictEqual(error._tag, "DataDirInUse")
      }).pipe(Effect.provide(layerPgliteDataDir(dir)))
      assert.isFalse(fs.existsSync(path.join(dir, lockFileName)))

      const rows = yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        return yield* sql<{ body: string }>`SELECT body FROM notes`
      }).pipe(Effect.provide(layerPgliteDataDir(dir)))
      assert.deepStrictEqual(rows, [{ body: "kept across restarts" }])
    }), { timeout: 60_000 })
})
