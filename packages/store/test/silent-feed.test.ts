import { assert, describe, it } from "@effect/vitest"
import { PgClient } from "@effect/sql-pg"
import { FlagService } from "@hedgerow/core"
import { Freshness } from "@hedgerow/core/ports"
import { Effect, Layer, Redacted } from "effect"
import { Reactivity } from "effect/reactivity"
import * as net from "node:net"
import { Hedgerow } from "../src/index.ts"
import { scopedDatabase, testDatabaseUrl } from "../src/testing/index.ts"
import { create, setUp } from "./flag-owner.ts"

/**
 * A TCP proxy to the server whose listening connection can be silenced: its socket stays open and no
 * byte goes through any more, as when a firewall drops an idle flow. Every other connection keeps working.
 */
const silencingProxy = (target: URL) =>
  Effect.acquireRelease(
    Effect.promise(() =>
      new Promise<{ readonly port: number; readonly silence: () => void; readonly close: () => void }>((resolve) => {
        let silenced = false
        const sockets: Array<net.Socket> = []
        const server = net.createServer((client) => {
          const upstream = net.connect(Number(target.port || 5432), target.hostname)
          sockets.push(client, upstream)
          let listening = false
          const silent = () => silenced && listening
          client.on("data", (data) => {
            if (data.includes("LISTEN")) listening = true
            if (!silent()) upstream.write(data)
          })
          upstream.on("data", (data) => {
            if (!silent()) client.write(data)
          })
          client.on("error", () => {})
          upstream.on("error", () => {})
        })
        server.listen(0, "127.0.0.1", () =>
          resolve({
            port: (server.address() as net.AddressInfo).port,
            silence: () => {
              silenced = true
            },
            close: () => {
              for (const socket of sockets) socket.destroy()
              server.close()
            }
          }))
      })
    ),
    (proxy) => Effect.sync(proxy.close)
  )

const serverUrl = testDatabaseUrl()

describe.skipIf(serverUrl === undefined)("a change feed whose connection goes silent on PostgreSQL", () => {
  it.live("stops serving memory within seconds, and a rename made elsewhere is listed", () =>
    Effect.scoped(Effect.gen(function*() {
      const databaseUrl = yield* scopedDatabase(serverUrl!)
      const proxy = yield* silencingProxy(new URL(databaseUrl))
      const proxied = new URL(databaseUrl)
      proxied.hostname = "127.0.0.1"
      proxied.port = String(proxy.port)
      const context = yield* Layer.build(Hedgerow.layer({ databaseUrl: proxied.toString() }))
      const run = <A, E>(effect: Effect.Effect<A, E, any>) => Effect.provide(effect, context) as Effect.Effect<A, E>
      const { actor, project } = yield* run(setUp)
      const flag = yield* run(create({ key: "watched", name: "before" }))
      const freshness = yield* run(Effect.service(Freshness))
      const list = run(FlagService.use((flags) => flags.list(actor, project, {})))
      while (!freshness.live()) yield* Effect.sleep("20 millis")
      // The list is held in memory, as its own notifications have arrived.
      yield* Effect.sleep("300 millis")
      assert.strictEqual((yield* list).results[0]!.name, "before")

      proxy.silence()
      // Another process renames the flag; this one never hears of it.
      const other = yield* PgClient.make({ url: Redacted.make(databaseUrl) }).pipe(Effect.provide(Reactivity.layer))
      yield* other`UPDATE feature_flags SET name = 'after' WHERE id = ${flag.id}`
      const started = Date.now()
      let name = "before"
      while (name !== "after" && Date.now() - started < 10_000) {
        yield* Effect.sleep("100 millis")
        name = (yield* list).results[0]!.name
      }
      // The silent connections end with the proxy, or the store's pool would wait on them as it closes.
      proxy.close()
      assert.strictEqual(name, "after")
      // Within the heartbeat's bound (3 s of silence), and a little for the check's own pace.
      assert.isBelow(Date.now() - started, 4_500)
    })), 60_000)
})
