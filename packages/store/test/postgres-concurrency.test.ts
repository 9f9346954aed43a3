import { assert, layer } from "@effect/vitest"
import {
  Bootstrap,
  bodyOf,
  InviteService,
  Level,
  MemberService,
  OrganizationService,
  RoleService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { MembershipRepository, membersTurn, Transactions } from "@hedgerow/core/ports"
import { Context, Effect, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow, migrations, type StoreOptions } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { create, freshKey, patch, retrieve } from "./flag-owner.ts"

/**
 * What only a PostgreSQL server can show: PGlite is one session, so its transactions never overlap.
 * Here several pools share one database and transactions really run side by side (READ COMMITTED).
 */

/** The options of a new, empty database, for a test that opens several stores on it. */
class EmptyDatabase extends Context.Service<EmptyDatabase, StoreOptions>()("test/EmptyDatabase") {}

const STORES = 4
/** Races run this many times: one overlap is luck, many in a row show the guard. */
const ROUNDS = 12

/** A filter making a flag depend on the flag `id` being true. */
const dependingOn = (id: number) => ({
  groups: [{ properties: [{ key: String(id), type: "flag", operator: "flag_evaluates_to", value: true }], rollout_percentage: 100 }]
})

/** Runs two writes at once, of which exactly one must succeed: which one, its value, and the other's error. */
const race = <A, B, E1, E2, R1, R2>(first: Effect.Effect<A, E1, R1>, second: Effect.Effect<B, E2, R2>) =>
  Effect.gen(function*() {
    const [a, b] = yield* Effect.all([Effect.result(first), Effect.result(second)], { concurrency: "unbounded" })
    if (Result.isSuccess(a) && Result.isFailure(b)) return { winner: 0, won: a.success as A | B, lost: b.failure as E1 | E2 } as const
    if (Result.isFailure(a) && Result.isSuccess(b)) return { winner: 1, won: b.success as A | B, lost: a.failure as E1 | E2 } as const
    const told = (outcome: Result.Result<unknown, unknown>) =>
      Result.isSuccess(outcome) ? "succeeded" : String((outcome.failure as { detail?: unknown }).detail ?? outcome.failure)
    return assert.fail(`exactly one of two concurrent writes must succeed; first: ${told(a)}; second: ${told(b)}`)
  })

const refusal = (error: unknown) => {
  const { _tag, attr, detail } = error as { _tag: string; attr?: unknown; detail?: unknown }
  return { _tag, attr, detail }
}

forEachBackend((backend) => {
  if (backend.name === "pglite") return

  layer(backend.on((options) => Layer.succeed(EmptyDatabase, options)), { timeout: 120_000 })(`stores starting at once on ${backend.name}`, (it) => {
    it.effect(`${STORES} stores built at once migrate one empty database once; of their bootstraps at once, one makes the organization`, () =>
      Effect.gen(function*() {
        const options = yield* EmptyDatabase
        // Each store is its own pool, as separate server processes would be.
        const stores = yield* Effect.forEach(
          Array.from({ length: STORES }, () => Hedgerow.layer({ ...options, poolSize: 2 })),
          Layer.build,
          { concurrency: "unbounded" }
        )
        const outcomes = yield* Effect.forEach(
          stores,
          (store, i) => Bootstrap.use((bootstrap) => bootstrap.run({ email: `first${i}@example.com` })).pipe(Effect.provide(store), Effect.result),
          { concurrency: "unbounded" }
        )
        assert.strictEqual(outcomes.filter(Result.isSuccess).length, 1)
        // The others each found the one organization made meanwhile.
        const refused = outcomes.filter(Result.isFailure).map(({ failure }) =>
          failure._tag === "AlreadyBootstrapped" ? `${failure._tag} (${failure.organizations})` : failure._tag
        )
        assert.deepStrictEqual(refused, Array.from({ length: STORES - 1 }, () => "AlreadyBootstrapped (1)"))

        const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(stores[0]!))
        const migrated = yield* sql<{ name: string }>`SELECT name FROM hedgerow_migrations ORDER BY migration_id`
        assert.deepStrictEqual(migrated.map((row) => row.name), Object.keys(migrations).map((id) => id.replace(/^\d+_/, "")))
        const [counts] = yield* sql<{ organizations: number; users: number; projects: number }>`
          SELECT (SELECT count(*)::integer FROM organizations) AS organizations, (SELECT count(*)::integer FROM users) AS users,
            (SELECT count(*)::integer FROM projects) AS projects`
        assert.deepStrictEqual(counts, { organizations: 1, users: 1, projects: 1 })
      }).pipe(Effect.scoped))
  })

  layer(backend.on(Hedgerow.layer), { timeout: 120_000, excludeTestServices: true })(`flag dependencies under concurrent writers on ${backend.name}`, (it) => {
    it.effect("two PATCHes drawing the two halves of a cycle at once: one lands, the other is PostHog's cycle error", () =>
      Effect.gen(function*() {
        for (let round = 0; round < ROUNDS; round++) {
          const a = yield* create({ key: freshKey("cycle-a") })
          const b = yield* create({ key: freshKey("cycle-b") })
          const { winner, lost } = yield* race(patch(a.id, { filters: dependingOn(b.id) }), patch(b.id, { filters: dependingOn(a.id) }))
          const [won, loser] = winner === 0 ? [a, b] : [b, a]
          assert.deepStrictEqual(refusal(lost), {
            _tag: "ValidationError",
            attr: "filters",
            detail: `Circular dependency detected: ${loser.key} → ${won.key} → ${loser.key}`
          })
          // The loser is as it was; only the winner depends on the other.
          assert.deepStrictEqual((yield* retrieve(won.id)).filters, dependingOn(loser.id))
          const unchanged = yield* retrieve(loser.id)
          assert.deepStrictEqual([unchanged.version, unchanged.filters], [loser.version, loser.filters])
        }
      }))

    it.effect("a flag disabled while another starts to depend on it (by PATCH or by create): never both", () =>
      Effect.gen(function*() {
        const cannotDisable = (dependent: { id: number; key: string }) =>
          `Cannot disable this feature flag because other flags depend on it: ${dependent.key} (ID: ${dependent.id}). Please update or disable the dependent flags first.`
        const cannotDependOn = (target: { id: number; key: string }) =>
          `Cannot create dependency on disabled flag '${target.key}' (ID: ${target.id}). Flag dependencies must reference active flags only.`
        for (let round = 0; round < ROUNDS; round++) {
          const target = yield* create({ key: freshKey("target") })
          const byCreate = round % 2 === 1
          const dependentKey = freshKey("dependent")
          const existing = byCreate ? undefined : yield* create({ key: dependentKey })
          const depend = existing === undefined
            ? create({ key: dependentKey, filters: dependingOn(target.id) })
            : patch(existing.id, { filters: dependingOn(target.id) })
          const { winner, won, lost } = yield* race(patch(target.id, { active: false }), depend)
          const after = yield* retrieve(target.id)
          if (winner === 0) {
            assert.isFalse(after.active)
            assert.deepStrictEqual(refusal(lost), { _tag: "ValidationError", attr: "filters", detail: cannotDependOn(target) })
          } else {
            assert.isTrue(after.active)
            const dependent = won as { id: number; key: string }
            assert.deepStrictEqual(refusal(lost), { _tag: "ValidationError", attr: null, detail: cannotDisable(dependent) })
            assert.deepStrictEqual((yield* retrieve(dependent.id)).filters, dependingOn(target.id))
          }
          // A refused create leaves no flag behind.
          if (byCreate && winner === 0) {
            const sql = yield* SqlClient.SqlClient
            assert.deepStrictEqual(yield* sql`SELECT id FROM feature_flags WHERE key = ${dependentKey}`, [])
          }
        }
      }))

    it.effect("a restore racing a create of the deleted flag's key: one wins, and the live flag holds the key", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        for (let round = 0; round < ROUNDS; round++) {
          const key = freshKey("restored")
          const deleted = yield* create({ key })
          yield* patch(deleted.id, { deleted: true })
          const { winner, won, lost } = yield* race(patch(deleted.id, { deleted: false }), create({ key }))
          assert.deepStrictEqual(refusal(lost), { _tag: "ValidationError", attr: "key", detail: "There is already a feature flag with this key." })
          // Exactly one live flag with the key: the restored one, or the new one (the old one keeping a tombstone).
          const live = yield* sql<{ id: number }>`SELECT id FROM feature_flags WHERE key = ${key} AND NOT deleted`
          assert.deepStrictEqual(live.map((row) => row.id), [winner === 0 ? deleted.id : (won as { id: number }).id])
          const [old] = yield* sql<{ key: string; deleted: boolean }>`SELECT key, deleted FROM feature_flags WHERE id = ${deleted.id}`
          assert.deepStrictEqual(old, winner === 0 ? { key, deleted: false } : { key: `${key}:deleted:${deleted.id}`, deleted: true })
        }
      }))

    it.effect("two deleted flags taking each other's keys at once both land, without a deadlock", () =>
      Effect.gen(function*() {
        for (let round = 0; round < ROUNDS; round++) {
          const x = yield* create({ key: freshKey("swap-x") })
          const y = yield* create({ key: freshKey("swap-y") })
          yield* patch(x.id, { deleted: true })
          yield* patch(y.id, { deleted: true })
          const both = yield* Effect.all([Effect.result(patch(x.id, { key: y.key })), Effect.result(patch(y.id, { key: x.key }))], {
            concurrency: "unbounded"
          })
          assert.deepStrictEqual(both.map((outcome) => outcome._tag), ["Success", "Success"])
        }
      }))
  })

  layer(backend.on(Hedgerow.layer), { timeout: 120_000, excludeTestServices: true })(`organization writers at once on ${backend.name}`, (it) => {
    it.effect("two invites for one address at once: the later replaces the earlier, one remains", () =>
      Effect.gen(function*() {
        for (let round = 0; round < ROUNDS; round++) {
          const org = yield* OrganizationService.use((s) => s.create(systemActor, { name: `invites ${round}` }))
          const invite = (level: number) =>
            InviteService.use((s) => s.create(systemActor, org.id, bodyOf({ target_email: "twice@example.com", level, send_email: false })))
          yield* Effect.all([invite(1), invite(8)], { concurrency: "unbounded" })
          const page = yield* InviteService.use((s) => s.list(systemActor, org.id, {}))
          assert.strictEqual(page.count, 1)
        }
      }))

    it.effect("an invite waits for a member's addition in flight, then refuses the new member's address", () =>
      Effect.gen(function*() {
        const transactions = yield* Transactions
        const memberships = yield* MembershipRepository
        const org = (yield* OrganizationService.use((s) => s.create(systemActor, { name: "joining" }))).id
        for (let round = 0; round < ROUNDS / 4; round++) {
          const email = `joining-${round}@example.com`
          const user = yield* UserService.use((s) => s.create(systemActor, { email }))
          // A member addition as MemberService.add makes it, held open for a moment after its insert.
          const adding = transactions.run(Effect.gen(function*() {
            yield* transactions.serialize(membersTurn(org))
            yield* memberships.insert({ organization_id: org, user_id: user.id, level: Level.member })
            yield* Effect.sleep("300 millis")
          }))
          const inviting = Effect.sleep("100 millis").pipe(
            Effect.andThen(InviteService.use((s) => s.create(systemActor, org, bodyOf({ target_email: email, send_email: false })))),
            Effect.flip
          )
          const [, refused] = yield* Effect.all([adding, inviting], { concurrency: "unbounded" })
          assert.deepStrictEqual(refusal(refused), {
            _tag: "ValidationError",
            attr: null,
            detail: "A user with this email address already belongs to the organization."
          })
        }
      }))

    it.effect("a role membership granted while the member is removed: never left behind for a non-member", () =>
      Effect.gen(function*() {
        const org = (yield* OrganizationService.use((s) => s.create(systemActor, { name: "roles" }))).id
        const role = yield* RoleService.use((s) => s.create(systemActor, org, bodyOf({ name: "racing role" })))
        const sql = yield* SqlClient.SqlClient
        for (let round = 0; round < ROUNDS; round++) {
          const email = `leaving-${round}@example.com`
          const user = yield* UserService.use((s) => s.create(systemActor, { email }))
          yield* MemberService.use((s) => s.add(systemActor, org, { email, level: 1 }))
          yield* Effect.all([
            Effect.result(RoleService.use((s) => s.addMember(systemActor, role.id, { email }))),
            MemberService.use((s) => s.remove(systemActor, org, user.uuid))
          ], { concurrency: "unbounded" })
          const left = yield* sql`SELECT 1 FROM role_memberships WHERE role_id = ${role.id} AND user_id = ${user.id}`
          assert.deepStrictEqual(left, [])
        }
      }))
  })
})
