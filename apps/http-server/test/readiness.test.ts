import { PgClient } from "@effect/sql-pg"
import { createDatabase, forEachBackend, testDatabaseUrl } from "@hedgerow/store/testing"
import { Effect, Exit, Layer, ManagedRuntime, Redacted, Scope } from "effect"
import { Reactivity } from "effect/reactivity"
import { connect } from "node:net"
import { describe, expect, it } from "vitest"
import { HedgerowServer } from "../src/index.ts"
import type { StoreOptions } from "@hedgerow/store"
import { eventually, freePort } from "./prometheus.ts"

/** A server on `store` with its metrics listener on a port chosen beforehand, so it is known while the store opens. */
const startServer = async (store: StoreOptions) => {
  const metricsPort = await freePort()
  const runtime = ManagedRuntime.make(
    HedgerowServer.layer({ port: 0, host: "127.0.0.1", store, metrics: { port: metricsPort, host: "127.0.0.1" } }).pipe(Layer.orDie)
  )
  return { runtime, metrics: `http://127.0.0.1:${metricsPort}` }
}

const readiness = async (base: string) => {
  const answer = await fetch(`${base}/_ready`)
  return [answer.status, await answer.json()] as const
}

/** One connection of its own to `url`, to hold a session-level lock or terminate backends. */
const adminConnection = async (url: string) => {
  const scope = Effect.runSync(Scope.make())
  const client = await Effect.runPromise(
    PgClient.makeClient({ url: Redacted.make(url), applicationName: "hedgerow-tests" }).pipe(Scope.provide(scope), Effect.provide(Reactivity.layer))
  )
  return {
    run: <A extends object>(statement: string) => Effect.runPromise(client.unsafe<A>(statement)),
    close: () => Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

const MIGRATION_LOCK = "SELECT pg_advisory_lock(hashtext('hedgerow:migrations'))"
const MIGRATION_UNLOCK = "SELECT pg_advisory_unlock(hashtext('hedgerow:migrations'))"

forEachBackend((backend) => {
  describe(`readiness on ${backend.name}`, () => {
    it("says draining while a request in flight finishes during a stop", async () => {
      const database = backend.name === "postgres" ? await createDatabase(testDatabaseUrl()!) : undefined
      const { runtime, metrics } = await startServer(database === undefined ? {} : { databaseUrl: database.url })
      try {
        const api = await runtime.runPromise(HedgerowServer.baseUrl)
        await runtime.runPromise(HedgerowServer.bootstrapIfEmpty())
        expect(await readiness(api)).toEqual([200, { status: "ready" }])
        // A slow peer: the evaluation's headers and half its body, the rest later.
        const body = JSON.stringify({ token: "phc_unknown", distinct_id: "ann" })
        const socket = connect(Number(new URL(api).port), "127.0.0.1")
        const answered = new Promise<string>((resolve) => {
          let text = ""
          socket.on("data", (chunk: Buffer) => {
            text += chunk.toString()
          })
          socket.on("close", () => resolve(text))
        })
        await new Promise<void>((resolve) => socket.once("connect", () => resolve()))
        socket.write(`POST /flags/?v=2 HTTP/1.1\r\nhost: x\r\nconnection: close\r\ncontent-length: ${body.length}\r\n\r\n${body.slice(0, 10)}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
        const stopped = runtime.dispose()
        const draining = await eventually(async () => {
          const [status, answer] = await readiness(metrics)
          return status === 503 ? answer : undefined
        }, 5_000, "the server to say it drains")
        expect(draining).toEqual({ status: "draining" })
        expect(await (await fetch(`${metrics}/metrics`)).text()).toContain("hedgerow_ready{status=\"draining\"} 0\n")
        socket.write(body.slice(10))
        // The request in flight is answered (the token names no project) before the server stops.
        expect(await answered).toMatch(/^HTTP\/1\.1 401 /)
        await stopped
        await expect(fetch(`${metrics}/_ready`)).rejects.toThrow()
      } finally {
        await runtime.dispose()
        await database?.drop()
      }
    }, 30_000)

    if (backend.name !== "postgres") return

    it("says starting while another process holds the migrations' lock, ready once it lets go", async () => {
      const database = await createDatabase(testDatabaseUrl()!)
      const holder = await adminConnection(database.url)
      await holder.run(MIGRATION_LOCK)
      const { runtime, metrics } = await startServer({ databaseUrl: database.url })
      try {
        const started = runtime.runPromise(HedgerowServer.baseUrl)
        const waiting = await eventually(async () => {
          const [status, answer] = await readiness(metrics)
          return status === 503 ? answer : undefined
        }, 10_000, "the metrics listener to answer")
        expect(waiting).toEqual({ status: "starting" })
        const scraped = await (await fetch(`${metrics}/metrics`)).text()
        expect(scraped).toContain("hedgerow_ready{status=\"starting\"} 0\n")
        // Still waiting on the lock a moment later: the store is not open.
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(await readiness(metrics)).toEqual([503, { status: "starting" }])
        await holder.run(MIGRATION_UNLOCK)
        const api = await started
        // The change feed's connection may still be opening as the server starts listening.
        const ready = await eventually(async () => {
          const answer = await readiness(api)
          return answer[0] === 200 ? answer : undefined
        }, 10_000, "the server to be ready")
        expect(ready).toEqual([200, { status: "ready" }])
        expect(await readiness(metrics)).toEqual([200, { status: "ready" }])
      } finally {
        await holder.close()
        await runtime.dispose()
        await database.drop()
      }
    }, 30_000)

    it("says not ready while the change feed's connection is lost, ready again once it listens", async () => {
      const database = await createDatabase(testDatabaseUrl()!)
      const admin = await adminConnection(database.url)
      const { runtime } = await startServer({ databaseUrl: database.url })
      try {
        const api = await runtime.runPromise(HedgerowServer.baseUrl)
        // The change feed's connection may still be opening as the server starts listening.
        const ready = await eventually(async () => {
          const answer = await readiness(api)
          return answer[0] === 200 ? answer : undefined
        }, 10_000, "the server to be ready")
        expect(ready).toEqual([200, { status: "ready" }])
        const seen = new Set<string>()
        let terminated = 0
        const until = Date.now() + 3_000
        // The feed listens again within moments, so its connection is cut again and again while probing.
        while (Date.now() < until && !seen.has("change_feed_not_listening")) {
          const rows = await admin.run<{ pid: number }>(
            "SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'hedgerow' AND query ILIKE 'LISTEN%'"
          )
          terminated += rows.length
          for (let i = 0; i < 5; i++) {
            const [, answer] = await readiness(api)
            seen.add((answer as { status: string }).status)
          }
        }
        expect(terminated).toBeGreaterThan(0)
        expect(seen.has("change_feed_not_listening")).toBe(true)
        const back = await eventually(async () => {
          const [status, answer] = await readiness(api)
          return status === 200 ? answer : undefined
        }, 10_000, "the feed to listen again")
        expect(back).toEqual({ status: "ready" })
      } finally {
        await admin.close()
        await runtime.dispose()
        await database.drop()
      }
    }, 30_000)
  })
})

