import { assert, layer } from "@effect/vitest"
import { HedgerowServer } from "@hedgerow/http-server"
import { eventually, startReceiver } from "@hedgerow/store/testing"
import { ConfigProvider, Effect, Layer } from "effect"
import { lines, runInProcess, type ServerSession, serverSession } from "./cli-runner.ts"

const connect = serverSession()
// The worker looks for work on its own only every ten minutes: what it sends here, it sends because the
// change feed woke it at commit.
const config = ConfigProvider.layerAdd(ConfigProvider.fromEnv({ env: { HEDGEROW_WEBHOOKS_ALLOW_PRIVATE: "true", HEDGEROW_WEBHOOKS_POLL_MS: "600000" } }), {
  asPrimary: true
})

const webhooks = (s: ServerSession, ...args: ReadonlyArray<string>) => runInProcess(["webhooks", ...args, "--url", s.url, "--key", s.key])

const json = (s: ServerSession, ...args: ReadonlyArray<string>) =>
  webhooks(s, ...args, "--json").pipe(Effect.map((ran) => {
    assert.strictEqual(ran.stderr, "", `stderr of ${args.join(" ")}`)
    assert.strictEqual(ran.code, 0)
    return JSON.parse(ran.stdout) as any
  }))

layer(HedgerowServer.layer({ port: 0, host: "127.0.0.1", store: {} }).pipe(Layer.provide(config)), { excludeTestServices: true })(
  "hedgerow webhooks",
  (it) => {
    it.effect("create shows the secret once; list, get, update, test, deliveries and delete work through the API", () =>
      Effect.gen(function*() {
        const s = yield* connect
        const receiver = yield* Effect.promise(() => startReceiver(() => 200))
        yield* Effect.addFinalizer(() => Effect.promise(() => receiver.close()))
        const made = yield* webhooks(s, "create", "--receiver", receiver.url("/cli"), "--events", "feature_flag.created,feature_flag.deleted", "--description", "CLI")
        assert.strictEqual(made.code, 0)
        const shown = lines(made.stdout)
        assert.match(shown.find((line) => line.startsWith("secret"))!, /^secret\s+whsec_[A-Za-z0-9+/]{43}=$/)
        assert.strictEqual(shown.at(-1), "The secret is shown only this once: verify deliveries with it (Standard Webhooks).")
        const id = /^id\s+(\S+)$/.exec(shown[0]!)![1]!

        const table = lines((yield* webhooks(s, "list")).stdout).map((line) => line.split(/ {2,}/))
        assert.deepStrictEqual(table[0], ["ID", "URL", "EVENTS", "ENABLED", "DESCRIPTION"])
        assert.deepStrictEqual(table[1], [id, receiver.url("/cli"), "feature_flag.created,feature_flag.deleted", "true", "CLI"])
        const got = yield* json(s, "get", id)
        assert.deepStrictEqual([got.id, got.events, got.secret], [id, ["feature_flag.created", "feature_flag.deleted"], undefined])
        const changed = yield* json(s, "update", id, "--enabled", "false", "--events", "*")
        assert.deepStrictEqual([changed.enabled, changed.events, changed.description], [false, ["*"], "CLI"])

        const sent = yield* webhooks(s, "test", id)
        assert.match(sent.stdout, new RegExp(`^Test delivery [0-9a-f-]{36} is on its way to webhook ${id}\\.\\n$`))
        yield* Effect.promise(() => eventually(() => (receiver.on("/cli").length === 1 ? true : undefined)))
        const delivered = yield* Effect.promise(() =>
          eventually(async () => {
            const page = await Effect.runPromise(json(s, "deliveries", id))
            return page.results[0]?.status === "delivered" ? page : undefined
          })
        )
        assert.strictEqual(delivered.results[0].attempts[0].status_code, 200)
        const rows = lines((yield* webhooks(s, "deliveries", id)).stdout).map((line) => line.split(/ {2,}/))
        assert.deepStrictEqual(rows[0], ["ID", "EVENT", "STATUS", "ATTEMPTS", "LAST", "NEXT_ATTEMPT_AT", "CREATED_AT"])
        assert.deepStrictEqual(rows[1]!.slice(1, 5), ["webhook.test", "delivered", "1", "200"])

        const refused = yield* webhooks(s, "create", "--receiver", "ftp://example.com/")
        assert.strictEqual(refused.code, 1)
        assert.strictEqual(refused.stdout, "")
        assert.deepStrictEqual(lines(refused.stderr), ["error: Only http and https URLs are accepted. (field url)"])

        assert.deepStrictEqual(yield* json(s, "delete", id), { id, deleted: true })
        assert.strictEqual((yield* webhooks(s, "get", id)).code, 1)
      }))
  }
)
