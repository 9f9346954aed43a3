import { assert, layer } from "@effect/vitest"
import {
  personalApiKeyOf,
  Authentication,
  bodyOf,
  Bootstrap,
  CoreServices,
  FlagService,
  LiveFlagsBudget,
  ProjectService,
  type ProjectId,
  MemberService,
  OrganizationService,
  type OrganizationId,
  type PersonalApiKeyId,
  PersonalApiKeyService,
  systemActor,
  type Timestamp,
  UserService
} from "@hedgerow/core"
import { FlagRepository, Freshness, PersonalApiKeyRepository } from "@hedgerow/core/ports"
import { Clock, Effect, Exit, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Store } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { untilLive } from "./support.ts"

/** How many times authentication asked the store for a key's holder, and wrote a key's last use: the real repository, counted. */
let lookups = 0
let touches = 0
const countedKeys = Layer.effect(
  PersonalApiKeyRepository,
  Effect.map(Effect.service(PersonalApiKeyRepository), (keys) => ({
    ...keys,
    findHolder: (secureValue: string) => Effect.suspend(() => {
      lookups++
      return keys.findHolder(secureValue)
    }),
    touch: (id: PersonalApiKeyId, at: Timestamp) => Effect.suspend(() => {
      touches++
      return keys.touch(id, at)
    })
  }))
)

/** How many times a project's live flags were read whole from the store, and some of them by id. */
let projectReads = 0
let rowReads = 0
const countedFlags = Layer.effect(
  FlagRepository,
  Effect.map(Effect.service(FlagRepository), (flags) => ({
    ...flags,
    live: (project: ProjectId) => Effect.suspend(() => {
      projectReads++
      return flags.live(project)
    }),
    among: (project: ProjectId, ids: ReadonlyArray<number>) => Effect.suspend(() => {
      rowReads++
      return flags.among(project, ids)
    })
  }))
)

const hedgerowWithCountedKeys = (options: Store.StoreOptions) => {
  const store = Store.layer(options)
  const counted = Layer.merge(countedKeys, countedFlags).pipe(Layer.provide(store))
  return CoreServices.layerNoDeps.pipe(Layer.provide(counted), Layer.provideMerge(store))
}

/** The same, with room in memory for one project's flags at a time. */
const hedgerowWithOneProjectHeld = (options: Store.StoreOptions) =>
  hedgerowWithCountedKeys(options).pipe(Layer.provide(Layer.succeed(LiveFlagsBudget, 1)))

/** Lookups made by `effect`. */
const counted = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const before = lookups
    return Effect.map(effect, (value) => ({ value, lookups: lookups - before }))
  })

/**
 * Authenticates once and lets the notification of that first use (its `last_used_at` is written) arrive:
 * a server hears its own writes made outside a transaction through the feed, a moment later.
 */
const warm = (key: string) =>
  Effect.gen(function*() {
    const auth = yield* Authentication
    yield* auth.authenticate(key)
    yield* Effect.sleep("200 millis")
    return yield* auth.authenticate(key)
  })

/** A user of the organization with a `*` key, made through core as an operator would. */
const memberWithKey = (organization: string, email: string) =>
  Effect.gen(function*() {
    const user = yield* UserService.use((s) => s.create(systemActor, { email }))
    yield* MemberService.use((s) => s.add(systemActor, organization, { email, level: 1 }))
    const key = yield* PersonalApiKeyService.use((s) =>
      s.create(systemActor, { email, scopes: ["*"], scoped_organizations: null, scoped_teams: null }))
    return { uuid: user.uuid, key: key.personal_api_key, id: key.id }
  })

forEachBackend((backend) =>
layer(backend.on(hedgerowWithCountedKeys), { timeout: 60_000, excludeTestServices: true })(`the in-memory read model on ${backend.name}`, (it) => {
  /** The bootstrapped organization, which the tests after the first share. */
  let organization = ""
  /** Its owner's key and first project. */
  let owner = { key: "", project: "" }

  it.effect("a key's holder is read from the store once, then served from memory", () =>
    Effect.gen(function*() {
      yield* untilLive
      const boot = yield* (yield* Bootstrap).run({ email: "owner@example.com" })
      organization = boot.organization_id
      owner = { key: boot.personal_api_key, project: String(boot.project_id) }
      const auth = yield* Authentication
      const first = yield* counted(warm(boot.personal_api_key))
      const again = yield* counted(Effect.forEach([1, 2, 3, 4, 5], () => auth.authenticate(boot.personal_api_key)))
      assert.isAtLeast(first.lookups, 1)
      assert.strictEqual(again.lookups, 0)
      assert.strictEqual(again.value[4]!.user.email, "owner@example.com")
    }))

  it.effect("a commit in this process is seen by its next request: a removed member has lost the organization", () =>
    Effect.gen(function*() {
      yield* untilLive
      const member = yield* memberWithKey(organization, "removed@example.com")
      const auth = yield* Authentication
      assert.isTrue((yield* warm(member.key)).memberships.has(organization as OrganizationId))
      assert.strictEqual((yield* counted(auth.authenticate(member.key))).lookups, 0)
      yield* MemberService.use((s) => s.remove(systemActor, organization, member.uuid))
      const after = yield* counted(auth.authenticate(member.key))
      assert.strictEqual(after.lookups, 1)
      assert.isFalse(after.value.memberships.has(organization as OrganizationId))
    }))

  it.effect("a write outside any transaction, as another writer's SQL, reaches memory through the change feed", () =>
    Effect.gen(function*() {
      yield* untilLive
      const member = yield* memberWithKey(organization, "deleted-by-sql@example.com")
      const auth = yield* Authentication
      yield* auth.authenticate(member.key)
      const sql = yield* SqlClient.SqlClient
      yield* sql`DELETE FROM personal_api_keys WHERE id = ${member.id}`
      // The embedded store delivers the notification before the DELETE returns; a server a moment later.
      const refused = yield* auth.authenticate(member.key).pipe(
        Effect.flip,
        Effect.retry({ schedule: Schedule.spaced("20 millis"), times: backend.name === "pglite" ? 0 : 50 })
      )
      assert.strictEqual(refused._tag, "AuthenticationError")
    }))

  it.effect("a membership memory does not hold yet (another process's, not yet heard) is asked of the store before a 404", () =>
    Effect.gen(function*() {
      yield* untilLive
      // What this process held before another process founded an organization for the same key.
      const before = yield* warm(owner.key)
      const founded = yield* OrganizationService.use((s) => s.found(before, bodyOf({ name: "Founded elsewhere" })))
      assert.isFalse(before.memberships.has(founded.id))
      const retrieved = yield* OrganizationService.use((s) => s.retrieve(before, founded.id))
      assert.strictEqual(retrieved.membership_level, 15)
      const projects = yield* ProjectService.use((s) => s.list(before, founded.id, {}))
      assert.strictEqual(projects.count, 1)
      const made = yield* FlagService.use((s) => s.create(before, String(projects.results[0]!.id), bodyOf({ key: "at-once" })))
      assert.strictEqual(made.key, "at-once")
      // Someone else's organization is still unknown to the caller, after the store has said so.
      const stranger = yield* memberWithKey(organization, "stranger@example.com")
      const strangers = yield* OrganizationService.use((s) => s.create(systemActor, { name: "Not yours" }))
      const strangerActor = yield* warm(stranger.key)
      const refused = yield* Effect.flip(OrganizationService.use((s) => s.retrieve(strangerActor, strangers.id)))
      assert.strictEqual(refused._tag, "NotFound")
    }))

  it.effect("a key revoked or rolled through the key service is refused by this process's very next request", () =>
    Effect.gen(function*() {
      yield* untilLive
      const member = yield* memberWithKey(organization, "revoked-by-api@example.com")
      const auth = yield* Authentication
      const actor = yield* warm(member.key)
      const keys = yield* PersonalApiKeyService
      const spare = yield* keys.createOwn(actor, bodyOf({ label: "spare", scopes: ["*"] }))
      yield* warm(spare.value!)
      assert.strictEqual((yield* counted(auth.authenticate(spare.value!))).lookups, 0)
      const rolled = yield* keys.roll(actor, spare.id, bodyOf({}))
      assert.strictEqual((yield* Effect.flip(auth.authenticate(spare.value!)))._tag, "AuthenticationError")
      assert.strictEqual(personalApiKeyOf(yield* auth.authenticate(rolled.value!))?.id, spare.id)
      yield* keys.destroy(actor, spare.id)
      assert.strictEqual((yield* Effect.flip(auth.authenticate(rolled.value!)))._tag, "AuthenticationError")
      // The key that did it is untouched.
      assert.strictEqual(personalApiKeyOf(yield* auth.authenticate(member.key))?.id, member.id)
    }))

  it.effect("last_used_at is written at a key's first use, then at most once an hour, and the API shows it", () =>
    Effect.gen(function*() {
      yield* untilLive
      const member = yield* memberWithKey(organization, "last-used@example.com")
      const auth = yield* Authentication
      const real = yield* Clock.Clock
      /** `effect` run while the wall clock reads `millis`; the rest of the clock is the real one. */
      const at = (millis: number) => <A, E, R>(effect: Effect.Effect<A, E, R>) =>
        Effect.provideService(effect, Clock.Clock, {
          currentTimeMillisUnsafe: () => millis,
          currentTimeMillis: Effect.succeed(millis),
          currentTimeNanosUnsafe: () => real.currentTimeNanosUnsafe(),
          currentTimeNanos: real.currentTimeNanos,
          monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
          monotonicTimeNanos: real.monotonicTimeNanos,
          sleep: (duration) => real.sleep(duration)
        })
      const start = Date.parse("2030-01-01T00:00:00.000Z")
      const minutes = (n: number) => start + n * 60_000
      const before = touches
      const first = yield* at(start)(auth.authenticate(member.key))
      assert.strictEqual(personalApiKeyOf(first)?.last_used_at, "2030-01-01T00:00:00.000000Z")
      assert.strictEqual(touches - before, 1)
      // However often it is used within the hour, and whether or not the first write has been heard of yet:
      // right after it, the holder in memory was read before it, and the write still shows.
      const shown = (n: number) => Effect.map(at(minutes(n))(auth.authenticate(member.key)), (actor) => personalApiKeyOf(actor)?.last_used_at)
      for (const n of [0, 1, 30, 59, 60]) assert.strictEqual(yield* shown(n), "2030-01-01T00:00:00.000000Z")
      yield* Effect.sleep("200 millis")
      for (const n of [1, 30, 60]) assert.strictEqual(yield* shown(n), "2030-01-01T00:00:00.000000Z")
      assert.strictEqual(touches - before, 1)
      const later = yield* at(minutes(61))(auth.authenticate(member.key))
      assert.strictEqual(touches - before, 2)
      const listed = yield* PersonalApiKeyService.use((s) => s.list(later))
      assert.strictEqual(listed.find((key) => key.id === member.id)?.last_used_at, "2030-01-01T01:01:00.000000Z")
    }))

  it.effect("while the feed is lost nothing is served from memory, and after it resumes everything is read afresh", () =>
    Effect.gen(function*() {
      yield* untilLive
      const member = yield* memberWithKey(organization, "lost-feed@example.com")
      const auth = yield* Authentication
      const freshness = yield* Freshness
      yield* warm(member.key)
      freshness.lost()
      assert.strictEqual((yield* counted(Effect.all([auth.authenticate(member.key), auth.authenticate(member.key)]))).lookups, 2)
      freshness.resumed()
      assert.strictEqual((yield* counted(auth.authenticate(member.key))).lookups, 1)
      assert.strictEqual((yield* counted(auth.authenticate(member.key))).lookups, 0)
      // A refused key stays refused: nothing but a found holder is kept.
      const unknown = yield* counted(Effect.exit(auth.authenticate("phx_unknown")))
      assert.isTrue(Exit.isFailure(unknown.value))
    }))

  it.effect("a project's flags are read once for every list; a flag write rereads that flag, and leaves keys alone", () =>
    Effect.gen(function*() {
      yield* untilLive
      const auth = yield* Authentication
      const actor = yield* warm(owner.key)
      const project = owner.project
      const service = yield* FlagService
      const body = (key: string) => Effect.succeed({ key, filters: { groups: [{ properties: [], rollout_percentage: 30 }] } })
      yield* service.create(actor, project, body("memory-first"))
      /** Whole reads and reads by id that `effect` made, and its value. */
      const reads = <A>(effect: Effect.Effect<A, unknown>) =>
        Effect.suspend(() => {
          const before = [projectReads, rowReads]
          return Effect.map(effect, (value) => ({ value, whole: projectReads - before[0]!, rows: rowReads - before[1]! }))
        })
      const list = (query: object) => service.list(actor, project, query)
      assert.strictEqual((yield* reads(list({}))).whole, 1)
      // Any filter, order or page of the same project comes from the same read.
      const same = yield* reads(Effect.all([list({ search: "MEMORY" }), list({ order: "key" }), list({ offset: "1" })]))
      assert.deepStrictEqual([same.whole, same.rows], [0, 0])
      const keyLookups = lookups
      const second = yield* service.create(actor, project, body("memory-second"))
      // The writer goes on once its process has heard of each row its commit wrote (the embedded store names
      // them before the commit returns; a server's feed, before a fence sent after the commit comes back):
      // the new flag alone is read, and the key's holder, read from none of those tables, stays in memory.
      yield* auth.authenticate(owner.key)
      const after = yield* reads(list({ search: "memory-" }))
      assert.deepStrictEqual([lookups - keyLookups, after.whole, after.rows], [0, 0, 1])
      assert.deepStrictEqual(after.value.results.map((flag) => flag.key), ["memory-second", "memory-first"])
      yield* service.update(actor, project, String(second.id), Effect.succeed({ deleted: true }))
      assert.deepStrictEqual((yield* list({ search: "memory-" })).results.map((flag) => flag.key), ["memory-first"])
    }))
}))

layer(hedgerowWithOneProjectHeld({}), { timeout: 60_000, excludeTestServices: true })("projects' flags past the memory budget", (it) => {
  it.effect("the least recently listed project makes way, and is read whole when listed again", () =>
    Effect.gen(function*() {
      yield* untilLive
      const boot = yield* (yield* Bootstrap).run({ email: "budget@example.com" })
      const actor = yield* (yield* Authentication).authenticate(boot.personal_api_key)
      const second = yield* ProjectService.use((s) => s.create(actor, boot.organization_id, Effect.succeed({ name: "Second" })))
      const service = yield* FlagService
      const list = (project: string) => service.list(actor, project, {})
      const wholeReads = (effect: Effect.Effect<unknown, unknown>) =>
        Effect.suspend(() => {
          const before = projectReads
          return Effect.map(effect, () => projectReads - before)
        })
      const first = String(boot.project_id)
      assert.strictEqual(yield* wholeReads(list(first)), 1)
      // The project in use stays, however far past the budget.
      assert.strictEqual(yield* wholeReads(list(first)), 0)
      assert.strictEqual(yield* wholeReads(list(String(second.id))), 1)
      assert.strictEqual(yield* wholeReads(list(first)), 1)
    }))
})
