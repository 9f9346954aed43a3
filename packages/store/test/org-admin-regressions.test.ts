import { assert, layer } from "@effect/vitest"
import {
  bodyOf,
  Bootstrap,
  DomainService,
  InviteService,
  MemberService,
  OrganizationService,
  systemActor,
  UserService
} from "@hedgerow/core"
import { Effect, Result } from "effect"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

/** Edge cases of organization administration that only a real store shows, each held on both stores. */

const freshOrganization = (name: string) =>
  OrganizationService.use((s) => s.create(systemActor, { name })).pipe(Effect.map((organization) => organization.id))

const ALREADY_MEMBER = "A user with this email address already belongs to the organization."

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000 })(`organization administration regressions on ${backend.name}`, (it) => {
  it.effect("bootstraps the first organization", () =>
    Effect.gen(function*() {
      yield* (yield* Bootstrap).run({ email: "boss@example.com", organizationName: "First" })
    }))

  // JavaScript lowers a word-final capital sigma to ς, PostgreSQL to σ: comparing one side lowered by
  // each would let an existing member be invited again.
  it.effect("an address whose letters JavaScript and PostgreSQL lower differently is still a member's", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Sigma")
      const email = "ΟΔΟΣ@greek.example"
      yield* (yield* UserService).create(systemActor, { email })
      yield* (yield* MemberService).add(systemActor, org, { email, level: 1 })
      const invites = yield* InviteService
      for (const target_email of [email, "οδοσ@greek.example"]) {
        const refused = yield* invites.create(systemActor, org, bodyOf({ target_email, send_email: false })).pipe(Effect.flip)
        assert.deepInclude(refused, { _tag: "ValidationError", detail: ALREADY_MEMBER, attr: null })
      }
      const bulk = yield* invites.bulk(systemActor, org, bodyOf([{ target_email: "new@greek.example" }, { target_email: email }])).pipe(
        Effect.flip
      )
      assert.deepInclude(bulk, { _tag: "ValidationError", detail: ALREADY_MEMBER, attr: "1" })
      assert.strictEqual((yield* invites.list(systemActor, org, {})).count, 0)
    }))

  it.effect("two invites for one address at once leave exactly one invite", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Twice")
      const invites = yield* InviteService
      const invite = (target_email: string, level: 1 | 8) =>
        invites.create(systemActor, org, bodyOf({ target_email, level, send_email: false }))
      const made = yield* Effect.all([invite("twice@example.com", 1), invite("TWICE@example.com", 8)], { concurrency: "unbounded" })
      const left = (yield* invites.list(systemActor, org, {})).results
      assert.strictEqual(left.length, 1)
      assert.include(made.map((created) => created.id), left[0]!.id)
    }))

  it.effect("two organizations creating one domain at once: one gets it, the other a 400 unique", () =>
    Effect.gen(function*() {
      const [first, second] = [yield* freshOrganization("Claim one"), yield* freshOrganization("Claim two")]
      const domains = yield* DomainService
      const outcomes = yield* Effect.all(
        [first, second].map((org) => domains.create(systemActor, org, bodyOf({ domain: "claimed.example" })).pipe(Effect.result)),
        { concurrency: "unbounded" }
      )
      assert.strictEqual(outcomes.filter(Result.isSuccess).length, 1)
      const refused = outcomes.filter(Result.isFailure).map((outcome) => outcome.failure)
      assert.deepStrictEqual(refused.map(({ _tag, detail }) => ({ _tag, detail })), [
        { _tag: "ValidationError", detail: "domain with this domain already exists." }
      ])
    }))

  it.effect("a members e-mail filter holding NUL matches nobody instead of failing in SQL", () =>
    Effect.gen(function*() {
      const org = yield* freshOrganization("Nul")
      const page = yield* (yield* MemberService).list(systemActor, org, { email: "a\u0000b@example.com" })
      assert.deepStrictEqual({ count: page.count, results: page.results }, { count: 0, results: [] })
    }))
}))
