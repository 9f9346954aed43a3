import { assert, layer } from "@effect/vitest"
import { Bootstrap, bodyOf, type DomainId, DomainService, type OrganizationId, systemActor } from "@hedgerow/core"
import { DomainRepository } from "@hedgerow/core/ports"
import { Cause, ConfigProvider, Effect, Exit, Fiber, Layer, Option } from "effect"
import { Hedgerow, Store } from "../src/index.ts"
import { type Backend, forEachBackend } from "../src/testing/index.ts"
import { TestDns, type ZoneAnswer } from "./dns-server.ts"

const TIMEOUT_MS = 600

/** Hedgerow on `backend`, configured as an operator would, through the environment, against the test DNS server. */
const servicesWith = (backend: Backend, env: Record<string, string>) =>
  Layer.unwrap(Effect.map(Effect.service(TestDns), (dns) =>
    backend.on((options) =>
      Hedgerow.layer(options).pipe(
        Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env: { HEDGEROW_DNS_SERVERS: dns.address, ...env } })))
      )
    ))).pipe(Layer.provideMerge(TestDns.layer))

// One organization per store (each layer below has its own), made on first use.
const organizations = new WeakMap<object, OrganizationId>()
const org = Effect.gen(function*() {
  const bootstrap = yield* Bootstrap
  const known = organizations.get(bootstrap)
  if (known !== undefined) return known
  const made = (yield* bootstrap.run({ email: "dns@example.com" })).organization_id
  organizations.set(bootstrap, made)
  return made
})

let counter = 0
/** A new domain whose challenge record the test zone answers with `answer(challenge)`. */
const domainAnswering = (answer: (challenge: string) => ZoneAnswer, prefix = "_hedgerow-challenge") =>
  Effect.gen(function*() {
    const domains = yield* DomainService
    const created = yield* domains.create(systemActor, yield* org, bodyOf({ domain: `d${++counter}-${Date.now()}.example.com` }))
    const dns = yield* TestDns
    dns.zone.set(`${prefix}.${created.domain}`, answer(created.verification_challenge))
    return created
  })

const verifyAndRead = (id: string) =>
  Effect.gen(function*() {
    const domains = yield* DomainService
    const started = Date.now()
    yield* domains.verify(systemActor, yield* org, id, bodyOf({}))
    const elapsed = Date.now() - started
    const record = yield* (yield* DomainRepository).find(yield* org, id as DomainId)
    return { elapsed, view: yield* domains.retrieve(systemActor, yield* org, id), record: Option.getOrThrow(record) }
  })

const assertUnverified = (outcome: Effect.Success<ReturnType<typeof verifyAndRead>>) => {
  assert.isFalse(outcome.view.is_verified)
  assert.isNull(outcome.view.verified_at)
  assert.match(outcome.record.last_verification_retry ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
}

forEachBackend((backend) => {
layer(servicesWith(backend, { HEDGEROW_DNS_TIMEOUT_MS: String(TIMEOUT_MS) }), { timeout: 60_000, excludeTestServices: true })(
  `domain verification against a real DNS server on ${backend.name}`,
  (it) => {
    it.effect("a TXT record equal to the challenge verifies the domain; verifying again is 400 already_verified", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering((challenge) => ({ txt: [[challenge]] }))
        const { view, record } = yield* verifyAndRead(created.id)
        assert.isTrue(view.is_verified)
        assert.match(view.verified_at ?? "", /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
        assert.isNull(record.last_verification_retry)
        assert.deepStrictEqual((yield* TestDns).queries.at(-1), `_hedgerow-challenge.${created.domain}`)

        const again = yield* (yield* DomainService).verify(systemActor, yield* org, created.id, bodyOf({})).pipe(Effect.flip)
        assert.deepStrictEqual(
          [again._tag, (again as { code?: string }).code, again.detail, (again as { attr?: unknown }).attr],
          ["ValidationError", "already_verified", "This domain has already been verified.", null]
        )
        const kept = yield* (yield* DomainService).retrieve(systemActor, yield* org, created.id)
        assert.strictEqual(kept.verified_at, view.verified_at)
      }))

    it.effect("once verified, JIT provisioning and SSO enforcement can be switched", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering((challenge) => ({ txt: [[challenge]] }))
        yield* verifyAndRead(created.id)
        const updated = yield* (yield* DomainService).update(
          systemActor,
          yield* org,
          created.id,
          bodyOf({ jit_provisioning_enabled: true, sso_enforcement: "google-oauth2" })
        )
        assert.isTrue(updated.jit_provisioning_enabled)
        assert.strictEqual(updated.sso_enforcement, "google-oauth2")
        const invalidChoice = yield* (yield* DomainService).update(systemActor, yield* org, created.id, bodyOf({ sso_enforcement: "okta" })).pipe(Effect.flip)
        assert.strictEqual((invalidChoice as { code: string }).code, "invalid_choice")
      }))

    it.effect("the challenge may be any one of several TXT records, but must be a record's first string", () =>
      Effect.gen(function*() {
        const among = yield* domainAnswering((challenge) => ({ txt: [["v=spf1 -all"], [challenge], ["other"]] }))
        assert.isTrue((yield* verifyAndRead(among.id)).view.is_verified)
        const second = yield* domainAnswering((challenge) => ({ txt: [["prefix", challenge]] }))
        assertUnverified(yield* verifyAndRead(second.id))
      }))

    it.effect("a wrong value leaves the domain unverified and records the retry", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering((challenge) => ({ txt: [[`${challenge}x`], ["unrelated"]] }))
        assertUnverified(yield* verifyAndRead(created.id))
      }))

    it.effect("NXDOMAIN, an empty answer and a failing server all leave the domain unverified", () =>
      Effect.gen(function*() {
        for (const answer of ["nxdomain", { txt: [] }, "servfail"] as const) {
          const created = yield* domainAnswering(() => answer)
          assertUnverified(yield* verifyAndRead(created.id))
        }
      }))

    it.effect("a server that never answers: unverified, and the call returns within the timeout", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering(() => "silent")
        const outcome = yield* verifyAndRead(created.id)
        assertUnverified(outcome)
        assert.isAtLeast(outcome.elapsed, TIMEOUT_MS - 50)
        assert.isBelow(outcome.elapsed, TIMEOUT_MS + 1_000)
      }))

    it.effect("a rename while the lookup is in flight: the old name's answer does not verify the new name", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering((challenge) => ({ txt: [[challenge]], delayMs: 300 }))
        const domains = yield* DomainService
        const pending = yield* Effect.forkChild(domains.verify(systemActor, yield* org, created.id, bodyOf({})))
        yield* Effect.sleep(50)
        const renamed = `renamed-${created.domain}`
        yield* domains.update(systemActor, yield* org, created.id, bodyOf({ domain: renamed }))
        yield* Fiber.join(pending)
        const after = yield* domains.retrieve(systemActor, yield* org, created.id)
        assert.deepStrictEqual([after.domain, after.is_verified, after.verified_at], [renamed, false, null])
      }))

    it.effect("a lookup in flight does not hold up other requests", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering(() => "silent")
        const domains = yield* DomainService
        const pending = yield* Effect.forkChild(domains.verify(systemActor, yield* org, created.id, bodyOf({})))
        yield* Effect.sleep(50)
        const started = Date.now()
        const page = yield* domains.list(systemActor, yield* org, {})
        assert.isBelow(Date.now() - started, TIMEOUT_MS / 2)
        assert.isAtLeast(page.count, 1)
        yield* Fiber.join(pending)
      }))

    it.effect("the record asked is always the prefix and the domain, whatever the body says", () =>
      Effect.gen(function*() {
        const created = yield* domainAnswering((challenge) => ({ txt: [[challenge]] }))
        yield* (yield* DomainService).verify(systemActor, yield* org, created.id, bodyOf({ domain: "evil.example", verification_challenge: "x" }))
        assert.strictEqual((yield* TestDns).queries.at(-1), `_hedgerow-challenge.${created.domain}`)
        assert.isTrue((yield* (yield* DomainService).retrieve(systemActor, yield* org, created.id)).is_verified)
      }))
  }
)

layer(servicesWith(backend, { HEDGEROW_DOMAIN_CHALLENGE_PREFIX: "_acme-proof" }), { timeout: 60_000, excludeTestServices: true })(
  `a configured challenge prefix on ${backend.name}`,
  (it) => {
    it.effect("names the TXT record verification asks for", () =>
      Effect.gen(function*() {
        const wrongPlace = yield* domainAnswering((challenge) => ({ txt: [[challenge]] }))
        assertUnverified(yield* verifyAndRead(wrongPlace.id))
        const created = yield* domainAnswering((challenge) => ({ txt: [[challenge]] }), "_acme-proof")
        assert.isTrue((yield* verifyAndRead(created.id)).view.is_verified)
        assert.strictEqual((yield* TestDns).queries.at(-1), `_acme-proof.${created.domain}`)
      }))
  }
)
})

// The network adapters alone: their configuration needs no database to be judged.
const buildWith = (env: Record<string, string>) =>
  Layer.build(Store.networkLayer.pipe(Layer.provide(ConfigProvider.layer(ConfigProvider.fromEnv({ env }))))).pipe(
    Effect.scoped,
    Effect.exit
  )

layer(Layer.empty)("DNS configuration mistakes", (it) => {
  it.effect("refuse to start with a message naming the setting", () =>
    Effect.gen(function*() {
      const cases = [
        [{ HEDGEROW_DNS_SERVERS: "not an address" }, /^HEDGEROW_DNS_SERVERS: /],
        [{ HEDGEROW_DNS_TIMEOUT_MS: "0" }, /^HEDGEROW_DNS_TIMEOUT_MS must be a positive number/],
        [{ HEDGEROW_DOMAIN_CHALLENGE_PREFIX: "bad prefix!" }, /^HEDGEROW_DOMAIN_CHALLENGE_PREFIX: "bad prefix!" is not a DNS name/]
      ] as const
      for (const [env, message] of cases) {
        const exit = yield* buildWith(env)
        assert.isTrue(Exit.isFailure(exit))
        if (Exit.isFailure(exit)) assert.match((Cause.squash(exit.cause) as Error).message, message)
      }
      const fine = yield* buildWith({ HEDGEROW_DNS_SERVERS: "127.0.0.1, [::1]:5353, 10.0.0.1:53", HEDGEROW_DOMAIN_CHALLENGE_PREFIX: "_a.b-c" })
      assert.isTrue(Exit.isSuccess(fine))
    }))
})
