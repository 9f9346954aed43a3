import { assert, layer } from "@effect/vitest"
import { Bootstrap, bodyOf, FlagService, systemActor, WebhookService } from "@hedgerow/core"
import { WebhookQueue } from "@hedgerow/core/ports"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

const DAY = 86_400_000

// One bootstrap per store (each backend's layer has its own), made on first use.
const booted = new WeakMap<object, { readonly project_id: number }>()
const project = Effect.gen(function*() {
  const bootstrap = yield* Bootstrap
  const boot = booted.get(bootstrap) ?? (yield* bootstrap.run({ email: "hooks@example.com" }))
  booted.set(bootstrap, boot)
  return String(boot.project_id)
})

const newWebhook = (enabled: boolean) =>
  Effect.gen(function*() {
    const webhooks = yield* WebhookService
    return yield* webhooks.create(systemActor, yield* project, bodyOf({ url: "http://93.184.215.14/hook", enabled }))
  })

forEachBackend((backend) =>
  layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(`the webhook queue on ${backend.name}`, (it) => {
    it.effect("records a change only while the project has an enabled webhook, with the flag's row, in the change's transaction", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const flags = yield* FlagService
        const queue = yield* WebhookQueue
        const at = yield* project
        yield* newWebhook(false)
        yield* flags.create(systemActor, at, bodyOf({ key: "unwatched" }))
        assert.deepStrictEqual(yield* queue.takeChanges(100), [])
        yield* newWebhook(true)
        const made = yield* flags.create(systemActor, at, bodyOf({ key: "watched" }))
        // A write refused by its rules leaves no record either.
        yield* Effect.flip(flags.create(systemActor, at, bodyOf({ key: "watched" })))
        const changes = yield* queue.takeChanges(100)
        assert.strictEqual(changes.length, 1)
        assert.deepStrictEqual([changes[0]!.project_id, (changes[0]!.item as { id: number; key: string }).key], [Number(at), "watched"])
        assert.strictEqual((changes[0]!.item as { id: number }).id, made.id)
        assert.deepStrictEqual(yield* queue.takeChanges(100), [])
        const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM webhook_changes`
        assert.strictEqual(n, 0)
      }))

    it.effect("finds a change's flag by its key, reading no other flag, and records an entry whose item is no flag id", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const flags = yield* FlagService
        const queue = yield* WebhookQueue
        const at = yield* project
        yield* newWebhook(true)
        const made = yield* flags.create(systemActor, at, bodyOf({ key: "by-key" }))
        yield* queue.takeChanges(100)
        const [{ organization_id }] = yield* sql<{ organization_id: string }>`
          SELECT organization_id::text AS organization_id FROM projects WHERE id = ${Number(at)}`
        // Sequential scans cost as much as the planner can make them, so that one is made only where no index serves.
        const scans = yield* sql.withTransaction(Effect.gen(function*() {
          yield* sql`SET LOCAL enable_seqscan = off`
          // The view holds what the connection has not yet reported, earlier transactions' too: a difference is taken.
          const seqScans = sql<{ n: number }>`SELECT seq_scan::integer AS n FROM pg_stat_xact_user_tables WHERE relname = 'feature_flags'`.pipe(
            Effect.map((rows) => rows[0]?.n ?? 0)
          )
          const before = yield* seqScans
          const insert = (item: string) =>
            sql`INSERT INTO activity_log (id, organization_id, project_id, activity, scope, item_id, detail)
              VALUES (gen_random_uuid(), ${organization_id}::uuid, ${Number(at)}, 'updated', 'FeatureFlag', ${item}, '{}'::jsonb)`
          yield* insert(String(made.id))
          yield* insert("not-a-flag")
          return (yield* seqScans) - before
        }))
        assert.strictEqual(scans, 0)
        const changes = yield* queue.takeChanges(100)
        assert.deepStrictEqual(changes.map((change) => (change.item as { id: number } | null)?.id ?? null), [made.id, null])
      }))

    it.effect("leases what it claims, takes up an expired lease, records attempts and prunes what ended long ago", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const queue = yield* WebhookQueue
        const hook = yield* newWebhook(true)
        yield* sql`UPDATE webhook_deliveries SET status = 'failed'`
        const ids = yield* queue.enqueue(["a", "b", "c"].map((body) => ({ webhook_id: hook.id, event: "feature_flag.created", body })))
        const claimed = yield* queue.claim(10, 60_000)
        assert.deepStrictEqual(claimed.map((due) => [due.id, due.body, due.attempts, due.secret]), [
          [ids[0], "a", 0, hook.secret],
          [ids[1], "b", 0, hook.secret],
          [ids[2], "c", 0, hook.secret]
        ])
        assert.deepStrictEqual(yield* queue.claim(10, 60_000), [])
        const ended = { attempt: 1, started_at: new Date(), duration_ms: 5, response: null, next_attempt_at: null }
        yield* queue.record({ ...ended, delivery_id: ids[0]!, status_code: 200, error: null, status: "delivered" })
        yield* queue.record({ ...ended, delivery_id: ids[1]!, status_code: null, error: "refused", status: "failed" })
        yield* queue.record({ ...ended, delivery_id: ids[2]!, status_code: 500, error: "HTTP 500", status: "pending", next_attempt_at: new Date(Date.now() - 1) })
        const again = yield* queue.claim(10, 1)
        assert.deepStrictEqual(again.map((due) => [due.id, due.attempts]), [[ids[2], 1]])
        yield* Effect.sleep("20 millis")
        // Its lease of a millisecond has run out: another claim takes it up.
        assert.deepStrictEqual((yield* queue.claim(10, 60_000)).map((due) => due.id), [ids[2]])

        yield* sql`UPDATE webhook_deliveries SET created_at = now() - interval '40 days', delivered_at = now() - interval '40 days' WHERE webhook_id = ${hook.id}`
        assert.strictEqual(yield* queue.prune(30 * DAY), 2)
        const left = yield* sql<{ id: string }>`SELECT id FROM webhook_deliveries WHERE webhook_id = ${hook.id}`
        assert.deepStrictEqual(left.map((row) => row.id), [ids[2]])
        const [{ n }] = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM webhook_attempts WHERE delivery_id IN (${ids[0]!}, ${ids[1]!})`
        assert.strictEqual(n, 0)
        // Both processes end the same second attempt: the first to record it counts, the other changes nothing.
        yield* queue.record({ ...ended, attempt: 2, delivery_id: ids[2]!, status_code: 204, error: null, status: "delivered" })
        yield* queue.record({ ...ended, attempt: 2, delivery_id: ids[2]!, status_code: 500, error: "HTTP 500", status: "pending", next_attempt_at: new Date() })
        const [second] = yield* sql<{ attempts: number; status: string }>`SELECT attempts, status FROM webhook_deliveries WHERE id = ${ids[2]!}`
        assert.deepStrictEqual(second, { attempts: 2, status: "delivered" })
        const recorded = yield* sql<{ attempt: number; status_code: number }>`
          SELECT attempt, status_code FROM webhook_attempts WHERE delivery_id = ${ids[2]!} ORDER BY attempt`
        assert.deepStrictEqual(recorded.map((row) => [row.attempt, row.status_code]), [[1, 500], [2, 204]])
      }))
  })
)
