import { createDatabase, eventually, forEachBackend, startReceiver, testDatabaseUrl } from "@hedgerow/store/testing"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import * as path from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { type Serving, servingUrl, startServe, waitFor } from "./cli-runner.ts"

const BOOTSTRAP_KEY = /Personal API key with scope \* \(shown only this once, keep it\): (phx_\w+)/
const BOOTSTRAP_PROJECT = /project (\d+) and owner/

/** Loopback receivers, attempts cut off after a second (so a lease left behind lasts 3 s), quick retries. */
const WEBHOOKS = {
  HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true",
  HEDGEROW_WEBHOOKS_TIMEOUT_MS: "1000",
  HEDGEROW_WEBHOOKS_RETRY_DELAYS_MS: "200,200,200,200,200",
  HEDGEROW_WEBHOOKS_POLL_MS: "50"
}

interface Api {
  readonly url: string
  readonly key: string
  readonly project: string
}

const call = async (api: Api, method: string, route: string, body?: unknown) => {
  const response = await fetch(`${api.url}/api/projects/${api.project}${route}`, {
    method,
    headers: { authorization: `Bearer ${api.key}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === "" ? null : JSON.parse(text) }
}

const newFlag = async (api: Api, key: string) => expect((await call(api, "POST", "/feature_flags/", { key })).status).toBe(201)

/** A server started for `env`, with the owner's key and project when it bootstrapped the store. */
const serve = async (env: Record<string, string>, args: ReadonlyArray<string> = []) => {
  const server = startServe({ ...WEBHOOKS, ...env }, { args: [...args] })
  const url = await servingUrl(server)
  await waitFor(server, /Ctrl-C/)
  return { server, url }
}

const killed = async (server: Serving) => {
  server.child.kill("SIGKILL")
  await server.exited
}

describe("a server killed while it delivers a webhook", () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "hedgerow-webhooks-"))
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it("delivers it after a restart, with the same delivery id", async () => {
    let answering = false
    const receiver = await startReceiver(() => (answering ? 200 : "hang"))
    try {
      const first = await serve({ HEDGEROW_DATA_DIR: dataDir })
      const api: Api = {
        url: first.url,
        key: BOOTSTRAP_KEY.exec(first.server.output())![1]!,
        project: BOOTSTRAP_PROJECT.exec(first.server.output())![1]!
      }
      const hook = await call(api, "POST", "/webhooks/", { url: receiver.url("/kill") })
      expect(hook.status).toBe(201)
      await newFlag(api, "made-before-the-kill")
      // The attempt is in flight (the receiver holds it) when the process dies.
      await eventually(() => (receiver.received.length > 0 ? true : undefined))
      await killed(first.server)
      answering = true

      const second = await serve({ HEDGEROW_DATA_DIR: dataDir })
      try {
        const again = { ...api, url: second.url }
        const [delivery] = await eventually(async () => {
          const list = (await call(again, "GET", `/webhooks/${hook.body.id}/deliveries/`)).body.results
          return list.length === 1 && list[0].status === "delivered" ? list : undefined
        }, 20_000)
        // The attempt cut off by the kill left no record; the one after the restart is the first recorded.
        expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })])
        const ids = receiver.received.map((request) => request.headers["webhook-id"])
        expect(ids).toEqual([delivery.id, delivery.id])
      } finally {
        second.server.child.kill("SIGTERM")
        await second.server.exited
      }
    } finally {
      await receiver.close()
    }
  }, 60_000)
})

forEachBackend((backend) => {
  if (backend.name !== "postgres") return
  describe("webhooks with several servers on one PostgreSQL database", () => {
    it("delivers each delivery once between two servers, and another server takes over one left by a killed one", async () => {
      const database = await createDatabase(testDatabaseUrl()!, "hedgerow_webhooks")
      const receiver = await startReceiver((route, n) => (route === "/kill" && n === 0 ? "hang" : 200))
      const servers: Array<Serving> = []
      try {
        // These two look for work on their own only every ten minutes: they deliver because the change
        // feed wakes them at each commit, whichever of them made it. Two connections each are enough.
        const woken = { HEDGEROW_WEBHOOKS_POLL_MS: "600000" }
        const first = await serve(woken, ["--database-url", database.url, "--pool-size", "2"])
        servers.push(first.server)
        const second = await serve(woken, ["--database-url", database.url, "--pool-size", "2"])
        servers.push(second.server)
        const owner = {
          key: BOOTSTRAP_KEY.exec(first.server.output() + second.server.output())![1]!,
          project: BOOTSTRAP_PROJECT.exec(first.server.output() + second.server.output())![1]!
        }
        const apis = [{ ...owner, url: first.url }, { ...owner, url: second.url }]
        const hook = await call(apis[0]!, "POST", "/webhooks/", { url: receiver.url("/each") })
        expect(hook.status).toBe(201)
        for (let n = 0; n < 20; n++) await newFlag(apis[n % 2]!, `shared-${n}`)
        const list = await eventually(async () => {
          const found = (await call(apis[1]!, "GET", `/webhooks/${hook.body.id}/deliveries/`)).body.results
          return found.length === 20 && found.every((one: { status: string }) => one.status === "delivered") ? found : undefined
        }, 20_000)
        for (const delivery of list) expect(delivery.attempts).toHaveLength(1)
        const ids = receiver.on("/each").map((request) => request.headers["webhook-id"])
        expect(ids).toHaveLength(20)
        expect(new Set(ids)).toEqual(new Set(list.map((delivery: { id: string }) => delivery.id)))

        // A delivery in flight on a server that is killed is taken up by the next server that runs.
        await killed(second.server)
        const other = await call(apis[0]!, "POST", "/webhooks/", { url: receiver.url("/kill"), events: ["feature_flag.created"] })
        await newFlag(apis[0]!, "in-flight")
        await eventually(() => (receiver.on("/kill").length > 0 ? true : undefined))
        await killed(first.server)
        const third = await serve({}, ["--database-url", database.url, "--pool-size", "3"])
        servers.push(third.server)
        const [delivery] = await eventually(async () => {
          const found = (await call({ ...owner, url: third.url }, "GET", `/webhooks/${other.body.id}/deliveries/`)).body.results
          return found.length === 1 && found[0].status === "delivered" ? found : undefined
        }, 20_000)
        expect(delivery.attempts).toEqual([expect.objectContaining({ attempt: 1, status_code: 200 })])
        expect(receiver.on("/kill").map((request) => request.headers["webhook-id"])).toEqual([delivery.id, delivery.id])
      } finally {
        for (const server of servers) {
          if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM")
          await server.exited
        }
        await receiver.close()
        await database.drop()
      }
    }, 90_000)
  })
})
