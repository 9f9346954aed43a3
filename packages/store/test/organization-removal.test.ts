import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  BatchExportService,
  bodyOf,
  Bootstrap,
  DomainService,
  FlagActions,
  FlagRoleAccessService,
  FlagService,
  InviteService,
  LiveFlags,
  MemberService,
  OrganizationService,
  type OrganizationId,
  PersonalApiKeyService,
  type ProjectId,
  ProjectService,
  RoleService,
  systemActor,
  type UserActor,
  UserService
} from "@hedgerow/core"
import { Effect, Exit, Layer, Schedule } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow, type StoreOptions } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { currentOf, untilLive } from "./support.ts"

/** Hedgerow with a read model of projects' flags of the test's own, to see what it holds. */
const withLiveFlags = (options: StoreOptions) => LiveFlags.layerNoDeps.pipe(Layer.provideMerge(Hedgerow.layer(options)))

/** A user with a `*` key (restricted as asked), authenticated. */
const userWithKey = (email: string, restrictions: object = {}) =>
  Effect.gen(function*() {
    const user = yield* UserService.use((s) => s.create(systemActor, { email }))
    const key = yield* PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes: ["*"], ...restrictions }))
    return { user, key, actor: yield* Authentication.use((a) => a.authenticate(key.personal_api_key)) }
  })

const keyFor = (email: string, restrictions: object) =>
  PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes: ["*"], ...restrictions }))

/** Everything an organization can hold, made through core: what removal must take away. */
const populate = (founder: UserActor, organization: string, project: ProjectId, member: string) =>
  Effect.gen(function*() {
    const second = yield* ProjectService.use((s) => s.create(founder, organization, bodyOf({ name: "Second" })))
    yield* MemberService.use((s) => s.add(systemActor, organization, { email: member, level: 1 }))
    const flag = yield* FlagService.use((s) => s.create(founder, String(project), bodyOf({ key: "doomed", name: "Doomed" })))
    yield* FlagService.use((s) => s.update(founder, String(project), String(flag.id), bodyOf({ name: "Still doomed" })))
    yield* FlagActions.use((s) => s.createStaticCohort(founder, String(project), String(flag.id)))
    const role = yield* RoleService.use((s) => s.create(founder, organization, bodyOf({ name: "Doomed role" })))
    yield* RoleService.use((s) => s.addMember(systemActor, role.id, { email: member }))
    yield* FlagRoleAccessService.use((s) => s.create(founder, String(project), String(flag.id), bodyOf({ role_id: role.id })))
    yield* DomainService.use((s) => s.create(founder, organization, bodyOf({ domain: `doomed-${organization.slice(0, 8)}.example` })))
    const invite = yield* InviteService.use((s) => s.create(founder, organization, bodyOf({ target_email: "invited@doomed.example" })))
    yield* BatchExportService.use((s) => s.create(systemActor, organization, { project_id: second.id, name: "Doomed export" }))
    return { second: second.id, flag: flag.id, role: role.id, invite: invite.id }
  })

/** Rows of every table of the store whose text holds any of `needles` (ids, names, tokens). */
const rowsHolding = (needles: ReadonlyArray<string>) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tables = yield* sql<{ name: string }>`
      SELECT table_name AS name FROM information_schema.tables
      WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name`
    const found: Array<string> = []
    for (const { name } of tables) {
      const rows = yield* sql<{ row: string }>`SELECT t::text AS row FROM ${sql(name)} t`
      for (const { row } of rows) if (needles.some((needle) => row.includes(needle))) found.push(`${name}: ${row}`)
    }
    return found
  }).pipe(Effect.orDie)

const keysOf = (email: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql<{ label: string; scoped_organizations: ReadonlyArray<string> | null; scoped_teams: ReadonlyArray<number> | null }>`
      SELECT k.label, k.scoped_organizations, k.scoped_teams FROM personal_api_keys k JOIN users u ON u.id = k.user_id
      WHERE u.email = ${email} ORDER BY k.label`
  }).pipe(Effect.orDie)

forEachBackend((backend) =>
layer(backend.on(withLiveFlags), { timeout: 60_000, excludeTestServices: true })(`organization removal on ${backend.name}`, (it) => {
  let keep = { organization: "", project: 0 as ProjectId }

  it.effect("bootstraps the organization that stays", () =>
    Effect.gen(function*() {
      const boot = yield* (yield* Bootstrap).run({ email: "owner@keep.example", organizationName: "Keep" })
      keep = { organization: boot.organization_id, project: boot.project_id }
    }))

  it.effect("leaves nothing of the organization behind, narrows or revokes the keys restricted to it and moves its members on", () =>
    Effect.gen(function*() {
      yield* untilLive
      const founder = yield* userWithKey("founder@doomed.example")
      const found = yield* OrganizationService.use((s) => s.found(founder.actor, bodyOf({ name: "Doomed Org 7f3a" })))
      const founderNow = yield* Authentication.use((a) => a.authenticate(founder.key.personal_api_key))
      const project = (yield* currentOf("founder@doomed.example")).current_project_id as ProjectId
      yield* UserService.use((s) => s.create(systemActor, { email: "other@doomed.example" }))
      const made = yield* populate(founderNow, found.id, project, "other@doomed.example")
      // The member works in the doomed organization and belongs to the one that stays too.
      yield* MemberService.use((s) => s.add(systemActor, keep.organization, { email: "other@doomed.example", level: 1 }))
      const both = [found.id, keep.organization]
      const restrictions: ReadonlyArray<readonly [string, object]> = [
        ["1 doomed only", { scoped_organizations: [found.id] }],
        ["2 doomed and kept", { scoped_organizations: both }],
        ["3 doomed project only", { scoped_teams: [project] }],
        ["4 doomed and kept projects", { scoped_teams: [project, made.second, keep.project] }],
        ["5 kept organization, doomed project", { scoped_organizations: [keep.organization], scoped_teams: [made.second] }],
        ["6 unrestricted", {}],
        ["7 kept only", { scoped_organizations: [keep.organization], scoped_teams: [keep.project] }]
      ]
      for (const [label, restriction] of restrictions) yield* keyFor("other@doomed.example", { label, ...restriction })
      const other = (yield* keysOf("other@doomed.example")).length
      assert.strictEqual(other, 7)
      const sql = yield* SqlClient.SqlClient
      const tokens = yield* sql<{ api_token: string }>`SELECT api_token FROM projects WHERE organization_id = ${found.id}`
      assert.strictEqual(tokens.length, 2)
      const before = yield* rowsHolding([found.id])
      // Its members, projects, flags, roles, invites, domains, exports and activity all name it.
      for (const table of ["memberships", "projects", "roles", "invites", "domains", "batch_exports", "activity_log", "personal_api_keys", "users"]) {
        assert.isTrue(before.some((row) => row.startsWith(`${table}: `)), `${table} holds the organization before`)
      }
      const outbox = yield* sql`SELECT id FROM email_outbox WHERE related_id = ${made.invite}`
      assert.strictEqual(outbox.length, 1)

      yield* OrganizationService.use((s) => s.destroy(founderNow, found.id))

      const needles = [found.id, "Doomed Org 7f3a", ...tokens.map((t) => t.api_token), made.role, made.invite]
      assert.deepStrictEqual(yield* rowsHolding(needles), [])
      for (const [table, column, ids] of [
        ["feature_flags", "project_id", [project, made.second]],
        ["dashboards", "project_id", [project, made.second]],
        ["cohorts", "project_id", [project, made.second]],
        ["feature_flag_role_access", "feature_flag_id", [made.flag]]
      ] as const) {
        const left = yield* sql`SELECT 1 FROM ${sql(table)} WHERE ${sql(column)} = ANY(${ids}::integer[])`
        assert.strictEqual(left.length, 0, `${table} is empty of it`)
      }
      assert.deepStrictEqual(yield* keysOf("other@doomed.example"), [
        { label: "2 doomed and kept", scoped_organizations: [keep.organization], scoped_teams: null },
        { label: "4 doomed and kept projects", scoped_organizations: null, scoped_teams: [keep.project] },
        { label: "6 unrestricted", scoped_organizations: null, scoped_teams: null },
        { label: "7 kept only", scoped_organizations: [keep.organization], scoped_teams: [keep.project] }
      ])
      assert.deepStrictEqual(yield* currentOf("other@doomed.example"), { current_organization_id: keep.organization, current_project_id: null })
      assert.deepStrictEqual(yield* currentOf("founder@doomed.example"), { current_organization_id: null, current_project_id: null })
      // The organization that stays keeps everything.
      const kept = yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM projects WHERE organization_id = ${keep.organization}`
      assert.strictEqual(kept[0]!.n, 1)
      // Memory forgot it too: the keys' holders lost the membership at once.
      const again = yield* Authentication.use((a) => a.authenticate(founder.key.personal_api_key))
      assert.isFalse(again.memberships.has(found.id as OrganizationId))
    }))

  it.effect("is one transaction: a failure at the last statement leaves keys, e-mail, pointers and rows as they were", () =>
    Effect.gen(function*() {
      const founder = yield* userWithKey("founder@atomic.example")
      const found = yield* OrganizationService.use((s) => s.found(founder.actor, bodyOf({ name: "Atomic" })))
      const founderNow = yield* Authentication.use((a) => a.authenticate(founder.key.personal_api_key))
      yield* keyFor("founder@atomic.example", { label: "restricted", scoped_organizations: [found.id] })
      yield* InviteService.use((s) => s.create(founderNow, found.id, bodyOf({ target_email: "invited@atomic.example" })))
      const sql = yield* SqlClient.SqlClient
      const snapshot = rowsHolding([found.id])
      const before = yield* snapshot
      const outbox = yield* sql`SELECT count(*)::integer AS n FROM email_outbox WHERE recipient = 'invited@atomic.example'`
      // The organization's own row is deleted last; refusing it must undo everything done before.
      yield* sql.unsafe(`
        CREATE FUNCTION refuse_atomic() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF OLD.name = 'Atomic' THEN RAISE EXCEPTION 'refused'; END IF; RETURN OLD; END $$`)
      yield* sql.unsafe(`CREATE TRIGGER refuse_atomic BEFORE DELETE ON organizations FOR EACH ROW EXECUTE FUNCTION refuse_atomic()`)
      const failed = yield* Effect.exit(OrganizationService.use((s) => s.destroy(founderNow, found.id)))
      yield* sql.unsafe(`DROP TRIGGER refuse_atomic ON organizations`)
      yield* sql.unsafe(`DROP FUNCTION refuse_atomic()`)
      assert.isTrue(Exit.hasDies(failed))
      assert.deepStrictEqual(yield* snapshot, before)
      assert.deepStrictEqual(yield* sql`SELECT count(*)::integer AS n FROM email_outbox WHERE recipient = 'invited@atomic.example'`, outbox)
      assert.strictEqual((yield* keysOf("founder@atomic.example")).length, 2)

      yield* OrganizationService.use((s) => s.destroy(founderNow, found.id))
      assert.deepStrictEqual(yield* rowsHolding([found.id]), [])
      assert.deepStrictEqual((yield* keysOf("founder@atomic.example")).map((key) => key.label), [""])
    }))

  it.effect("decides the owner level again under the lock: an owner demoted since their key was read may not delete", () =>
    Effect.gen(function*() {
      const founder = yield* userWithKey("founder@demoted.example")
      const found = yield* OrganizationService.use((s) => s.found(founder.actor, bodyOf({ name: "Demoted" })))
      const stale = yield* Authentication.use((a) => a.authenticate(founder.key.personal_api_key))
      yield* UserService.use((s) => s.create(systemActor, { email: "second@demoted.example" }))
      yield* MemberService.use((s) => s.add(systemActor, found.id, { email: "second@demoted.example", level: 15 }))
      yield* MemberService.use((s) => s.update(systemActor, found.id, founder.user.uuid, bodyOf({ level: 8 })))
      assert.strictEqual(stale.memberships.get(found.id as OrganizationId), 15)
      const refused = yield* Effect.flip(OrganizationService.use((s) => s.destroy(stale, found.id)))
      assert.deepInclude(refused, { _tag: "PermissionDenied", detail: "Your organization access level is insufficient." })
      assert.strictEqual((yield* rowsHolding([found.id])).filter((row) => row.startsWith("organizations: ")).length, 1)
      yield* OrganizationService.use((s) => s.destroy(systemActor, found.id))
    }))

  it.effect("a removed project's flags leave the read model's memory", () =>
    Effect.gen(function*() {
      yield* untilLive
      const founder = yield* userWithKey("founder@memory.example")
      const found = yield* OrganizationService.use((s) => s.found(founder.actor, bodyOf({ name: "Remembered" })))
      const project = (yield* currentOf("founder@memory.example")).current_project_id as ProjectId
      const live = yield* LiveFlags
      yield* live.of(project)
      yield* live.of(keep.project)
      assert.includeMembers([...live.held()], [project, keep.project])
      yield* OrganizationService.use((s) => s.destroy(systemActor, found.id))
      // Asking for any project after the removal lets the read model look for projects that are gone.
      const forgotten = Effect.suspend(() => live.of(keep.project)).pipe(
        Effect.flatMap(() => (live.held().includes(project) ? Effect.fail("still held") : Effect.void)),
        Effect.retry(Schedule.spaced("100 millis")),
        Effect.timeout("5 seconds")
      )
      yield* forgotten
      assert.include([...live.held()], keep.project)
    }))
}))
