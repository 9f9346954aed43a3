import { assert, layer } from "@effect/vitest"
import {
  type Actor,
  Authentication,
  bodyOf,
  Bootstrap,
  CoreServices,
  FlagEvaluationService,
  FlagService,
  GroupTypeService,
  type ProjectId,
  ProjectService
} from "@hedgerow/core"
import { GroupTypeRepository } from "@hedgerow/core/ports"
import { Context, Effect, Exit, Layer, Option, Scope } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow, Store, type StoreOptions } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { eventually, untilLive } from "./support.ts"

/** Every call the service made to the group types' repository, by method: the real repository, counted. */
const calls = new Map<string, number>()
const countedGroupTypes = Layer.effect(
  GroupTypeRepository,
  Effect.map(Effect.service(GroupTypeRepository), (repository) => {
    const counted = <A extends ReadonlyArray<unknown>, R>(name: string, method: (...args: A) => R) => (...args: A): R => {
      calls.set(name, (calls.get(name) ?? 0) + 1)
      return method(...args)
    }
    return GroupTypeRepository.of({
      list: counted("list", repository.list),
      listForUpdate: counted("listForUpdate", repository.listForUpdate),
      insertAtFreeIndex: counted("insertAtFreeIndex", repository.insertAtFreeIndex),
      update: counted("update", repository.update),
      delete: counted("delete", repository.delete)
    })
  })
)
const totalCalls = () => [...calls.values()].reduce((sum, n) => sum + n, 0)

const hedgerowCounted = (options: StoreOptions) => {
  const store = Store.layer(options)
  return CoreServices.layerNoDeps.pipe(Layer.provide(countedGroupTypes.pipe(Layer.provide(store))), Layer.provideMerge(store))
}

// One owner per store (each backend's layer has its own), bootstrapped on first use.
const owners = new WeakMap<object, { readonly actor: Actor; readonly key: string; readonly organization: string }>()

/** A new project of the store's one organization, its owner's `*` key, on a live read model. */
const setUp = Effect.gen(function*() {
  yield* untilLive
  const bootstrap = yield* Bootstrap
  let owner = owners.get(bootstrap)
  if (owner === undefined) {
    const boot = yield* bootstrap.run({ email: "owner@groups.example" })
    const actor = yield* Authentication.use((auth) => auth.authenticate(boot.personal_api_key))
    owner = { actor, key: boot.personal_api_key, organization: boot.organization_id }
    owners.set(bootstrap, owner)
  }
  const { actor, organization } = owner
  const created = yield* ProjectService.use((s) => s.create(actor, organization, bodyOf({ name: "Groups" })))
  return { actor, key: owner.key, project: String(created.id), projectId: created.id }
})

const names = (actor: Actor, project: string) =>
  Effect.map(GroupTypeService.use((s) => s.list(actor, project)), (list) => list.map((t) => `${t.group_type_index}:${t.group_type}`))

const refusal = (exit: Exit.Exit<unknown, unknown>) => {
  assert.isTrue(Exit.isFailure(exit))
  const error = Exit.isFailure(exit) ? exit.cause.reasons.map((reason) => reason._tag === "Fail" ? reason.error : reason)[0] : undefined
  const { _tag, code, detail, attr } = error as { _tag: string; code?: string; detail: string; attr?: string | null }
  return { _tag, code, detail, attr }
}

const everyoneInGroup = (index: number) => ({
  aggregation_group_type_index: index,
  groups: [{ properties: [], rollout_percentage: 100 }]
})

const flagsFor = (projectId: ProjectId, groups: Record<string, string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const [{ token }] = (yield* sql<{ token: string }>`SELECT api_token AS token FROM projects WHERE id = ${projectId}`.pipe(Effect.orDie)) as [
      { token: string }
    ]
    const answer = yield* FlagEvaluationService.use((s) =>
      s.flags({ token, distinct_id: "someone", groups }, { "user-agent": "posthog-node/5.70.0" })
    ).pipe(Effect.orDie)
    return new Map(answer.flags.map((flag) => [flag.key, flag]))
  })

forEachBackend((backend) =>
  layer(backend.on(hedgerowCounted), { timeout: 60_000, excludeTestServices: true })(`group types on ${backend.name}`, (it) => {
    it.effect("created through the API at the lowest free index, unique by name, at most five; a deleted index is taken again", () =>
      Effect.gen(function*() {
        const { actor, project } = yield* setUp
        const service = yield* GroupTypeService
        assert.isFalse((yield* ProjectService.use((s) => s.retrieveVisible(actor, project))).has_group_types)
        const company = yield* service.create(actor, project, bodyOf({ group_type: "  company " }))
        // Trimmed, as PostHog trims a text field; the whole answer's shape is the conformance scenarios'.
        assert.deepStrictEqual([company.group_type, company.group_type_index, company.name_singular], ["company", 0, null])
        assert.deepStrictEqual(refusal(yield* Effect.exit(service.create(actor, project, bodyOf({ group_type: "company" })))), {
          _tag: "ValidationError",
          code: "unique",
          detail: "There is already a group type with this name.",
          attr: "group_type"
        })
        for (const name of ["team", "region", "store", "device"]) yield* service.create(actor, project, bodyOf({ group_type: name }))
        assert.deepStrictEqual(yield* names(actor, project), ["0:company", "1:team", "2:region", "3:store", "4:device"])
        assert.deepStrictEqual(refusal(yield* Effect.exit(service.create(actor, project, bodyOf({ group_type: "sixth" })))), {
          _tag: "ValidationError",
          code: "invalid_input",
          detail: "A project can have at most 5 group types.",
          attr: null
        })
        yield* service.destroy(actor, project, "1")
        assert.deepStrictEqual(refusal(yield* Effect.exit(service.destroy(actor, project, "1"))), {
          _tag: "NotFound",
          code: undefined,
          detail: "Group type not found",
          attr: undefined
        })
        yield* service.create(actor, project, bodyOf({ group_type: "sixth" }))
        assert.deepStrictEqual(yield* names(actor, project), ["0:company", "1:sixth", "2:region", "3:store", "4:device"])
        assert.isTrue((yield* ProjectService.use((s) => s.retrieveVisible(actor, project))).has_group_types)
      }))

    it.effect("update_metadata writes every row or none; set_default_columns sets one group type's columns", () =>
      Effect.gen(function*() {
        const { actor, project } = yield* setUp
        const service = yield* GroupTypeService
        yield* service.create(actor, project, bodyOf({ group_type: "company" }))
        yield* service.create(actor, project, bodyOf({ group_type: "team" }))
        const updated = yield* service.updateMetadata(actor, project, bodyOf([
          { group_type_index: 0, name_singular: "Company", name_plural: "Companies" },
          { group_type_index: 1, name_plural: "Teams" },
          { group_type_index: 0, name_singular: "Firm" }
        ]))
        assert.deepStrictEqual(updated.map((t) => [t.group_type, t.name_singular, t.name_plural]), [
          ["company", "Firm", "Companies"],
          ["team", null, "Teams"]
        ])
        // The second row is refused, so the first is not written either.
        const refused = yield* Effect.exit(service.updateMetadata(actor, project, bodyOf([
          { group_type_index: 0, name_singular: "Changed" },
          { group_type_index: 1, name_plural: "x".repeat(401) }
        ])))
        assert.deepStrictEqual(refusal(refused), {
          _tag: "ValidationError",
          code: "max_length",
          detail: "Ensure this field has no more than 400 characters.",
          attr: "name_plural"
        })
        const unknown = yield* Effect.exit(service.updateMetadata(actor, project, bodyOf([{ group_type_index: 0, name_singular: null }, { group_type_index: 4 }])))
        assert.deepStrictEqual(refusal(unknown), { _tag: "NotFound", code: undefined, detail: "Group type not found", attr: undefined })
        assert.deepStrictEqual((yield* service.list(actor, project)).map((t) => t.name_singular), ["Firm", null])

        const columns = yield* service.setDefaultColumns(actor, project, bodyOf({ group_type_index: 1, default_columns: ["name", "size"] }))
        assert.deepStrictEqual([columns.group_type, columns.name_plural, columns.default_columns], ["team", "Teams", ["name", "size"]])
        const cleared = yield* service.setDefaultColumns(actor, project, bodyOf({ group_type_index: 1, default_columns: null }))
        assert.isNull(cleared.default_columns)
      }))

    it.effect("register: a name the project has is answered from memory, without a query; a new one takes the next index once; none past five", () =>
      Effect.gen(function*() {
        const { projectId } = yield* setUp
        const service = yield* GroupTypeService
        assert.deepStrictEqual(yield* service.register(projectId, "company"), Option.some(0))
        // The write dropped what memory held: the next call reads the project's group types once.
        assert.deepStrictEqual(yield* service.register(projectId, "company"), Option.some(0))
        const before = totalCalls()
        for (let i = 0; i < 1000; i++) assert.deepStrictEqual(yield* service.register(projectId, "company"), Option.some(0))
        assert.strictEqual(totalCalls() - before, 0)
        // Names are taken as SDKs send them: a space makes another name, and an index is no name.
        assert.deepStrictEqual(yield* service.register(projectId, "company "), Option.some(1))
        assert.deepStrictEqual(yield* service.register(projectId, ""), Option.none())
        assert.deepStrictEqual(yield* service.register(projectId, "x".repeat(401)), Option.none())
        assert.deepStrictEqual(yield* service.register(projectId, "nul\u0000"), Option.none())
        for (const name of ["a", "b", "c"]) yield* service.register(projectId, name)
        const writes = () => calls.get("insertAtFreeIndex") ?? 0
        const full = writes()
        for (let i = 0; i < 100; i++) assert.deepStrictEqual(yield* service.register(projectId, `sixth-${i}`), Option.none())
        assert.strictEqual(writes() - full, 0)
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM group_types WHERE project_id = ${projectId}`
        assert.strictEqual(rows[0]!.n, 5)
      }))

    it.effect("evaluation reads names: a group flag is on for its group by name, the definitions carry the mapping, and a deleted type leaves the flag off", () =>
      Effect.gen(function*() {
        const { actor, project, projectId } = yield* setUp
        const flags = yield* FlagService
        yield* flags.create(actor, project, bodyOf({ key: "for-companies", filters: everyoneInGroup(0) }))
        const definitionsOf = FlagEvaluationService.use((s) => s.definitions(actor, { project, sendCohorts: false }))
        const before = yield* definitionsOf
        assert.deepStrictEqual(before.body.group_type_mapping, {})
        const off = (yield* flagsFor(projectId, { company: "acme" })).get("for-companies")!
        assert.deepStrictEqual([off.enabled, off.reason.code], [false, "no_group_type"])

        yield* GroupTypeService.use((s) => s.register(projectId, "company"))
        yield* eventually(Effect.map(definitionsOf, (after) => after.etag !== before.etag))
        const after = yield* definitionsOf
        assert.deepStrictEqual(after.body.group_type_mapping, { "0": "company" })
        const on = (yield* flagsFor(projectId, { company: "acme" })).get("for-companies")!
        assert.deepStrictEqual([on.enabled, on.reason.code], [true, "condition_match"])
        // The index is no name for the group.
        assert.isFalse((yield* flagsFor(projectId, { "0": "acme" })).get("for-companies")!.enabled)

        yield* GroupTypeService.use((s) => s.destroy(actor, project, "0"))
        yield* eventually(Effect.map(definitionsOf, (later) => Object.keys(later.body.group_type_mapping).length === 0))
        const gone = (yield* flagsFor(projectId, { company: "acme" })).get("for-companies")!
        assert.deepStrictEqual([gone.enabled, gone.reason.code], [false, "no_group_type"])
      }))
  })
)

/** The options of a new, empty database, for a test that opens several stores on it. */
class EmptyDatabase extends Context.Service<EmptyDatabase, StoreOptions>()("test/group-types/EmptyDatabase") {}

const STORES = 4
const ROUNDS = 16

forEachBackend((backend) => {
  if (backend.name === "pglite") return
  layer(backend.on((options) => Layer.succeed(EmptyDatabase, options)), { timeout: 120_000, excludeTestServices: true })(
    `group types registered by several processes at once on ${backend.name}`,
    (it) => {
      it.effect(`${STORES} stores registering 8 names at once: five group types at indexes 0-4, each name at one index, and every process reads them`, () =>
        Effect.gen(function*() {
          const options = yield* EmptyDatabase
          const scope = yield* Scope.make()
          // Each store is its own pool, as separate server processes would be.
          const stores = yield* Effect.forEach(
            Array.from({ length: STORES }, () => Hedgerow.layer({ ...options, poolSize: 3 })),
            (store) => Layer.buildWithScope(store, scope),
            { concurrency: "unbounded" }
          )
          const run = <A, E, R>(i: number, effect: Effect.Effect<A, E, R>) => Effect.provide(effect, stores[i]!)
          const { key, project, projectId } = yield* run(0, setUp)
          /** Waits until store `i` evaluates with this group type mapping. */
          const readsMapping = (i: number, mapping: Record<string, string>) =>
            run(i, eventually(Effect.map(FlagEvaluationService.use((s) => s.snapshot(projectId)), (snapshot) =>
              JSON.stringify(snapshot.prepared.groupTypes) === JSON.stringify(mapping))))
          for (let round = 0; round < ROUNDS; round++) {
            const target = (yield* run(0, SqlClient.SqlClient)) as SqlClient.SqlClient
            yield* target`DELETE FROM group_types WHERE project_id = ${projectId}`.pipe(Effect.orDie)
            yield* Effect.forEach(stores, (_, i) => readsMapping(i, {}))
            const wanted = Array.from({ length: 8 }, (_, i) => `type-${round}-${i}`)
            const attempts = wanted.flatMap((name, i) => Array.from({ length: STORES }, (_, s) => ({ name, store: (s + i) % STORES })))
            const answers = yield* Effect.forEach(
              attempts,
              ({ name, store }) => run(store, Effect.map(GroupTypeService.use((s) => s.register(projectId, name)), (index) => ({ name, index }))),
              { concurrency: "unbounded" }
            )
            const rows = yield* target<{ group_type: string; group_type_index: number }>`
              SELECT group_type, group_type_index FROM group_types WHERE project_id = ${projectId} ORDER BY group_type_index`.pipe(Effect.orDie)
            assert.deepStrictEqual(rows.map((row) => row.group_type_index), [0, 1, 2, 3, 4])
            const stored = new Map(rows.map((row) => [row.group_type, row.group_type_index]))
            // Every caller was told the index its name holds, or none for a name that found no room.
            for (const { name, index } of answers) {
              assert.deepStrictEqual(index, stored.has(name) ? Option.some(stored.get(name)!) : Option.none(), name)
            }
            // Every process reads the same mapping, through its change feed.
            const mapping = Object.fromEntries(rows.map((row) => [String(row.group_type_index), row.group_type]))
            yield* Effect.forEach(stores, (_, i) => readsMapping(i, mapping))
          }
          const listed = yield* run(STORES - 1, Effect.gen(function*() {
            const actor = yield* Authentication.use((auth) => auth.authenticate(key))
            return yield* names(actor, project)
          }))
          assert.strictEqual(listed.length, 5)
          yield* Scope.close(scope, Exit.void)
        }))
    }
  )
})
