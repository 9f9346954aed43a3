import {
  ChallengeLookupFailed,
  DEFAULT_CHALLENGE_PREFIX,
  DomainChallengeLookup,
  DomainVerificationSettings
} from "@hedgerow/core/ports"
import { Config, Data, Effect, Layer } from "effect"
import { Resolver } from "node:dns/promises"

/** How domain verification reaches DNS. */
export interface DnsOptions {
  /** `ip` or `ip:port` (IPv6 as `[ip]:port`); empty means the system's resolvers. */
  readonly servers: ReadonlyArray<string>
  /** The whole lookup, every server and retry included, ends after this long. */
  readonly timeoutMs: number
}

export const DEFAULT_DNS_TIMEOUT_MS = 5_000

/** A DNS setting the operator got wrong: the service refuses to start rather than fail every verification. */
export class DnsConfigError extends Data.TaggedError("DnsConfigError")<{ readonly message: string }> {}

const failureReason = (error: unknown): string =>
  typeof error === "object" && error !== null && typeof (error as { code?: unknown }).code === "string"
    ? (error as { code: string }).code
    : String(error)

/**
 * TXT lookups with Node's c-ares resolver: asynchronous, so a slow server holds only its own request. A
 * fresh resolver per lookup lets a timeout cancel exactly that query.
 */
export const dnsChallengeLookup = (options: DnsOptions) =>
  DomainChallengeLookup.of({
    txt: (name) =>
      Effect.suspend(() => {
        const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 })
        if (options.servers.length > 0) resolver.setServers(options.servers)
        return Effect.tryPromise({
          try: (signal) => {
            signal.addEventListener("abort", () => resolver.cancel())
            return resolver.resolveTxt(name)
          },
          catch: (error) => new ChallengeLookupFailed({ name, reason: failureReason(error) })
        }).pipe(
          Effect.timeoutOrElse({
            duration: options.timeoutMs,
            orElse: () => Effect.fail(new ChallengeLookupFailed({ name, reason: "ETIMEOUT" }))
          })
        )
      })
  })

const LABELS = /^[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?(?:\.[A-Za-z0-9_](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?)*$/

/** Parses HEDGEROW_DNS_SERVERS and HEDGEROW_DNS_TIMEOUT_MS; Node itself judges the addresses. */
export const dnsOptionsOf = (raw: { readonly servers: string; readonly timeoutMs: number }) =>
  Effect.gen(function*() {
    const servers = raw.servers.split(",").map((server) => server.trim()).filter((server) => server !== "")
    yield* Effect.try({
      try: () => new Resolver().setServers(servers),
      catch: (error) =>
        new DnsConfigError({ message: `HEDGEROW_DNS_SERVERS: ${(error as Error).message} (expected ip or ip:port, comma-separated)` })
    })
    if (!Number.isInteger(raw.timeoutMs) || raw.timeoutMs < 1) {
      return yield* new DnsConfigError({ message: "HEDGEROW_DNS_TIMEOUT_MS must be a positive number of milliseconds" })
    }
    return { servers, timeoutMs: raw.timeoutMs } satisfies DnsOptions
  })

/**
 * Domain verification's DNS side, configured once when the layer is built: HEDGEROW_DNS_SERVERS
 * (default: the system's), HEDGEROW_DNS_TIMEOUT_MS (default 5000) and HEDGEROW_DOMAIN_CHALLENGE_PREFIX
 * (default `_hedgerow-challenge`).
 */
export const layer = Layer.mergeAll(
  Layer.effect(
    DomainChallengeLookup,
    Effect.gen(function*() {
      const raw = yield* Config.all({
        servers: Config.String("HEDGEROW_DNS_SERVERS").pipe(Config.withDefault("")),
        timeoutMs: Config.Int("HEDGEROW_DNS_TIMEOUT_MS").pipe(Config.withDefault(DEFAULT_DNS_TIMEOUT_MS))
      })
      return dnsChallengeLookup(yield* dnsOptionsOf(raw))
    })
  ),
  Layer.effect(
    DomainVerificationSettings,
    Effect.gen(function*() {
      const challengePrefix = yield* Config.String("HEDGEROW_DOMAIN_CHALLENGE_PREFIX").pipe(
        Config.withDefault(DEFAULT_CHALLENGE_PREFIX)
      )
      if (!LABELS.test(challengePrefix)) {
        return yield* new DnsConfigError({
          message: `HEDGEROW_DOMAIN_CHALLENGE_PREFIX: "${challengePrefix}" is not a DNS name (labels of letters, digits, - and _)`
        })
      }
      return { challengePrefix }
    })
  )
)
