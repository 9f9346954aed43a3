import {
  Authentication,
  BatchExportService,
  bodyOf,
  Bootstrap,
  MemberService,
  OrganizationService,
  PersonalApiKeyService,
  ProjectService,
  RoleService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { Effect } from "effect"

/**
 * The fixtures scenarios run against: two organizations with a project each, their owners, a plain
 * member, a user in both, and keys with narrow scopes or restrictions. Made by the operator (core,
 * in-process), because users and organizations have no API endpoints, and keys only for their caller.
 */
export interface World {
  readonly orgA: string
  readonly orgB: string
  readonly projectA: number
  readonly projectB: number
  /**
   * Batch exports, operator-made (they have no create endpoint): one in each organization, and a newer
   * second one in A, so that A's list has an order and a second page.
   */
  readonly batchExports: { readonly a: string; readonly b: string; readonly newerA: string }
  /** A user of no organization with a `*` key, who founds organizations over the API (and deletes them again). */
  readonly founder: MemberFixture
  /** Users of A only the member and invite scenarios touch (they change levels and remove members). */
  readonly members: MemberFixtures
  /** Legacy feature-flag roles (role ids, uuid): PostHog's `feature_flags_access_level` 21 "can only view", 37 "can always edit". */
  readonly roles: {
    /** In A, level 21; its only member is the user of `keys.memberA` (member@a.example, level 1). */
    readonly viewA: string
    /** In A, level 37, no members. */
    readonly editA: string
    /** In B, level 37, no members. */
    readonly roleB: string
  }
  readonly keys: {
    /** Owner of A, scope `*`. */
    readonly ownerA: string
    /** Owner of B, scope `*`. */
    readonly ownerB: string
    /** Level-1 member of A, scope `*`. */
    readonly memberA: string
    readonly projectReadA: string
    readonly projectWriteA: string
    readonly flagReadA: string
    /** Owner of A, scope `activity_log:read` only. */
    readonly activityReadA: string
    /** Owner of A, scope `cohort:read` only. */
    readonly cohortReadA: string
    /** Owner of A, scope `access_control:read` only. */
    readonly accessControlReadA: string
    /** Member of both A and B, key restricted to organization B. */
    readonly bothScopedToB: string
    /** Member of both A and B, key restricted to project B. */
    readonly bothScopedToProjectB: string
  }
}

/** A user of organization A with one `*` key. */
export interface MemberFixture {
  readonly key: string
  readonly uuid: string
  readonly email: string
}

/**
 * Dedicated members of A, so no other scenario's users change: `member` (1), `admin` (8) and `owner` (15)
 * are changed only and put back; `leaver` (1), `removable` (1) and `leavingOwner` (15) are each removed once.
 */
export interface MemberFixtures {
  readonly member: MemberFixture
  readonly admin: MemberFixture
  readonly owner: MemberFixture
  readonly leaver: MemberFixture
  readonly removable: MemberFixture
  readonly leavingOwner: MemberFixture
  /** Level 1, one `*` key; only the personal API key scenarios make and remove its keys. */
  readonly keyHolder: MemberFixture
  /** Level 1, one `*` key and no password; only the key-reach scenario gives it one, through that key. */
  readonly passwordless: MemberFixture
}

/** What a bare `--url --key` run knows: one key and what it can discover. */
export interface Discovered {
  readonly key: string
  readonly organization: string
  readonly project: number | null
}

export const createWorld = Effect.gen(function*() {
  const users = yield* UserService
  const organizations = yield* OrganizationService
  const members = yield* MemberService
  const keys = yield* PersonalApiKeyService
  const projects = yield* ProjectService

  const boot = yield* (yield* Bootstrap).run({ email: "owner@a.example", organizationName: "Alpha" })
  const orgB = yield* organizations.create(systemActor, { name: "Beta" })
  for (const email of ["owner@b.example", "member@a.example", "both@example.com"]) {
    yield* users.create(systemActor, { email })
  }
  yield* members.add(systemActor, orgB.id, { email: "owner@b.example", level: 15 })
  yield* members.add(systemActor, boot.organization_id, { email: "member@a.example", level: 1 })
  yield* members.add(systemActor, boot.organization_id, { email: "both@example.com", level: 8 })
  yield* members.add(systemActor, orgB.id, { email: "both@example.com", level: 8 })

  const key = (email: string, scopes: ReadonlyArray<string>, extra: object = {}) =>
    keys.create(systemActor, { email, scopes, ...extra }).pipe(Effect.map((k) => k.personal_api_key))
  const ownerB = yield* key("owner@b.example", ["*"])
  const ownerBActor = yield* Authentication.use((a) => a.authenticate(ownerB))
  const projectB = yield* projects.create(ownerBActor, orgB.id, bodyOf({ name: "Beta project" }))
  const exports = yield* BatchExportService
  const exportA = yield* exports.create(systemActor, boot.organization_id, { project_id: boot.project_id, name: "Alpha export" })
  const exportB = yield* exports.create(systemActor, orgB.id, { project_id: projectB.id, name: "Beta export" })
  const newerExportA = yield* exports.create(systemActor, boot.organization_id, { project_id: boot.project_id, name: "Alpha persons", model: "persons" })

  const memberOfA = (email: string, level: 1 | 8 | 15) =>
    Effect.gen(function*() {
      const user = yield* users.create(systemActor, { email })
      yield* members.add(systemActor, boot.organization_id, { email, level })
      return { key: yield* key(email, ["*"]), uuid: user.uuid, email }
    })
  const memberFixtures: MemberFixtures = {
    member: yield* memberOfA("fixture.member@a.example", 1),
    admin: yield* memberOfA("fixture.admin@a.example", 8),
    owner: yield* memberOfA("fixture.owner@a.example", 15),
    leaver: yield* memberOfA("fixture.leaver@a.example", 1),
    removable: yield* memberOfA("fixture.removable@a.example", 1),
    leavingOwner: yield* memberOfA("fixture.leaving-owner@a.example", 15),
    keyHolder: yield* memberOfA("fixture.keys@a.example", 1),
    passwordless: yield* memberOfA("fixture.passwordless@a.example", 1)
  }

  const founder = yield* users.create(systemActor, { email: "founder@example.com" })

  const roles = yield* RoleService
  const viewA = yield* roles.create(systemActor, boot.organization_id, bodyOf({ name: "Flag viewers", feature_flags_access_level: 21 }))
  yield* roles.addMember(systemActor, viewA.id, { email: "member@a.example" })
  const editA = yield* roles.create(systemActor, boot.organization_id, bodyOf({ name: "Flag editors", feature_flags_access_level: 37 }))
  const roleB = yield* roles.create(systemActor, orgB.id, bodyOf({ name: "Beta role" }))

  return {
    orgA: boot.organization_id,
    orgB: orgB.id,
    projectA: boot.project_id,
    projectB: projectB.id,
    batchExports: { a: exportA.id, b: exportB.id, newerA: newerExportA.id },
    founder: { key: yield* key(founder.email, ["*"]), uuid: founder.uuid, email: founder.email },
    members: memberFixtures,
    roles: { viewA: viewA.id, editA: editA.id, roleB: roleB.id },
    keys: {
      ownerA: boot.personal_api_key,
      ownerB,
      memberA: yield* key("member@a.example", ["*"]),
      projectReadA: yield* key("owner@a.example", ["project:read"]),
      projectWriteA: yield* key("owner@a.example", ["project:write"]),
      flagReadA: yield* key("owner@a.example", ["feature_flag:read"]),
      activityReadA: yield* key("owner@a.example", ["activity_log:read"]),
      cohortReadA: yield* key("owner@a.example", ["cohort:read"]),
      accessControlReadA: yield* key("owner@a.example", ["access_control:read"]),
      bothScopedToB: yield* key("both@example.com", ["*"], { scoped_organizations: [orgB.id] }),
      bothScopedToProjectB: yield* key("both@example.com", ["*"], { scoped_teams: [projectB.id] })
    }
  } satisfies World
})
