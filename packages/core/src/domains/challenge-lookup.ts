import { Context, Data, type Effect } from "effect"

/** A TXT lookup that produced no answer: NXDOMAIN, no TXT records, timeout, unreachable or failing server. */
export class ChallengeLookupFailed extends Data.TaggedError("ChallengeLookupFailed")<{
  readonly name: string
  readonly reason: string
}> {}

/**
 * The DNS port of domain verification (the store holds the resolver). An implementation answers within
 * its own time limit, so a slow or silent DNS server cannot hold a request for long.
 */
export class DomainChallengeLookup extends Context.Service<DomainChallengeLookup, {
  /** The TXT records at `name`, each as its character strings. */
  readonly txt: (name: string) => Effect.Effect<ReadonlyArray<ReadonlyArray<string>>, ChallengeLookupFailed>
}>()("hedgerow/DomainChallengeLookup") {}

/** PostHog asks `_posthog-challenge.<domain>`; Hedgerow's own name, configurable per deployment. */
export const DEFAULT_CHALLENGE_PREFIX = "_hedgerow-challenge"

export interface DomainVerification {
  /** The label(s) put before the domain to name the TXT record holding the challenge. */
  readonly challengePrefix: string
}

export const DomainVerificationSettings = Context.Reference<DomainVerification>("hedgerow/DomainVerificationSettings", {
  defaultValue: () => ({ challengePrefix: DEFAULT_CHALLENGE_PREFIX })
})

/** The TXT record name a domain's challenge is published under. */
export const challengeRecordName = (settings: DomainVerification, domain: string) => `${settings.challengePrefix}.${domain}`
