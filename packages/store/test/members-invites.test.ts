import { assert, layer } from "@effect/vitest"
import {
  Authentication,
  bodyOf,
  Bootstrap,
  InviteService,
  MemberService,
  OrganizationService,
  PersonalApiKeyService,
  ProjectService,
  systemActor,
  UserService,
  type OrganizationId,
  type RoleId
} from "@hedgerow/core"
import { RoleRepository } from "@hedgerow/core/ports"
import { Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"
import { currentOf } from "./support.ts"

/** A user with a `*` key in the organization at a level, as the operator makes them. */
const memberOf = (organization: string, email: string, level: 1 | 8 | 15) =>
  Effect.gen(function*() {
    const user = yield* (yield* UserService).create(systemActor, { email })
    yield* (yield* MemberService).add(systemActor, organization, { email, level })
    const key = yield* (yield* PersonalApiKeyService).create(systemActor, { email, scopes: ["*"] })
    const actor = yield* (yield* Authentication).authenticate(key.personal_api_key)
    return { user, actor, key: key.personal_api_key }
  })

const freshOrganization = (name: string) =>
  OrganizationService.use((s) => s.create(systemActor, { name })).pipe(Effect.map((organization) => organization.id))

// The live clock: invite expiry compares the database's clock (creation times) with the service's.
forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(`members and invites on ${backend.name}`, (it) => {
  it.effect("bootstraps the first organization", () =>
    Effect.gen(function*() {
      yield* (yield* Bootstrap).run({ email: "boss@example.com", organizationName: "First" })
    }))

  it.effect("two owners leaving at once: exactly one leaves, the other is the last owner and stays", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Race")
      const a = yield* memberOf(org, "race.a@example.com", 15)
      const b = yield* memberOf(org, "race.b@example.com", 15)
      const members = yield* MemberService
      const outcomes = yield* Effect.all(
        [a.actor, b.actor].map((actor) => members.remove(actor, org, "@me").pipe(Effect.result)),
        { concurrency: "unbounded" }
      )
      const refused = outcomes.filter(Result.isFailure).map((outcome) => outcome.failure)
      assert.strictEqual(refused.length, 1)
      assert.deepInclude(refused[0], { _tag: "ValidationError", detail: "Cannot leave the organization as its owner!", attr: null })
      const left = yield* members.list(systemActor, org, {})
      assert.deepStrictEqual(left.results.map((member) => member.level), [15])
      const failure = yield* members.remove(systemActor, org, left.results[0]!.user.uuid).pipe(Effect.flip)
      assert.deepInclude(failure, { _tag: "ValidationError", detail: "Cannot leave the organization as its owner!", attr: null })
    }))

  it.effect("two owners demoting each other at once: one wins, the other is no longer an owner and is refused", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Duel")
      const a = yield* memberOf(org, "duel.a@example.com", 15)
      const b = yield* memberOf(org, "duel.b@example.com", 15)
      const members = yield* MemberService
      const demote = (by: typeof a, whom: typeof b) => members.update(by.actor, org, whom.user.uuid, bodyOf({ level: 8 })).pipe(Effect.result)
      const outcomes = yield* Effect.all([demote(a, b), demote(b, a)], { concurrency: "unbounded" })
      const refused = outcomes.filter(Result.isFailure).map((outcome) => outcome.failure)
      assert.strictEqual(refused.length, 1)
      assert.deepInclude(refused[0], { _tag: "PermissionDenied", detail: "You can only edit others with level lower or equal to you." })
      const levels = (yield* members.list(systemActor, org, {})).results.map((member) => member.level).sort((x, y) => y - x)
      assert.deepStrictEqual(levels, [15, 8])
    }))

  it.effect("the operator cannot demote an organization's only owner", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Lonely")
      const only = yield* memberOf(org, "lonely@example.com", 15)
      const failure = yield* MemberService.use((s) => s.update(systemActor, org, only.user.uuid, bodyOf({ level: 8 }))).pipe(Effect.flip)
      assert.deepInclude(failure, { _tag: "ValidationError", detail: "Cannot demote the organization's only owner.", attr: null })
    }))

  it.effect("removal ends the user's roles in that organization only, and repoints their current organization and project", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Roles here")
      const elsewhere = yield* freshOrganization("Roles elsewhere")
      const admin = yield* memberOf(org, "roles.admin@example.com", 8)
      const leaving = yield* memberOf(org, "roles.leaving@example.com", 1)
      yield* MemberService.use((s) => s.add(systemActor, elsewhere, { email: "roles.leaving@example.com", level: 1 }))
      const roles = yield* RoleRepository
      const here = yield* roles.insert({ organization_id: org as OrganizationId, name: "Here", feature_flags_access_level: 37, created_by_id: null })
      const there = yield* roles.insert({ organization_id: elsewhere as OrganizationId, name: "There", feature_flags_access_level: 37, created_by_id: null })
      yield* roles.addMember(here.id, leaving.user.id)
      yield* roles.addMember(there.id, leaving.user.id)
      assert.strictEqual((yield* currentOf("roles.leaving@example.com")).current_organization_id, org)

      yield* MemberService.use((s) => s.remove(admin.actor, org, leaving.user.uuid))

      const sql = yield* SqlClient.SqlClient
      const held = yield* sql<{ role_id: string }>`SELECT role_id FROM role_memberships WHERE user_id = ${leaving.user.id}`
      assert.deepStrictEqual(held.map((row) => row.role_id as RoleId), [there.id])
      assert.deepStrictEqual(yield* currentOf("roles.leaving@example.com"), { current_organization_id: elsewhere, current_project_id: null })
    }))

  it.effect("removal clears a current project in that organization even when the current organization is another", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Project pointer")
      const home = yield* freshOrganization("Home")
      const owner = yield* memberOf(org, "pointer.owner@example.com", 15)
      const wanderer = yield* memberOf(home, "pointer.wanderer@example.com", 15)
      yield* MemberService.use((s) => s.add(systemActor, org, { email: "pointer.wanderer@example.com", level: 8 }))
      const actor = yield* (yield* Authentication).authenticate(wanderer.key)
      // Creating a project makes it the creator's current project: it points into `org`, and the organization back home.
      yield* ProjectService.use((s) => s.create(actor, org, bodyOf({ name: "Pointer" })))
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE users SET current_organization_id = ${home} WHERE id = ${wanderer.user.id}`
      yield* MemberService.use((s) => s.remove(owner.actor, org, wanderer.user.uuid))
      assert.deepStrictEqual(yield* currentOf("pointer.wanderer@example.com"), { current_organization_id: home, current_project_id: null })
    }))

  it.effect("expired invites are listed as expired, never merged, and still replaced", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Expiry")
      const owner = yield* memberOf(org, "expiry.owner@example.com", 15)
      const invites = yield* InviteService
      const old = yield* invites.create(owner.actor, org, bodyOf({ target_email: "late@example.com", level: 8 }))
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE invites SET created_at = now() - interval '3 days 1 minute' WHERE id = ${old.id}`
      const listed = yield* invites.list(owner.actor, org, {})
      assert.deepStrictEqual(listed.results.map((invite) => [invite.id, invite.is_expired]), [[old.id, true]])

      const fresh = yield* invites.create(owner.actor, org, bodyOf({ target_email: "LATE@example.com", combine_pending_invites: true }))
      assert.strictEqual(fresh.level, 1)
      assert.isFalse(fresh.is_expired)
      const after = yield* invites.list(owner.actor, org, {})
      assert.deepStrictEqual(after.results.map((invite) => invite.id), [fresh.id])
    }))

  it.effect("without a mail transport an invite's e-mail is recorded in the outbox and not attempted", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Outbox")
      const owner = yield* memberOf(org, "outbox.owner@example.com", 15)
      const invites = yield* InviteService
      const mailed = yield* invites.create(owner.actor, org, bodyOf({ target_email: "mailed@example.com" }))
      const quiet = yield* invites.create(owner.actor, org, bodyOf({ target_email: "quiet@example.com", send_email: "false" }))
      assert.isFalse(mailed.emailing_attempt_made)
      assert.isFalse(quiet.emailing_attempt_made)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ recipient: string; kind: string; related_id: string; attempts: number; sent_at: Date | null; subject: string }>`
        SELECT recipient, kind, related_id, attempts, sent_at, subject FROM email_outbox WHERE related_id IN (${mailed.id}, ${quiet.id})`
      assert.deepStrictEqual(
        rows.map((row) => [row.recipient, row.kind, row.related_id, row.attempts, row.sent_at]),
        [["mailed@example.com", "invite", mailed.id, 0, null]]
      )
      assert.strictEqual(rows[0]!.subject, "outbox.owner@example.com invited you to join Outbox on Hedgerow")
    }))

  it.effect("a failed bulk leaves neither invites nor outbox rows behind", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Atomic")
      const owner = yield* memberOf(org, "atomic.owner@example.com", 15)
      const invites = yield* InviteService
      const failure = yield* invites.bulk(owner.actor, org, bodyOf([
        { target_email: "one@atomic.example" },
        { target_email: "atomic.owner@example.com" }
      ])).pipe(Effect.flip)
      assert.deepInclude(failure, { _tag: "ValidationError", attr: "1" })
      assert.strictEqual((yield* invites.list(owner.actor, org, {})).count, 0)
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql`SELECT id FROM email_outbox WHERE recipient = 'one@atomic.example'`
      assert.strictEqual(rows.length, 0)
    }))
}))
