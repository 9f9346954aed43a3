import { Effect } from "effect"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs"
import { createConnection } from "node:net"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { migrations } from "@hedgerow/store"
import { lines, runChild, type Serving, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const root = mkdtempSync(path.join(tmpdir(), "hedgerow-backup-"))
afterAll(() => rmSync(root, { recursive: true, force: true }))

/** The name the migrator records for the newest migration: its key without the number. */
const newestMigration = Object.keys(migrations).at(-1)!.replace(/^\d+_/, "")

const BOOTSTRAP_KEY = /Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)/

const admin = (args: ReadonlyArray<string>) => Effect.runPromise(runChild(["admin", ...args]))

const serving = async (dir: string) => {
  const server = startServe({ HEDGEROW_DATA_DIR: dir })
  const url = await servingUrl(server)
  await waitFor(server, /Ctrl-C/)
  return { server, url }
}

const stop = async (server: Serving) => {
  server.child.kill("SIGTERM")
  expect(await server.exited).toBe(0)
}

const flagsUrl = (url: string) => `${url}/api/projects/@current/feature_flags/`

/** Every flag key of the key's current project, page by page. */
const allFlagKeys = async (url: string, key: string) => {
  const keys: Array<string> = []
  for (let next: string | null = `${flagsUrl(url)}?limit=1000`; next !== null;) {
    const response = await fetch(next, { headers: { authorization: `Bearer ${key}` } })
    expect(response.status).toBe(200)
    const page = await response.json() as { next: string | null; results: Array<{ key: string }> }
    keys.push(...page.results.map((flag) => flag.key))
    next = page.next
  }
  return keys
}

/** What the socket answers to `request`, as text, once it closes the connection. */
const askSocket = (file: string, request: string) =>
  new Promise<string>((resolve, reject) => {
    const socket = createConnection(file, () => socket.write(request))
    let answer = ""
    socket.on("data", (chunk) => (answer += chunk.toString("latin1")))
    socket.on("error", reject)
    socket.on("close", () => resolve(answer))
  })

describe("hedgerow admin backup and restore", () => {
  it("backs up a store a server is writing to as fast as it can, and the restore holds every write acknowledged before", async () => {
    const source = path.join(root, "source")
    const { server, url } = await serving(source)
    const key = BOOTSTRAP_KEY.exec(server.output())![1]!

    // Four writers create flags back to back; each create counts once its 201 has arrived.
    const acknowledged: Array<{ key: string; at: number }> = []
    let writing = true
    let failures = 0
    const writer = async (id: number) => {
      for (let n = 0; writing; n++) {
        const flag = `load-${id}-${n}`
        const response = await fetch(flagsUrl(url), {
          method: "POST",
          headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
          body: JSON.stringify({ key: flag, name: `Load ${id} ${n}`, filters: { groups: [{ rollout_percentage: 50 }] } })
        })
        await response.arrayBuffer()
        if (response.status === 201) acknowledged.push({ key: flag, at: performance.now() })
        else failures++
      }
    }
    const writers = [0, 1, 2, 3].map(writer)
    while (acknowledged.length < 100) await new Promise((resolve) => setTimeout(resolve, 20))

    const file = path.join(root, "under-load.tar.gz")
    const started = performance.now()
    const made = await admin(["backup", "--data-dir", source, "--out", file, "--json"])
    const finished = performance.now()
    // Writes go on a little after the backup, then stop.
    const afterBackup = acknowledged.length
    while (acknowledged.length < afterBackup + 50) await new Promise((resolve) => setTimeout(resolve, 20))
    writing = false
    await Promise.all(writers)

    expect(made.stderr).toBe("")
    expect(made.code).toBe(0)
    const report = JSON.parse(made.stdout)
    expect(report).toEqual({ file, bytes: statSync(file).size, data_dir: source, made_by: "running process" })
    // Readable by its owner only: it holds the hashes of keys and sessions.
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(failures).toBe(0)

    const before = acknowledged.filter((write) => write.at < started).map((write) => write.key)
    const during = acknowledged.filter((write) => write.at >= started && write.at <= finished).length
    const after = acknowledged.filter((write) => write.at > finished).map((write) => write.key)
    expect(before.length).toBeGreaterThanOrEqual(100)
    expect(after.length).toBeGreaterThan(0)

    // The server went on serving: everything it acknowledged is in its own store.
    const live = new Set(await allFlagKeys(url, key))
    expect(acknowledged.filter((write) => !live.has(write.key))).toEqual([])
    await stop(server)

    const target = path.join(root, "restored")
    const restored = await admin(["restore", "--from", file, "--data-dir", target])
    expect(restored.stderr).toBe("")
    expect(restored.code).toBe(0)
    expect(lines(restored.stdout)).toEqual([
      `Restored ${file} into ${target} (store at migration ${newestMigration}); serve it with: hedgerow serve --data-dir ${target}`
    ])

    // The restored store starts (it is consistent), answers the same key, and holds every write
    // acknowledged before the backup began; what it holds beyond them was written while it ran, never after.
    const again = await serving(target)
    expect(again.server.output()).not.toContain("First start")
    const kept = await allFlagKeys(again.url, key)
    expect(new Set(kept).size).toBe(kept.length)
    expect(before.filter((flag) => !kept.includes(flag))).toEqual([])
    expect(kept.filter((flag) => after.includes(flag))).toEqual([])
    expect(kept.length).toBeLessThanOrEqual(before.length + during)
    // And it takes writes of its own: its sequences were restored with its rows.
    const created = await fetch(flagsUrl(again.url), {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ key: "after-restore", filters: { groups: [] } })
    })
    expect(created.status).toBe(201)
    await stop(again.server)
  }, 120_000)

  it("on a store no server holds, backs it up itself; restore refuses a directory that is not empty", async () => {
    const dir = path.join(root, "stopped")
    const { server, url } = await serving(dir)
    const key = BOOTSTRAP_KEY.exec(server.output())![1]!
    await stop(server)
    expect(readdirSync(dir)).toEqual(["pgdata"])

    const file = path.join(root, "stopped.tar.gz")
    const made = await admin(["backup", "--data-dir", dir, "--out", file])
    expect(made.stderr).toBe("")
    expect(made.code).toBe(0)
    expect(lines(made.stdout)).toEqual([
      `Backed up ${dir} (made by the stopped store) to ${file}, ${statSync(file).size} bytes; ` +
      `restore it with: hedgerow admin restore --from ${file} --data-dir <new directory>`
    ])
    // The directory is left as it was: no lock or socket stays behind.
    expect(readdirSync(dir)).toEqual(["pgdata"])

    // A second backup to the same file is refused rather than overwriting it.
    const twice = await admin(["backup", "--data-dir", dir, "--out", file])
    expect(twice.code).toBe(1)
    expect(twice.stderr).toBe(`error: ${file} already exists; a backup never overwrites a file\n`)

    // Restore never overwrites: not the store it came from, nor a directory with anything in it.
    for (const occupied of [dir, root]) {
      const refused = await admin(["restore", "--from", file, "--data-dir", occupied])
      expect(refused.code).toBe(1)
      expect(refused.stderr).toBe(
        `error: ${occupied} is not an empty directory; restore into a new one (a restore never overwrites a store)\n`
      )
    }
    // An empty directory that exists is fine.
    const empty = path.join(root, "empty")
    mkdirSync(empty)
    const restored = await admin(["restore", "--from", file, "--data-dir", empty])
    expect(restored.code).toBe(0)
    const back = await serving(empty)
    expect((await fetch(`${back.url}/api/users/@me/`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
    expect(url).not.toBe("")
    await stop(back.server)
  }, 120_000)

  it("refuses what is not a backup, and a directory with no store, leaving nothing behind", async () => {
    const junk = path.join(root, "junk.tar.gz")
    writeFileSync(junk, "not a backup at all")
    const target = path.join(root, "from-junk")
    const refused = await admin(["restore", "--from", junk, "--data-dir", target])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toBe("error: not a Hedgerow backup (a gzipped archive): incorrect header check\n")
    expect(existsSync(target)).toBe(false)

    const missing = await admin(["restore", "--from", path.join(root, "nowhere.tar.gz"), "--data-dir", target])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toBe(
      `error: cannot read ${path.join(root, "nowhere.tar.gz")}: ENOENT: no such file or directory, open '${path.join(root, "nowhere.tar.gz")}'\n`
    )

    // Where the store is on PostgreSQL, a data directory is not what to back up.
    const elsewhere = await Effect.runPromise(runChild(["admin", "backup", "--out", path.join(root, "pg.tar.gz")], { DATABASE_URL: "postgres://db.internal/hedgerow" }))
    expect(elsewhere.code).toBe(1)
    expect(elsewhere.stderr).toBe(
      "error: backup copies the embedded store; the store is on PostgreSQL here (--database-url or DATABASE_URL), " +
        "which PostgreSQL's own tools back up (pg_dump)\n"
    )

    const none = path.join(root, "no-store")
    const made = await admin(["backup", "--data-dir", none, "--out", path.join(root, "none.tar.gz")])
    expect(made.code).toBe(1)
    expect(made.stderr).toBe(`error: ${none} holds no embedded store (no ${path.join(none, "pgdata")})\n`)
    expect(existsSync(none)).toBe(false)
    expect(existsSync(path.join(root, "none.tar.gz"))).toBe(false)
  }, 60_000)

  it("the server's backup socket is its owner's only, and a silent, wordy or unknown peer holds no backup up", async () => {
    const dir = path.join(root, "socket")
    const { server } = await serving(dir)
    const socket = path.join(dir, "hedgerow.sock")
    expect(statSync(socket).isSocket()).toBe(true)
    expect(statSync(socket).mode & 0o777).toBe(0o600)

    // A peer that connects and says nothing.
    const silent = createConnection(socket)
    await new Promise((resolve) => silent.once("connect", resolve))
    // A request line longer than any request, without its end, and one that is not a request.
    expect(await askSocket(socket, "x".repeat(100_000))).toBe(`{"ok":false,"error":"unknown request; send \\"backup\\""}\n`)
    expect(await askSocket(socket, "restore\n")).toBe(`{"ok":false,"error":"unknown request; send \\"backup\\""}\n`)

    // Meanwhile a backup is made as usual.
    const file = path.join(root, "beside-peers.tar.gz")
    const made = await admin(["backup", "--data-dir", dir, "--out", file])
    expect(made.code).toBe(0)
    expect(made.stdout).toContain("(made by the running process)")
    silent.destroy()

    // Stopped, the server takes its socket with it.
    await stop(server)
    expect(readdirSync(dir)).toEqual(["pgdata"])
  }, 60_000)
})
