import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  bodyOf,
  Bootstrap,
  FlagRoleAccessService,
  FlagService,
  MemberService,
  PersonalApiKeyService,
  RoleService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { Effect, Exit, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

/** Rows that still name the role: the role itself, its memberships and the flags' grants to it. */
const traces = (role: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const count = (rows: ReadonlyArray<{ n: number }>) => rows[0]!.n
    return {
      roles: count(yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM roles WHERE id = ${role}`),
      memberships: count(yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM role_memberships WHERE role_id = ${role}`),
      grants: count(yield* sql<{ n: number }>`SELECT count(*)::integer AS n FROM feature_flag_role_access WHERE role_id = ${role}`)
    }
  }).pipe(Effect.orDie)

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000 })(`roles on ${backend.name}`, (it) => {
  it.effect("deleting a role takes its memberships and every flag's grant to it in one transaction", () =>
    Effect.gen(function*() {
      const boot = yield* (yield* Bootstrap).run({ email: "owner@roles.example" })
      const owner = yield* Authentication.use((a) => a.authenticate(boot.personal_api_key))
      yield* UserService.use((s) => s.create(systemActor, { email: "viewer@roles.example" }))
      yield* MemberService.use((s) => s.add(systemActor, boot.organization_id, { email: "viewer@roles.example", level: 1 }))
      const viewerKey = yield* PersonalApiKeyService.use((s) => s.create(systemActor, { email: "viewer@roles.example", scopes: ["*"] }))
      const project = String(boot.project_id)
      const flags = yield* FlagService
      const granted = yield* flags.create(owner, project, bodyOf({ key: "granted" }))
      const other = yield* flags.create(owner, project, bodyOf({ key: "other" }))
      const roles = yield* RoleService
      const role = yield* roles.create(owner, boot.organization_id, bodyOf({ name: "Viewers", feature_flags_access_level: 21 }))
      const viewer = yield* Authentication.use((a) => a.authenticate(viewerKey.personal_api_key))
      yield* roles.addMembership(owner, boot.organization_id, role.id, bodyOf({ user_uuid: viewer.user.uuid }))
      for (const flag of [granted, other]) {
        yield* FlagRoleAccessService.use((s) => s.create(owner, project, String(flag.id), bodyOf({ role_id: role.id })))
      }
      // The role is what lets the viewer edit: without a grant, "can only view" refuses.
      const third = yield* flags.create(owner, project, bodyOf({ key: "third" }))
      const refused = yield* Effect.flip(flags.update(viewer, project, String(third.id), bodyOf({ name: "no" })))
      assert.strictEqual(refused._tag, "PermissionDenied")
      yield* flags.update(viewer, project, String(granted.id), bodyOf({ name: "yes" }))
      assert.deepStrictEqual(yield* traces(role.id), { roles: 1, memberships: 1, grants: 2 })

      // A failure while the grants go must leave the role whole.
      const sql = yield* SqlClient.SqlClient
      yield* sql.unsafe(`
        CREATE FUNCTION refuse_grant_removal() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused'; END $$`)
      yield* sql.unsafe(`
        CREATE TRIGGER refuse_grant_removal BEFORE DELETE ON feature_flag_role_access
        FOR EACH ROW EXECUTE FUNCTION refuse_grant_removal()`)
      const failed = yield* Effect.exit(roles.destroy(owner, boot.organization_id, role.id))
      yield* sql.unsafe(`DROP TRIGGER refuse_grant_removal ON feature_flag_role_access`)
      yield* sql.unsafe(`DROP FUNCTION refuse_grant_removal()`)
      assert.isTrue(Exit.hasDies(failed))
      assert.deepStrictEqual(yield* traces(role.id), { roles: 1, memberships: 1, grants: 2 })

      yield* roles.destroy(owner, boot.organization_id, role.id)
      assert.deepStrictEqual(yield* traces(role.id), { roles: 0, memberships: 0, grants: 0 })
      // The flags stay; the viewer, in no role now, edits as the organization's default allows.
      yield* flags.update(viewer, project, String(third.id), bodyOf({ name: "now allowed" }))
      assert.strictEqual((yield* flags.retrieve(owner, project, String(granted.id))).name, "yes")
    }))

  it.effect("two members joining one role at once, twice each: one membership each, the rest PostHog's 400; a role deleted meanwhile", () =>
    Effect.gen(function*() {
      const boot = yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ id: string }>`SELECT id FROM organizations ORDER BY created_at LIMIT 1`).pipe(Effect.orDie)
      const organization = boot[0]!.id
      const roles = yield* RoleService
      const role = yield* roles.create(systemActor, organization, bodyOf({ name: "Racers" }))
      const users = yield* Effect.forEach(["one@race.example", "two@race.example"], (email) =>
        Effect.gen(function*() {
          const user = yield* UserService.use((s) => s.create(systemActor, { email }))
          yield* MemberService.use((s) => s.add(systemActor, organization, { email, level: 1 }))
          return user
        }))
      const attempts = users.flatMap((user) => [user, user]).map((user) =>
        Effect.result(roles.addMembership(systemActor, organization, role.id, bodyOf({ user_uuid: user.uuid }))))
      const outcomes = yield* Effect.all(attempts, { concurrency: "unbounded" })
      const refusals = outcomes.filter((outcome) => outcome._tag === "Failure").map((outcome) => outcome.failure)
      assert.deepStrictEqual(refusals.map((failure) => [failure._tag, failure.detail]), [
        ["ValidationError", "User is already part of the role."],
        ["ValidationError", "User is already part of the role."]
      ])
      assert.deepStrictEqual(yield* traces(role.id), { roles: 1, memberships: 2, grants: 0 })

      // A role deleted while members join it: each join comes before (and goes with it) or after (404), never a 500.
      for (let round = 0; round < 3; round++) {
        const doomed = yield* roles.create(systemActor, organization, bodyOf({ name: `Doomed ${round}` }))
        const joins = users.map((user) =>
          Effect.exit(roles.addMembership(systemActor, organization, doomed.id, bodyOf({ user_uuid: user.uuid }))))
        const { removed, joined } = yield* Effect.all({
          removed: Effect.exit(roles.destroy(systemActor, organization, doomed.id)),
          joined: Effect.all(joins, { concurrency: "unbounded" })
        }, { concurrency: "unbounded" })
        assert.isTrue(Exit.isSuccess(removed))
        for (const exit of joined) {
          assert.isFalse(Exit.hasDies(exit))
          if (Exit.isFailure(exit)) assert.strictEqual(Option.getOrThrow(Exit.findErrorOption(exit))._tag, "NotFound")
        }
        assert.deepStrictEqual(yield* traces(doomed.id), { roles: 0, memberships: 0, grants: 0 })
      }
    }))
}))
