import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { allFlagActivity, allFlags, type Ledger, nameAt, startWriteLoad, type Tenant } from "../src/load/write-load.ts"
import { bannerOf, firstStartOf, NOT_FIRST_START } from "../src/serve-banner.ts"
import { httpTarget } from "../src/targets/http.ts"
import { type ServerProcess, startServerProcess } from "../src/targets/server-process.ts"
import type { Target } from "../src/targets/target.ts"

/** Kills per store: each round loads the server it restarted after the previous kill. */
const ROUNDS = 2
/**
 * A round kills once this many writes were acknowledged and 300 to 600 ms into the load (whichever is
 * later), so that kills land at different points of a request.
 */
const ACKNOWLEDGED_BEFORE_KILL = 40
const loadBeforeKillMs = () => 300 + Math.random() * 300

/** The store a server runs on, as `hedgerow serve` is told about it, and how to remove it. */
interface Store {
  readonly env: Readonly<Record<string, string>>
  /** The PGlite data directory, when it is one. */
  readonly dataDir?: string
  readonly remove: () => Promise<void>
}

const pgliteStore = (): Store => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-durability-"))
  return { env: { HEDGEROW_DATA_DIR: dataDir }, dataDir, remove: async () => rmSync(dataDir, { recursive: true, force: true }) }
}

const postgresStore = async (): Promise<Store> => {
  const database = await createDatabase(testDatabaseUrl()!, "hedgerow_durability")
  return { env: { DATABASE_URL: database.url }, remove: database.drop }
}

/** Who holds a data directory, as its lock file (packages/store/src/sql/data-dir-lock.ts) says. */
const lockHolder = (dataDir: string): { pid: number; startedAt: string } | undefined => {
  const file = path.join(dataDir, "hedgerow.lock")
  return existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : undefined
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * What the restarted server must show for the writes of these ledgers, as a list of problems (empty
 * when all is well): every acknowledged create with the id it was answered with; every acknowledged
 * PATCH, or one sent after it on the same flag; no flag the load did not ask for; and every flag whole,
 * its name matching its version, its usage dashboard set and one activity entry per version, with no
 * activity entry for a flag that is not there.
 */
const problemsAfterRestart = async (target: Target, tenant: Tenant, ledgers: ReadonlyArray<Ledger>) => {
  const problems: Array<string> = []
  const flags = await allFlags(target, tenant)
  const activity = await allFlagActivity(target, tenant)
  const byKey = new Map(flags.map((flag) => [flag.key as string, flag]))
  const created = new Map(ledgers.flatMap((ledger) => [...ledger.created]))
  const unansweredCreates = new Set(ledgers.flatMap((ledger) => [...ledger.unansweredCreates]))
  const patched = new Map(ledgers.flatMap((ledger) => [...ledger.patched]))
  const unansweredPatches = new Set(ledgers.flatMap((ledger) => [...ledger.unansweredPatches]))

  for (const [key, id] of created) {
    const flag = byKey.get(key)
    if (flag?.id !== id) problems.push(`acknowledged create ${key} (id ${id}) ${flag === undefined ? "is missing" : `has id ${flag.id}`}`)
  }
  const entries = new Map<string, Array<{ activity: string }>>()
  for (const entry of activity) entries.set(entry.item_id, [...entries.get(entry.item_id) ?? [], entry])
  for (const flag of flags) {
    const where = `flag ${flag.key} (id ${flag.id}, version ${flag.version})`
    if (!created.has(flag.key) && !unansweredCreates.has(flag.key)) problems.push(`${where} was never asked for`)
    // What it must be at least, and the one further version a PATCH without an answer may have added.
    const acknowledged = patched.get(flag.id) ?? 1
    const most = unansweredPatches.has(flag.id) ? acknowledged + 1 : acknowledged
    if (flag.version < acknowledged || flag.version > most) problems.push(`${where}: acknowledged up to version ${acknowledged}`)
    if (flag.name !== nameAt(flag.version)) problems.push(`${where} is named ${JSON.stringify(flag.name)}`)
    if (flag.usage_dashboard === null) problems.push(`${where} has no usage dashboard`)
    const kinds = (entries.get(String(flag.id)) ?? []).map((entry) => entry.activity).sort()
    const expected = ["created", ...Array.from({ length: flag.version - 1 }, () => "updated")].sort()
    if (kinds.join() !== expected.join()) problems.push(`${where} has activity ${JSON.stringify(kinds)}`)
  }
  const ids = new Set(flags.map((flag) => String(flag.id)))
  for (const item of entries.keys()) if (!ids.has(item)) problems.push(`activity for flag ${item}, which is not there`)
  return problems
}

/**
 * A second server on a data directory in use exits with 1 and one line naming the holder; the holder
 * serves on. apps/cli/test/serve.test.ts has this for a directory its holder locked afresh; here the
 * holder took the lock over from a killed process.
 */
const expectRefused = async (store: Store, holder: ServerProcess) => {
  const refused = await startServerProcess({ env: store.env }).then(
    async (second) => {
      await second.kill()
      return `a second server started:\n${second.output()}`
    },
    (error: Error) => error.message
  )
  expect(refused).toBe(
    "hedgerow serve exited with 1 before serving:\n" +
      `error: Data directory ${path.resolve(store.dataDir!)} is in use by process ${holder.child.pid} ` +
      `(started ${lockHolder(store.dataDir!)!.startedAt}). Stop it first, or use another --data-dir.\n`
  )
  expect((await fetch(`${holder.url}/_health`)).status).toBe(200)
}

/**
 * `hedgerow serve` SIGKILLed in the middle of a write load (no shutdown, requests in flight), then started
 * again on the same store, on an embedded PGlite data directory and on a PostgreSQL database.
 */
forEachBackend((backend) => {
  describe(`a SIGKILLed hedgerow serve and its store (${backend.name})`, () => {
    let store: Store | undefined
    const started: Array<ServerProcess> = []
    const serve = async () => {
      const server = await startServerProcess({ env: store!.env })
      started.push(server)
      return server
    }

    beforeAll(async () => {
      store = backend.name === "postgres" ? await postgresStore() : pgliteStore()
    })
    // A failed assertion must not leave a server behind.
    afterEach(async () => {
      await Promise.all(started.splice(0).map((server) => server.kill()))
    })
    afterAll(async () => {
      await store?.remove()
    })

    it("keeps every acknowledged write and leaves no write half done, kill after kill", async () => {
      let server = await serve()
      const tenant = firstStartOf(await bannerOf(server))
      expect(tenant, server.output()).toBeDefined()
      const ledgers: Array<Ledger> = []

      for (let round = 0; round < ROUNDS; round++) {
        const load = startWriteLoad(httpTarget("killed", server.url), tenant!, { stem: `round${round}`, loops: 6, patchesPerFlag: 2 })
        ledgers.push(load.ledger)
        const since = Date.now()
        const loadMs = loadBeforeKillMs()
        while (load.acknowledged() < ACKNOWLEDGED_BEFORE_KILL || Date.now() - since < loadMs) {
          await sleep(10)
        }
        const inFlight = load.inFlight()
        const killed = server
        await killed.kill()
        await load.settled
        expect(inFlight, "requests in flight when the server was killed").toBeGreaterThan(0)
        expect(load.ledger.unexpected).toEqual([])
        expect(load.ledger.unansweredCreates.size + load.ledger.unansweredPatches.size, "the kill cut requests off").toBeGreaterThan(0)
        // A SIGKILLed process cannot remove its lock: the next start must see it is stale and take it over.
        if (store!.dataDir !== undefined) expect(lockHolder(store!.dataDir)?.pid).toBe(killed.child.pid)

        server = await serve()
        expect(await bannerOf(server)).toContain(NOT_FIRST_START)
        if (store!.dataDir !== undefined) {
          expect(lockHolder(store!.dataDir)?.pid).toBe(server.child.pid)
          if (round === ROUNDS - 1) await expectRefused(store!, server)
        }
        const problems = await problemsAfterRestart(httpTarget("restarted", server.url), tenant!, ledgers)
        expect(problems).toEqual([])
      }

      expect(await server.stop()).toBe(0)
      if (store!.dataDir !== undefined) expect(lockHolder(store!.dataDir)).toBeUndefined()
    })
  })
})
