import { Context, type Effect, type Option } from "effect"
import type { PendingOAuthLogin } from "./pending-login.ts"

/** Pending OAuth log-ins, each found by the hash of its browser's cookie and used once. */
export class OAuthLoginRepository extends Context.Service<OAuthLoginRepository, {
  /** Keeps a new pending log-in; a browser has one at a time, so one under the same hash is replaced. */
  readonly insert: (pending: PendingOAuthLogin) => Effect.Effect<void>
  /** Removes and returns the pending log-in of this browser hash, expired or not: whatever comes next, it is used. */
  readonly take: (browserHash: string) => Effect.Effect<Option.Option<PendingOAuthLogin>>
  /** Drops pending log-ins past their expiry, which no browser can complete any more. */
  readonly removeExpired: Effect.Effect<void>
}>()("hedgerow/OAuthLoginRepository") {}
