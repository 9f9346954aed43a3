import { Context, type Effect, type Option } from "effect"
import type { DomainRecord } from "../../domains/model.ts"
import type { DomainId } from "../../shared/ids.ts"

/**
 * What a SAML log-in keeps between its two requests and across every server process sharing the store:
 * the requests this server issued, each with the hash of the browser key that started it (until answered
 * or expired), and the assertions it accepted (until their own times would refuse them).
 */
export class SamlRepository extends Context.Service<SamlRepository, {
  /** A verified domain by id, as a Response's RelayState names it; none when it is unknown or unverified. */
  readonly verifiedDomain: (id: DomainId) => Effect.Effect<Option.Option<DomainRecord>>
  /**
   * Records a request sent to the domain's identity provider, answerable until `expires_at` (epoch ms)
   * from the browser whose key hashes to `browser_hash`; expired ones are dropped on the way.
   */
  readonly issueRequest: (request: {
    readonly id: string
    readonly domain_id: DomainId
    readonly expires_at: number
    readonly browser_hash: string
  }) => Effect.Effect<void>
  /**
   * Takes the request out, once: its browser's key hash when it was issued for this domain and has not
   * expired or been answered before, else none. Expired requests are dropped on the way.
   */
  readonly consumeRequest: (id: string, domain: DomainId) => Effect.Effect<Option.Option<string>>
  /**
   * Remembers an assertion the domain's identity provider issued, until `until` (epoch ms): false when it
   * was already remembered, that is, when it is a replay. Assertions past their time are dropped on the way.
   */
  readonly rememberAssertion: (domain: DomainId, id: string, until: number) => Effect.Effect<boolean>
}>()("hedgerow/SamlRepository") {}
