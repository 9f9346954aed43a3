import { assert, layer } from "@effect/vitest"
import { bodyOf, DomainService, type DomainId, OrganizationService, systemActor } from "@hedgerow/core"
import { SamlRepository } from "@hedgerow/core/ports"
import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { Hedgerow } from "../src/index.ts"
import { forEachBackend } from "../src/testing/index.ts"

let counter = 0
const unique = (prefix: string) => `${prefix}${++counter}-${Date.now()}`

/** A domain of an organization of its own, verified as a DNS check would have it unless told otherwise. */
const domainOf = (verified = true) =>
  Effect.gen(function*() {
    const organization = yield* OrganizationService.use((s) => s.create(systemActor, { name: unique("SAML ") }))
    const created = yield* DomainService.use((s) => s.create(systemActor, organization.id, bodyOf({ domain: `${unique("saml")}.example.com` })))
    if (verified) yield* (yield* SqlClient.SqlClient)`UPDATE domains SET verified_at = now() WHERE id = ${created.id}`
    return created.id
  })

const saml = SamlRepository
const HOUR = 60 * 60 * 1000
/** A browser key's hash, as core stores it. */
const BROWSER = "sha256$" + "ab".repeat(32)

forEachBackend((backend) =>
layer(backend.on((options) => Hedgerow.layer(options)), { timeout: 60_000, excludeTestServices: true })(
  `SAML requests and assertions on ${backend.name}`,
  (it) => {
    it.effect("finds a domain by id only while it is verified", () =>
      Effect.gen(function*() {
        const repository = yield* saml
        const verified = yield* domainOf()
        const unverified = yield* domainOf(false)
        assert.strictEqual(Option.getOrThrow(yield* repository.verifiedDomain(verified)).id, verified)
        assert.isTrue(Option.isNone(yield* repository.verifiedDomain(unverified)))
        assert.isTrue(Option.isNone(yield* repository.verifiedDomain("00000000-0000-4000-8000-000000000000" as DomainId)))
      }))

    it.effect("takes a request once, for its own domain, before it expires, with the hash of the browser that started it", () =>
      Effect.gen(function*() {
        const repository = yield* saml
        const domain = yield* domainOf()
        const other = yield* domainOf()
        const now = Date.now()
        yield* repository.issueRequest({ id: "_live", domain_id: domain, expires_at: now + HOUR, browser_hash: BROWSER })
        yield* repository.issueRequest({ id: "_expired", domain_id: domain, expires_at: now - 1000, browser_hash: BROWSER })
        // Another domain's answer naming it takes nothing, and leaves it for its own.
        assert.isTrue(Option.isNone(yield* repository.consumeRequest("_live", other)))
        assert.deepStrictEqual(yield* repository.consumeRequest("_live", domain), Option.some(BROWSER))
        assert.isTrue(Option.isNone(yield* repository.consumeRequest("_live", domain)))
        assert.isTrue(Option.isNone(yield* repository.consumeRequest("_expired", domain)))
        assert.isTrue(Option.isNone(yield* repository.consumeRequest("_never", domain)))
        // Expired requests are gone from the table, not merely refused, and so are they at the next start.
        const sql = yield* SqlClient.SqlClient
        assert.deepStrictEqual(yield* sql<{ id: string }>`SELECT id FROM saml_requests WHERE domain_id = ${domain}`, [])
        yield* repository.issueRequest({ id: "_stale", domain_id: domain, expires_at: now - 1000, browser_hash: BROWSER })
        yield* repository.issueRequest({ id: "_fresh", domain_id: domain, expires_at: now + HOUR, browser_hash: BROWSER })
        assert.deepStrictEqual(yield* sql<{ id: string }>`SELECT id FROM saml_requests WHERE domain_id = ${domain}`, [{ id: "_fresh" }])
      }))

    it.effect("of answers racing for one request, exactly one takes it", () =>
      Effect.gen(function*() {
        const repository = yield* saml
        const domain = yield* domainOf()
        yield* repository.issueRequest({ id: "_raced", domain_id: domain, expires_at: Date.now() + HOUR, browser_hash: BROWSER })
        const taken = yield* Effect.all(Array.from({ length: 6 }, () => repository.consumeRequest("_raced", domain)), { concurrency: "unbounded" })
        assert.strictEqual(taken.filter(Option.isSome).length, 1)
      }))

    it.effect("remembers an assertion per domain until its time, refusing it meanwhile, also when raced", () =>
      Effect.gen(function*() {
        const repository = yield* saml
        const domain = yield* domainOf()
        const other = yield* domainOf()
        const now = Date.now()
        assert.isTrue(yield* repository.rememberAssertion(domain, "_a", now + HOUR))
        assert.isFalse(yield* repository.rememberAssertion(domain, "_a", now + HOUR))
        // An identity provider's ids are its own: another domain's may repeat them.
        assert.isTrue(yield* repository.rememberAssertion(other, "_a", now + HOUR))
        // Past its time it is forgotten: its own times refuse it by then.
        assert.isTrue(yield* repository.rememberAssertion(domain, "_old", now - 1000))
        assert.isTrue(yield* repository.rememberAssertion(domain, "_old", now + HOUR))
        const raced = yield* Effect.all(Array.from({ length: 6 }, () => repository.rememberAssertion(domain, "_raced", now + HOUR)), {
          concurrency: "unbounded"
        })
        assert.strictEqual(raced.filter((r) => r).length, 1)
      }))

    it.effect("forgets a domain's requests and assertions with the domain", () =>
      Effect.gen(function*() {
        const repository = yield* saml
        const domain = yield* domainOf()
        yield* repository.issueRequest({ id: "_gone", domain_id: domain, expires_at: Date.now() + HOUR, browser_hash: BROWSER })
        yield* repository.rememberAssertion(domain, "_gone", Date.now() + HOUR)
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM domains WHERE id = ${domain}`
        const rows = yield* sql<{ n: number }>`
          SELECT (SELECT count(*) FROM saml_requests WHERE domain_id = ${domain})::integer
               + (SELECT count(*) FROM saml_assertions WHERE domain_id = ${domain})::integer AS n`
        assert.deepStrictEqual(rows, [{ n: 0 }])
      }))
  }
))
