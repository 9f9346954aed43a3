import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  bodyOf,
  Bootstrap,
  FlagAccessControlsService,
  FlagActions,
  FlagRoleAccessService,
  FlagService,
  MemberService,
  type OrganizationId,
  PersonalApiKeyService,
  RoleService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { RoleRepository } from "@hedgerow/core/ports"
import { Effect, Layer } from "effect"
import { forEachBackend } from "../src/testing/index.ts"
import { hedgerowWrapping } from "./support.ts"

/** How many times a caller's roles were read, over the store's own repository. */
let roleReads = 0
const counted = Layer.effect(
  RoleRepository,
  Effect.map(Effect.service(RoleRepository), (roles) => ({
    ...roles,
    callerRoles: (...args: Parameters<typeof roles.callerRoles>) => Effect.suspend(() => (roleReads++, roles.callerRoles(...args)))
  }))
)

const hedgerowCounted = hedgerowWrapping(counted, 300)

/** A member of the organization, at the lowest level, with a key of their own. */
const memberOf = (organization: OrganizationId, email: string) =>
  Effect.gen(function*() {
    yield* UserService.use((s) => s.create(systemActor, { email }))
    yield* MemberService.use((s) => s.add(systemActor, organization, { email, level: 1 }))
    const key = yield* PersonalApiKeyService.use((s) => s.create(systemActor, { email, scopes: ["*"] }))
    return yield* Authentication.use((a) => a.authenticate(key.personal_api_key))
  })

/** The roles read while `request` runs. */
const readsOf = <A, E, R>(request: Effect.Effect<A, E, R>) =>
  Effect.gen(function*() {
    const before = roleReads
    const exit = yield* Effect.exit(request)
    return { exit, reads: roleReads - before }
  })

forEachBackend((backend) =>
layer(backend.on(hedgerowCounted), { timeout: 60_000 })(`a flag's edit rights on ${backend.name}`, (it) => {
  it.effect("a member's request reads their roles once, and what it writes, refuses and answers follows from that one read", () =>
    Effect.gen(function*() {
      const boot = yield* (yield* Bootstrap).run({ email: "owner@rights.example" })
      const owner = yield* Authentication.use((a) => a.authenticate(boot.personal_api_key))
      const member = yield* memberOf(boot.organization_id, "member@rights.example")
      const project = String(boot.project_id)
      const flags = yield* FlagService
      const granted = yield* flags.create(owner, project, bodyOf({ key: "granted" }))
      const withheld = yield* flags.create(owner, project, bodyOf({ key: "withheld" }))
      // "Can only view": the member edits the flags that grant their role access, and those alone.
      const role = yield* RoleService.use((s) => s.create(owner, boot.organization_id, bodyOf({ name: "Viewers", feature_flags_access_level: 21 })))
      yield* RoleService.use((s) => s.addMembership(owner, boot.organization_id, role.id, bodyOf({ user_uuid: member.user.uuid })))
      yield* FlagRoleAccessService.use((s) => s.create(owner, project, String(granted.id), bodyOf({ role_id: role.id })))

      const patched = yield* readsOf(flags.update(member, project, String(granted.id), bodyOf({ name: "renamed" })))
      assert.strictEqual(patched.reads, 1)
      assert.isTrue(patched.exit._tag === "Success" && patched.exit.value.name === "renamed" && patched.exit.value.can_edit)

      const refused = yield* readsOf(flags.update(member, project, String(withheld.id), bodyOf({ name: "no" })))
      assert.strictEqual(refused.reads, 1)
      assert.isTrue(refused.exit._tag === "Failure")
      assert.strictEqual((yield* flags.retrieve(owner, project, String(withheld.id))).name, "")

      const action = yield* readsOf(FlagActions.use((s) => s.createStaticCohort(member, project, String(granted.id))))
      assert.deepStrictEqual([action.reads, action.exit._tag], [1, "Success"])

      const global = yield* readsOf(FlagAccessControlsService.use((s) => s.global(member, project, String(granted.id))))
      assert.strictEqual(global.reads, 1)
      assert.isTrue(global.exit._tag === "Success" && global.exit.value.can_edit && global.exit.value.user_access_level === "viewer")

      // The owner, and anyone on their own flag, is never asked for roles.
      const own = yield* readsOf(flags.update(owner, project, String(withheld.id), bodyOf({ name: "owner's" })))
      assert.deepStrictEqual([own.reads, own.exit._tag], [0, "Success"])
    }))
}))
