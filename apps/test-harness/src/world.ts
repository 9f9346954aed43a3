import {
  Authentication,
  bodyOf,
  Bootstrap,
  MemberService,
  OrganizationService,
  PersonalApiKeyService,
  ProjectService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { Effect } from "effect"

/**
 * The fixtures scenarios run against: two organizations with a project each, their owners, a plain
 * member, a user in both, and keys with narrow scopes or restrictions. Made by the operator (core,
 * in-process), because users, organizations and keys have no API endpoints.
 */
export interface World {
  readonly orgA: string
  readonly orgB: string
  readonly projectA: number
  readonly projectB: number
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
    /** Member of both A and B, key restricted to organization B. */
    readonly bothScopedToB: string
    /** Member of both A and B, key restricted to project B. */
    readonly bothScopedToProjectB: string
  }
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

  return {
    orgA: boot.organization_id,
    orgB: orgB.id,
    projectA: boot.project_id,
    projectB: projectB.id,
    keys: {
      ownerA: boot.personal_api_key,
      ownerB,
      memberA: yield* key("member@a.example", ["*"]),
      projectReadA: yield* key("owner@a.example", ["project:read"]),
      projectWriteA: yield* key("owner@a.example", ["project:write"]),
      flagReadA: yield* key("owner@a.example", ["feature_flag:read"]),
      bothScopedToB: yield* key("both@example.com", ["*"], { scoped_organizations: [orgB.id] }),
      bothScopedToProjectB: yield* key("both@example.com", ["*"], { scoped_teams: [projectB.id] })
    }
  } satisfies World
})
